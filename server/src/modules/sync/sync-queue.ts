/**
 * Scheduled syncs of single connections (webhooks, retries). A webhook never syncs inside its
 * request: it calls `scheduleSync`, which runs the sync shortly after on a timer.
 *
 * - Debounced per connection: while a sync of a connection is pending, further requests coalesce
 *   into it (a burst of N notifications → one sync, at most `delayMs` after the first).
 * - One at a time: when the timer fires while that connection is already syncing in this process,
 *   the queue waits for that run and then syncs again (the change may have come after its fetch);
 *   across instances the DB lease decides (sync-lease.repo.ts) and a busy lease is retried after 1 s.
 * - Back-off respected: a connection whose `next_sync_at` is in the future is deferred to it;
 *   expired connections are not synced (the owner must reconnect).
 *
 * One queue per database handle (like the change bus), so test databases never share timers.
 * Real timers (setTimeout, ms); back-off instants come from the deps clock (UTC epoch ms).
 *
 * This in-process queue serves one process (SQLite). When a job engine shared by several instances
 * runs (pg-boss on PostgreSQL, jobs/pg-boss.runner.ts), it registers a dispatcher with
 * `setSyncDispatcher` and `scheduleSync` sends requests there instead; both run `runRequestedSync`.
 */
import type { Db } from '../../db/kysely.ts';
import * as repo from '../../store/calendars.repo.ts';
import type { SyncDeps, SyncOutcome } from './sync-state.ts';
import { syncConnection, syncInFlight } from './sync.service.ts';

/** Debounce of webhook-triggered syncs (ms). */
const WEBHOOK_SYNC_DELAY_MS = 500;
/** Retry delay when another instance holds the connection's sync lease (ms). */
const LEASE_BUSY_RETRY_MS = 1_000;

interface Pending {
  timer: NodeJS.Timeout;
  /** Real time (Date.now()) the timer fires. */
  fireAt: number;
  /** Latest request coalesced into it (deps clock, UTC epoch ms). */
  requestedAt: number;
}

/** A requested sync (webhook, lifecycle event): the connection and when it was asked for (UTC epoch ms). */
export interface RequestedSync {
  connectionId: string;
  requestedAt: number;
}

/**
 * Runs one requested sync: nothing for a gone or expired connection; a connection in back-off
 * (`next_sync_at` in the future, e.g. the provider's Retry-After) → `{ retryInMs }` until then; a
 * sync of it running in this process is awaited first (the change may have come after its fetch);
 * then syncConnection with the `requested` claim (skipped when a sync began after the request);
 * the lease held by another instance → `{ retryInMs: LEASE_BUSY_RETRY_MS }`.
 */
export async function runRequestedSync(deps: SyncDeps, req: RequestedSync): Promise<{ retryInMs?: number; outcome?: SyncOutcome }> {
  const conn = await repo.findConnectionById(deps.db, req.connectionId, deps.config.AVAIL_SECRET_KEY);
  if (!conn || conn.status === 'expired') return {};
  const now = deps.now();
  if (conn.next_sync_at != null && Number(conn.next_sync_at) > now) return { retryInMs: Number(conn.next_sync_at) - now };
  const running = syncInFlight(req.connectionId);
  if (running) await running.catch(() => undefined);
  const outcome = await syncConnection(deps, req.connectionId, { kind: 'requested', requestedAt: req.requestedAt });
  return outcome.busy ? { retryInMs: LEASE_BUSY_RETRY_MS, outcome } : { outcome };
}

/** Where requested syncs go when a shared job engine runs (set by the job runner, cleared on stop). */
export type SyncDispatcher = (req: RequestedSync, delayMs: number) => Promise<void>;
const dispatchers = new WeakMap<Db, SyncDispatcher>();

/** Routes `scheduleSync` for `db` to `dispatcher` (null: back to the in-process queue). */
export function setSyncDispatcher(db: Db, dispatcher: SyncDispatcher | null): void {
  if (dispatcher) dispatchers.set(db, dispatcher);
  else dispatchers.delete(db);
}

