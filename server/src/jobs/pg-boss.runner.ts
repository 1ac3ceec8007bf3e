/**
 * The PostgreSQL job runner: pg-boss 10 (https://timgit.github.io/pg-boss/) in its own schema of
 * the application database. Why pg-boss rather than graphile-worker: it runs on Node 20 (this
 * project's floor; graphile-worker ≥ 0.17 needs Node 22), takes the `pg` pool options we already
 * use, and has per-queue policies, throttling slots, expiry and retry with back-off built in.
 *
 * - Recurring jobs (backup-sync planner, push-channels, purge): every instance has a timer that
 *   sends the job at the start of each interval on the epoch grid (`singletonSeconds` = the
 *   interval, at most 12 h; pg-boss's unique index on (name, singleton_on) keeps one job per slot
 *   however many instances send), on a `stately`
 *   queue (at most one queued and one active: a run never piles up behind a long one). Exactly one
 *   instance's worker claims it (`FOR UPDATE SKIP LOCKED`).
 * - `sync-connection`: one job per queued connection sync — backup syncs fanned out by the planner
 *   and debounced webhook syncs (`scheduleSync`, routed here by `setSyncDispatcher`). Every
 *   instance works it with SYNC_WORKERS syncs at once, so instances share the load; the claim in
 *   the sync lease (sync-lease.repo.ts) decides whether a sync is still needed when it starts.
 * - A job whose worker died is expired after its timeout (sync-connection: SYNC_LEASE_MS, the
 *   lease's own length, so the retry finds the lease free) by pg-boss's maintenance, then retried
 *   with back-off (5 s × 2^n, JOB_RETRY_LIMIT times) by any live instance.
 * - `erase-vacuum`: after an account deletion, one `VACUUM FULL` of the tables that held the
 *   owner's rows, ERASE_VACUUM_DELAY_S later (modules/auth/erase-vacuum.service.ts). `stately` with
 *   one singleton key: a deletion while a run is waiting joins it (one run for many deletions), one
 *   more may wait while a run is active (it covers the deletions the active run may have missed).
 * - Retry-After: a sync refused with Retry-After sets the connection's back-off (`next_sync_at`); a
 *   queued sync that finds it in the future is sent again to start then.
 */
import { randomUUID } from 'node:crypto';
import PgBoss from 'pg-boss';
import { ERASE_VACUUM_QUEUE, setEraseVacuumDispatcher, vacuumErasedTables } from '../modules/auth/index.ts';
import { setSyncDispatcher, runRequestedSync, type RequestedSync } from '../modules/sync/index.ts';
import { syncDueConnection } from './backup-sync.job.ts';
import { JOB_RETRY_DELAY_S, JOB_RETRY_LIMIT, jobNamed, type Job, type JobContext, type JobDeps, type JobRunner } from './job-runner.ts';

/** The queue of single connection syncs. */
const SYNC_QUEUE = 'sync-connection';

/** What a sync-connection job carries. */
type QueuedSync = { connectionId: string; kind: 'backup' } | ({ kind: 'requested' } & RequestedSync);

export interface PgBossRunnerOptions {
  connectionString: string;
  /** pg-boss's own schema (jobsSchemaFor). */
  schema: string;
  /** Syncs this instance runs at once. */
  syncWorkers: number;
  /** Sync lease = sync-connection job timeout (ms). */
  leaseMs: number;
}

/** The pg-boss schema beside the application's schema: `pgboss` for `public`, `<schema>_pgboss` otherwise. */
export function jobsSchemaFor(appSchema: string): string {
  return appSchema === 'public' ? 'pgboss' : `${appSchema}_pgboss`;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
/** pg-boss refuses throttling slots longer than its archive interval (12 h by default). */
const MAX_SLOT_SECONDS = 12 * 60 * 60;

/**
 * Creates `queue` unless it exists. Instances starting together race here (pg-boss creates a
 * partition per queue, and two creations at once can deadlock): a failed attempt is retried after
 * a short random pause, up to 8 times, and succeeds as soon as the queue exists.
 */
async function ensureQueue(boss: PgBoss, queue: PgBoss.Queue): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    if (await boss.getQueue(queue.name)) return;
    try {
      await boss.createQueue(queue.name, queue);
      return;
    } catch (err) {
      if (await boss.getQueue(queue.name)) return; // another instance created it meanwhile
      if (attempt >= 8) throw err;
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 200 * attempt));
    }
  }
}

