/**
 * Honest freshness of a public answer (issue 14 item 3): how old the busy time behind it may be.
 * A visitor must not take "free" for granted when the owner's calendars could not be read: a
 * calendar that failed, needs reconnecting, or has not synced for twice the backup interval makes
 * the answer `stale`; `as_of` is the oldest last good sync among the owner's connections.
 */
import { BACKUP_SYNC_INTERVAL_MS } from '@avail/shared/constants.ts';

/** A connection older than this (ms) since its last good sync is stale: twice the 15-minute backup interval. */
export const STALE_AFTER_MS = 2 * BACKUP_SYNC_INTERVAL_MS;

export interface Freshness {
  /** Oldest last good sync among the owner's connections (UTC ms); null without connections or before any sync. */
  asOf: number | null;
  stale: boolean;
  /** When this answer stops being true without any write (UTC ms): the oldest sync turns stale; Infinity when nothing can change by time alone. */
  validUntil: number;
}

/**
 * Freshness of `connections` (status, last good sync in UTC ms) at `now` (UTC ms): stale when any is
 * in error or expired, has never synced, or last synced more than STALE_AFTER_MS ago.
 */
export function freshnessOf(connections: ReadonlyArray<{ status: string; last_synced_at: number | null }>, now: number): Freshness {
  if (connections.length === 0) return { asOf: null, stale: false, validUntil: Infinity };
  let oldest = Infinity;
  let failing = false;
  for (const c of connections) {
    if (c.status !== 'active') failing = true;
    if (c.last_synced_at == null) {
      failing = true;
      continue;
    }
    oldest = Math.min(oldest, Number(c.last_synced_at));
  }
  const asOf = Number.isFinite(oldest) ? oldest : null;
  const staleAt = asOf == null ? Infinity : asOf + STALE_AFTER_MS;
  const stale = failing || now > staleAt;
  return { asOf, stale, validUntil: stale ? Infinity : staleAt + 1 };
}