class SyncQueue {
  private readonly pending = new Map<string, Pending>();
  private readonly running = new Set<Promise<unknown>>();
  private closed = false;
  /** Outcomes of finished queued syncs, newest last (tests and logs; capped). */
  readonly finished: SyncOutcome[] = [];

  schedule(deps: SyncDeps, connectionId: string, delayMs: number, requestedAt: number = deps.now()): void {
    if (this.closed) return;
    const delay = Math.max(0, Math.round(delayMs));
    const fireAt = Date.now() + delay;
    const current = this.pending.get(connectionId);
    if (current && current.fireAt <= fireAt) {
      current.requestedAt = Math.max(current.requestedAt, requestedAt); // coalesce into the earlier pending sync
      return;
    }
    if (current) clearTimeout(current.timer);
    const entry: Pending = { timer: undefined as unknown as NodeJS.Timeout, fireAt, requestedAt: Math.max(requestedAt, current?.requestedAt ?? 0) };
    entry.timer = setTimeout(() => {
      this.pending.delete(connectionId);
      const p = this.run(deps, { connectionId, requestedAt: entry.requestedAt })
        .catch((err) => deps.logger.error({ connectionId, errName: (err as Error)?.name }, 'scheduled sync crashed'))
        .finally(() => this.running.delete(p));
      this.running.add(p);
    }, delay);
    entry.timer.unref();
    this.pending.set(connectionId, entry);
  }

  cancel(connectionId: string): void {
    const current = this.pending.get(connectionId);
    if (current) clearTimeout(current.timer);
    this.pending.delete(connectionId);
  }

  isPending(connectionId: string): boolean {
    return this.pending.has(connectionId);
  }

  private async run(deps: SyncDeps, req: RequestedSync): Promise<void> {
    if (this.closed) return;
    const { retryInMs, outcome } = await runRequestedSync(deps, req);
    if (outcome) {
      this.finished.push(outcome);
      if (this.finished.length > 100) this.finished.shift();
    }
    if (retryInMs != null) this.schedule(deps, req.connectionId, retryInMs, req.requestedAt);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
    await Promise.allSettled([...this.running]);
  }
}

const queues = new WeakMap<Db, SyncQueue>();

function queueFor(db: Db): SyncQueue {
  let q = queues.get(db);
  if (!q) {
    q = new SyncQueue();
    queues.set(db, q);
  }
  return q;
}

/**
 * Schedules a sync of `connectionId` in `delayMs` (default 500 ms), debounced per connection:
 * a request while one is pending only moves it earlier. Returns at once; never throws.
 */
export function scheduleSync(deps: SyncDeps, connectionId: string, delayMs: number = WEBHOOK_SYNC_DELAY_MS): void {
  const dispatch = dispatchers.get(deps.db);
  const requestedAt = deps.now();
  if (!dispatch) return queueFor(deps.db).schedule(deps, connectionId, delayMs, requestedAt);
  dispatch({ connectionId, requestedAt }, delayMs).catch((err) => {
    // The job engine could not take it (database busy or down): this process runs it instead.
    deps.logger.warn({ connectionId, errName: (err as Error)?.name }, 'sync could not be queued; running it here');
    queueFor(deps.db).schedule(deps, connectionId, delayMs, requestedAt);
  });
}

/** Drops a pending scheduled sync (disconnect). */
export function cancelScheduledSync(db: Db, connectionId: string): void {
  queues.get(db)?.cancel(connectionId);
}

/** True while a scheduled sync of `connectionId` waits for its timer. */
export function isSyncScheduled(db: Db, connectionId: string): boolean {
  return queues.get(db)?.isPending(connectionId) ?? false;
}

/** Outcomes of the scheduled syncs that finished on `db` (newest last, at most 100). */
export function finishedScheduledSyncs(db: Db): readonly SyncOutcome[] {
  return queues.get(db)?.finished ?? [];
}

/** Shutdown: clears pending timers, waits for running scheduled syncs; later requests are ignored. */
export async function closeSyncQueue(db: Db): Promise<void> {
  const q = queues.get(db);
  if (q) await q.close();
}