/**
 * The workers and the slot timer of one recurring job: a `stately` queue named after the job, a
 * worker that runs it through `runLocal` (one run per instance at a time), and a timer that sends
 * the job at the start of each interval on the epoch grid (pushed onto `timers`, for stop()).
 */
async function workRecurringJob(boss: PgBoss, deps: JobDeps, job: Job, runLocal: (job: Job) => Promise<void>, timers: NodeJS.Timeout[], leaseS: number): Promise<void> {
  await ensureQueue(boss, {
    name: job.name,
    policy: 'stately',
    retryLimit: JOB_RETRY_LIMIT,
    retryDelay: JOB_RETRY_DELAY_S,
    retryBackoff: true,
    expireInSeconds: Math.max(leaseS, 15 * 60),
  });
  await boss.work(job.name, { pollingIntervalSeconds: Math.min(2, Math.max(0.5, job.intervalMs / 2000)) }, async () => {
    const started = Date.now();
    await runLocal(job);
    deps.logger.debug({ job: job.name, ms: Date.now() - started }, 'job finished');
  });
  // pg-boss keeps a throttling slot unique until the job is archived (12 h), so slots are capped
  // there; every instance sends at the start of each interval on the epoch grid, so they all
  // name the same slot and one job runs per interval (a daily job too).
  const slotSeconds = Math.min(seconds(job.intervalMs), MAX_SLOT_SECONDS);
  const sendSlot = () =>
    void boss
      .send(job.name, {}, { singletonKey: job.name, singletonSeconds: slotSeconds })
      .catch((err: Error) => deps.logger.warn({ job: job.name, errName: err?.name, errMessage: err?.message }, 'job could not be queued'));
  let lastWindow = Math.floor(Date.now() / job.intervalMs);
  const timer = setInterval(() => {
    const window = Math.floor(Date.now() / job.intervalMs);
    if (window === lastWindow) return;
    lastWindow = window;
    sendSlot();
  }, Math.min(job.intervalMs, 60_000));
  timer.unref();
  timers.push(timer);
  if (job.runOnStart) sendSlot();
}

/**
 * The sync-connection queue: `options.syncWorkers` workers on it, and the sync dispatcher
 * (setSyncDispatcher) that sends requested syncs to it, `delayMs` later. `isStopping` stops the
 * re-sending of a sync refused with Retry-After and the workers' eager polling.
 */
async function workSyncQueue(boss: PgBoss, deps: JobDeps, syncWorkers: number, leaseS: number, isStopping: () => boolean): Promise<void> {
  await ensureQueue(boss, {
    name: SYNC_QUEUE,
    // `short`: one queued job per key. Backup syncs use `backup:<connection>`; each requested
    // sync has its own key (every request must be answered by a sync that starts after it; the
    // claim merges them when they run).
    policy: 'short',
    retryLimit: JOB_RETRY_LIMIT,
    retryDelay: JOB_RETRY_DELAY_S,
    retryBackoff: true,
    expireInSeconds: leaseS,
  });
  const sendRequested = async (data: RequestedSync, delayMs: number) => {
    await boss.send(SYNC_QUEUE, { kind: 'requested', ...data } satisfies QueuedSync, {
      singletonKey: `requested:${data.connectionId}:${randomUUID()}`,
      startAfter: new Date(Date.now() + Math.max(0, delayMs)),
      expireInSeconds: leaseS,
    });
  };
  // SYNC_WORKERS independent workers, one sync each at a time: a slow feed holds one worker only.
  // A worker that found a job asks for the next at once (notifyWorker) instead of waiting for its
  // polling interval, so a long queue drains at the speed of the syncs.
  const runQueued = async (job: PgBoss.Job<QueuedSync>) => {
    try {
      if (job.data.kind === 'backup') {
        await syncDueConnection(deps, job.data.connectionId);
      } else {
        const { retryInMs } = await runRequestedSync(deps, job.data);
        if (retryInMs != null && !isStopping()) await sendRequested(job.data, retryInMs);
      }
      await boss.complete(SYNC_QUEUE, job.id);
    } catch (err) {
      await boss.fail(SYNC_QUEUE, job.id, { errName: (err as Error)?.name }).catch(() => undefined); // retried with back-off
      deps.logger.error({ connectionId: job.data.connectionId, errName: (err as Error)?.name }, 'queued sync failed');
    }
  };
  for (let k = 0; k < syncWorkers; k++) {
    let workerId = '';
    workerId = await boss.work<QueuedSync>(SYNC_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async (batch) => {
      for (const job of batch) await runQueued(job);
      if (batch.length > 0 && !isStopping() && workerId) boss.notifyWorker(workerId);
    });
  }
  setSyncDispatcher(deps.db, (data, delayMs) => sendRequested(data, delayMs));
}

