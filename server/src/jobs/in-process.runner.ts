/**
 * The in-process job runner (SQLite: one process owns the database). Recurring jobs on timers; a
 * tick that finds its job still running is skipped and logged (no overlap); a run that throws is
 * retried with back-off (job-runner.ts jobRetryDelayMs) up to JOB_RETRY_LIMIT times before the
 * next tick; `stop()` clears the timers, tells running jobs to stop between batches and waits.
 * Webhook-triggered syncs stay on the in-process debounced queue (modules/sync/sync-queue.ts).
 */
import { JOB_RETRY_LIMIT, jobRetryDelayMs, jobNamed, type Job, type JobContext, type JobDeps, type JobRunner } from './job-runner.ts';

/** Starts `jobs` in this process; see the module comment. */
export function startInProcessRunner(deps: JobDeps, jobs: readonly Job[]): JobRunner {
  let stopping = false;
  const timers = new Set<NodeJS.Timeout>();
  const running = new Map<string, Promise<void>>();
  const ctx: JobContext = { isStopping: () => stopping };

  const later = (fn: () => void, ms: number) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    t.unref();
    timers.add(t);
  };

  const runJob = (job: Job, attempt = 0): Promise<void> => {
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
        const retry = attempt < JOB_RETRY_LIMIT && !stopping;
        deps.logger.error(
          { job: job.name, errName: (err as Error)?.name, errMessage: (err as Error)?.message, attempt: attempt + 1, retryInMs: retry ? jobRetryDelayMs(attempt + 1) : null },
          'job failed',
        );
        if (retry) later(() => void runJob(job, attempt + 1), jobRetryDelayMs(attempt + 1));
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
    timers.add(timer);
    if (job.runOnStart) void runJob(job);
  }

  return {
    runNow: async (name) => {
      await runJob(jobNamed(jobs, name));
    },
    stop: async () => {
      stopping = true;
      for (const t of timers) {
        clearInterval(t);
        clearTimeout(t);
      }
      timers.clear();
      await Promise.allSettled([...running.values()]);
    },
  };
}
