/**
 * One interface for background work, two runners (chosen once, in scheduler.ts `startJobs`):
 *
 * - PostgreSQL (one or many instances on one database): pg-boss (pg-boss.runner.ts). Every run of
 *   a recurring job and every queued connection sync is a row claimed by exactly one instance
 *   (`SELECT … FOR UPDATE SKIP LOCKED`); a job whose worker died is expired after its timeout and
 *   retried with back-off on whichever instance is alive.
 * - SQLite (one process, the embedded default): the same definitions run in-process
 *   (in-process.runner.ts): timers, no overlap of a job with itself, retries with back-off.
 *
 * Modules never ask which runner is in use: they call `scheduleSync` (modules/sync/sync-queue.ts),
 * which the pg-boss runner routes to its queue.
 */
import type { SyncDeps } from '../modules/sync/index.ts';

export type JobDeps = SyncDeps;

export interface JobContext {
  /** True once stop() was called: long jobs check it between batches. */
  isStopping(): boolean;
  /**
   * Present when the runner has a connection-sync queue that every instance's workers take from:
   * queues a backup sync of each connection (the claim is checked when the sync starts) and
   * resolves to how many were queued. Absent: the job syncs them itself, SYNC_WORKERS at a time.
   */
  enqueueBackupSyncs?(connectionIds: readonly string[]): Promise<number>;
}

/** A recurring job: one run per interval among all instances; a run never overlaps the previous one. */
export interface Job {
  name: string;
  intervalMs: number;
  /** Run once right after start (default false: first run after one interval). */
  runOnStart?: boolean;
  run(deps: JobDeps, ctx: JobContext): Promise<unknown>;
}

/** A running job runner (either kind). */
export interface JobRunner {
  /** Runs a recurring job now in this process unless it is already running here; resolves when that run ends. */
  runNow(name: string): Promise<void>;
  /** Stops timers and workers; waits for running jobs (they see isStopping() and stop between batches). */
  stop(): Promise<void>;
}

/** The job called `name` among `jobs`. @throws Error `unknown job <name>`. */
export function jobNamed(jobs: readonly Job[], name: string): Job {
  const job = jobs.find((j) => j.name === name);
  if (!job) throw new Error(`unknown job ${name}`);
  return job;
}

/** Retries of a job whose handler threw or whose worker died: this many, 5 s, 10 s, 20 s … apart. */
export const JOB_RETRY_LIMIT = 5;
export const JOB_RETRY_DELAY_S = 5;

/** Delay (ms) before retry number `attempt` (1-based) of a failed job: 5 s × 2^(attempt − 1), at most 15 min. */
export function jobRetryDelayMs(attempt: number): number {
  return Math.min(15 * 60_000, JOB_RETRY_DELAY_S * 1000 * 2 ** Math.max(0, attempt - 1));
}