/** The erase-vacuum queue (PostgreSQL's "deletes leave nothing"): its worker and the dispatcher account deletions send to. */
async function workEraseVacuum(boss: PgBoss, deps: JobDeps): Promise<void> {
  await ensureQueue(boss, {
    name: ERASE_VACUUM_QUEUE,
    policy: 'stately',
    retryLimit: JOB_RETRY_LIMIT,
    retryDelay: JOB_RETRY_DELAY_S,
    retryBackoff: true,
    expireInSeconds: 15 * 60,
  });
  await boss.work(ERASE_VACUUM_QUEUE, { pollingIntervalSeconds: 1 }, async () => {
    try {
      await vacuumErasedTables(deps);
    } catch (err) {
      deps.logger.error({ job: ERASE_VACUUM_QUEUE, errName: (err as Error)?.name, errMessage: (err as Error)?.message }, 'erase vacuum failed; pg-boss retries it');
      throw err;
    }
  });
  setEraseVacuumDispatcher(deps.db, async (delaySeconds) => {
    await boss.send(ERASE_VACUUM_QUEUE, {}, { singletonKey: ERASE_VACUUM_QUEUE, startAfter: delaySeconds });
  });
}

/** Starts pg-boss and the workers of `jobs` and of the sync-connection queue; see the module comment. */
export async function startPgBossRunner(deps: JobDeps, jobs: readonly Job[], options: PgBossRunnerOptions): Promise<JobRunner> {
  const leaseS = seconds(options.leaseMs);
  const boss = new PgBoss({
    connectionString: options.connectionString,
    schema: options.schema,
    application_name: 'avail-jobs',
    max: 4,
    schedule: false, // our timers send per-slot jobs; pg-boss's cron is minute-grained
    supervise: true,
    // Expiry of stuck jobs is found by maintenance: at least as often as the shortest timeout.
    maintenanceIntervalSeconds: Math.min(60, leaseS),
    retryLimit: JOB_RETRY_LIMIT,
    retryDelay: JOB_RETRY_DELAY_S,
    retryBackoff: true,
  });
  boss.on('error', (err: Error) => deps.logger.error({ errName: err?.name, errMessage: err?.message }, 'job engine error'));
  await boss.start();

  let stopping = false;
  const timers: NodeJS.Timeout[] = [];
  const localRuns = new Map<string, Promise<void>>();

  const enqueueBackupSyncs = async (ids: readonly string[]): Promise<number> => {
    if (ids.length === 0) return 0;
    // One queued backup sync per connection at a time: the queue's `short` policy keeps one
    // created job per singleton key (insert … on conflict do nothing), so a planner that runs
    // again before the queue drained does not queue a connection twice.
    await boss.insert(
      ids.map((connectionId) => ({
        name: SYNC_QUEUE,
        data: { connectionId, kind: 'backup' } satisfies QueuedSync,
        singletonKey: `backup:${connectionId}`,
        expireInSeconds: leaseS,
      })),
    );
    return ids.length;
  };
  const ctx: JobContext = { isStopping: () => stopping, enqueueBackupSyncs };

  const runLocal = (job: Job): Promise<void> => {
    const current = localRuns.get(job.name);
    if (current) return current;
    const p = job
      .run(deps, ctx)
      .then(() => undefined)
      .finally(() => localRuns.delete(job.name));
    localRuns.set(job.name, p);
    return p;
  };

  for (const job of jobs) await workRecurringJob(boss, deps, job, runLocal, timers, leaseS);
  await workSyncQueue(boss, deps, options.syncWorkers, leaseS, () => stopping);
  await workEraseVacuum(boss, deps);
  deps.logger.info({ engine: 'pg-boss', schema: options.schema, syncWorkers: options.syncWorkers }, 'job engine started');

  return {
    runNow: async (name) => {
      await runLocal(jobNamed(jobs, name));
    },
    stop: async () => {
      stopping = true;
      setSyncDispatcher(deps.db, null);
      setEraseVacuumDispatcher(deps.db, null);
      for (const t of timers) clearInterval(t);
      await Promise.allSettled([...localRuns.values()]);
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}
