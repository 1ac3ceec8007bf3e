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
 */
import type { Db } from '../../db/kysely.ts';
import * as repo from '../calendars/calendars.repo.ts';
import { syncConnection, syncInFlight, type SyncDeps, type SyncOutcome } from './sync.service.ts';

/** Debounce of webhook-triggered syncs (ms). */
export const WEBHOOK_SYNC_DELAY_MS = 500;
/** Retry delay when another instance holds the connection's sync lease (ms). */
export const LEASE_BUSY_RETRY_MS = 1_000;

interface Pending {
  timer: NodeJS.Timeout;
  /** Real time (Date.now()) the timer fires. */
  fireAt: number;
}

class SyncQueue {
  private readonly pending = new Map<string, Pending>();
  private readonly running = new Set<Promise<unknown>>();
  private closed = false;
  /** Outcomes of finished queued syncs, newest last (tests and logs; capped). */
  readonly finished: SyncOutcome[] = [];

  schedule(deps: SyncDeps, connectionId: string, delayMs: number): void {
    if (this.closed) return;
    const delay = Math.max(0, Math.round(delayMs));
    const fireAt = Date.now() + delay;
    const current = this.pending.get(connectionId);
    if (current && current.fireAt <= fireAt) return; // coalesce into the earlier pending sync
    if (current) clearTimeout(current.timer);
    const timer = setTimeout(() => {
      this.pending.delete(connectionId);
      const p = this.run(deps, connectionId)
        .catch((err) => deps.logger.error({ connectionId, errName: (err as Error)?.name }, 'scheduled sync crashed'))
        .finally(() => this.running.delete(p));
      this.running.add(p);
    }, delay);
    timer.unref();
    this.pending.set(connectionId, { timer, fireAt });
  }

  cancel(connectionId: string): void {
    const current = this.pending.get(connectionId);
    if (current) clearTimeout(current.timer);
    this.pending.delete(connectionId);
  }

  isPending(connectionId: string): boolean {
    return this.pending.has(connectionId);
  }

  private async run(deps: SyncDeps, connectionId: string): Promise<void> {
    if (this.closed) return;
    const conn = await repo.findConnectionById(deps.db, connectionId);
    if (!conn || conn.status === 'expired') return;
    const now = deps.now();
    if (conn.next_sync_at != null && Number(conn.next_sync_at) > now) {
      this.schedule(deps, connectionId, Number(conn.next_sync_at) - now);
      return;
    }
    const running = syncInFlight(connectionId);
    if (running) await running.catch(() => undefined);
    if (this.closed) return;
    const outcome = await syncConnection(deps, connectionId);
    this.finished.push(outcome);
    if (this.finished.length > 100) this.finished.shift();
    if (outcome.busy) this.schedule(deps, connectionId, LEASE_BUSY_RETRY_MS);
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
  queueFor(deps.db).schedule(deps, connectionId, delayMs);
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
