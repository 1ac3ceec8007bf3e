/**
 * One scheduler for background jobs. Jobs declare their interval; a run never overlaps the
 * previous run of the same job (a tick that finds it still running is skipped and logged);
 * `stop()` clears the timers, tells running jobs to stop between batches and waits for them.
 */
import type { SyncDeps } from '../modules/sync/sync.service.ts';
import { backupSyncJob } from './backup-sync.job.ts';
import { pushChannelsJob } from './push-channels.job.ts';
import { purgeJob } from './purge.job.ts';

export type JobDeps = SyncDeps;

export interface JobContext {
  /** True once stop() was called: long jobs check it between batches. */
  isStopping(): boolean;
}

export interface Job {
  name: string;
  intervalMs: number;
  /** Run once right after start (default false: first run after one interval). */
  runOnStart?: boolean;
  run(deps: JobDeps, ctx: JobContext): Promise<unknown>;
}

export interface Scheduler {
  /** Runs a job now unless it is already running; resolves when that run ends. */
  runNow(name: string): Promise<void>;
  stop(): Promise<void>;
}

export function startScheduler(deps: JobDeps, jobs: readonly Job[]): Scheduler {
  let stopping = false;
  const timers: NodeJS.Timeout[] = [];
  const running = new Map<string, Promise<void>>();
  const ctx: JobContext = { isStopping: () => stopping };

  const runJob = (job: Job): Promise<void> => {
    const current = running.get(job.name);
    if (current) {
      deps.logger.warn({ job: job.name }, 'job still running; tick skipped');
      return current;
    }
    if (stopping) return Promise.resolve();
    const started = Date.now();
    const p = (async () => {
      try {
        await job.run(deps, ctx);
      } catch (err) {
        deps.logger.error({ job: job.name, errName: (err as Error)?.name, errMessage: (err as Error)?.message }, 'job failed');
      } finally {
        running.delete(job.name);
        deps.logger.debug({ job: job.name, ms: Date.now() - started }, 'job finished');
      }
    })();
    running.set(job.name, p);
    return p;
  };

  for (const job of jobs) {
    const timer = setInterval(() => void runJob(job), job.intervalMs);
    timer.unref();
    timers.push(timer);
    if (job.runOnStart) void runJob(job);
  }

  return {
    runNow: async (name) => {
      const job = jobs.find((j) => j.name === name);
      if (!job) throw new Error(`unknown job ${name}`);
      await runJob(job);
    },
    stop: async () => {
      stopping = true;
      for (const t of timers) clearInterval(t);
      await Promise.allSettled([...running.values()]);
    },
  };
}

export interface StartJobsOptions {
  /** Override intervals by job name (tests). */
  intervals?: Record<string, number>;
}

/** The server's jobs: the backup calendar sync (every minute, each connection every 15 minutes), push-channel upkeep (hourly) and the purge of expired rows (daily). */
export function startJobs(deps: JobDeps, options: StartJobsOptions = {}): { stop(): Promise<void>; runNow(name: string): Promise<void> } {
  const jobs = [backupSyncJob(), pushChannelsJob(), purgeJob()].map((j) => ({ ...j, intervalMs: options.intervals?.[j.name] ?? j.intervalMs }));
  const scheduler = startScheduler(deps, jobs);
  deps.logger.info({ jobs: jobs.map((j) => ({ name: j.name, intervalMs: j.intervalMs })) }, 'jobs started');
  return scheduler;
}
