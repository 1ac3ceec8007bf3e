/**
 * The server's background jobs and the one place that picks their runner (job-runner.ts): pg-boss
 * when the database is PostgreSQL (any number of instances), in-process on SQLite (one process).
 */
import { sql } from 'kysely';
import { backupSyncJob } from './backup-sync.job.ts';
import { startInProcessRunner } from './in-process.runner.ts';
import type { Job, JobDeps, JobRunner } from './job-runner.ts';
import { jobsSchemaFor, startPgBossRunner } from './pg-boss.runner.ts';
import { purgeJob } from './purge.job.ts';
import { pushChannelsJob } from './push-channels.job.ts';

export type { Job, JobDeps, JobRunner } from './job-runner.ts';

/** Recurring jobs in this process only (in-process runner): kept for callers that run their own jobs. */
export function startScheduler(deps: JobDeps, jobs: readonly Job[]): JobRunner {
  return startInProcessRunner(deps, jobs);
}

export interface StartJobsOptions {
  /** Override intervals by job name (tests). */
  intervals?: Record<string, number>;
}

/**
 * Starts the server's jobs: the backup calendar sync (a planner every BACKUP_SYNC_TICK_MS — default
 * a minute — each connection every 15 minutes in its own minute), push-channel upkeep (hourly) and
 * the purge of expired rows (daily). On PostgreSQL they run on pg-boss in the schema beside the
 * application's (`pgboss`, or `<schema>_pgboss`), with SYNC_WORKERS queued syncs at once per
 * instance; on SQLite in this process.
 * @throws when pg-boss cannot start (database unreachable, no right to create its schema).
 */
export async function startJobs(deps: JobDeps, options: StartJobsOptions = {}): Promise<JobRunner> {
  const jobs = [backupSyncJob(deps.config.BACKUP_SYNC_TICK_MS), pushChannelsJob(), purgeJob()].map((j) => ({
    ...j,
    intervalMs: options.intervals?.[j.name] ?? j.intervalMs,
  }));
  let runner: JobRunner;
  if (deps.config.DATABASE_URL) {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(deps.db);
    runner = await startPgBossRunner(deps, jobs, {
      connectionString: deps.config.DATABASE_URL,
      schema: jobsSchemaFor(rows[0]?.schema ?? 'public'),
      syncWorkers: deps.config.SYNC_WORKERS,
      leaseMs: deps.config.SYNC_LEASE_MS,
    });
  } else {
    runner = startInProcessRunner(deps, jobs);
  }
  deps.logger.info({ jobs: jobs.map((j) => ({ name: j.name, intervalMs: j.intervalMs })) }, 'jobs started');
  return runner;
}
