/**
 * The per-connection sync lease and claim: "never two syncs of one connection at once, and never
 * one that is not needed", across server instances sharing a database. One compare-and-set UPDATE
 * on calendar_connections takes the lease only when it is free or expired (`sync_lease_until` null
 * or ≤ now) AND the claim's condition still holds at that instant:
 *
 * - `backup`: the connection is still due — after a failure its back-off has passed
 *   (`next_sync_at` ≤ now), otherwise it has not synced successfully since its latest backup time
 *   (`last_synced_at` < `lastBackupAt`). A connection synced by another instance in this window is
 *   therefore never synced again in it: exactly once per connection per 15-minute window.
 * - `requested` (Sync Now, a webhook): no sync began after the request (`sync_started_at` ≤
 *   `requestedAt`) — a sync that started after the request already saw what was asked for, so two
 *   instances asked at the same moment fetch once.
 * - `always` (connect, reconnect): no condition beyond the lease.
 *
 * Of two instances racing, exactly one UPDATE matches (row lock on PostgreSQL, one writer on
 * SQLite). A crashed holder's lease runs out after its length (`SYNC_LEASE_MS`, or the server's
 * configured lease). These columns are not replicated: no stamp, no change-bus signal.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/kysely.ts';

/** Default longest a sync may hold its lease (ms); a sync takes seconds, a crashed instance frees it after this. */
export const SYNC_LEASE_MS = 5 * 60_000;

/** This process's lease owner id. */
const LEASE_OWNER = randomUUID();

/** What a sync claims besides the lease (see the module comment). Instants in UTC epoch ms. */
export type SyncClaim = { kind: 'always' } | { kind: 'backup'; lastBackupAt: number } | { kind: 'requested'; requestedAt: number };

/**
 * Takes the lease of `connectionId` until `now + leaseMs` (UTC epoch ms) if `claim` holds, and
 * records `sync_started_at = now`.
 * @returns true when taken; false when another holder's lease is still running, the claim no
 *   longer holds (already synced), or the connection is gone.
 */
export async function acquireSyncLease(
  db: Db,
  connectionId: string,
  now: number,
  claim: SyncClaim = { kind: 'always' },
  leaseMs: number = SYNC_LEASE_MS,
  owner: string = LEASE_OWNER,
): Promise<boolean> {
  const res = await db
    .updateTable('calendar_connections')
    .set({ sync_lease_until: now + leaseMs, sync_lease_owner: owner, sync_started_at: now })
    .where('id', '=', connectionId)
    .where((eb) => eb.or([eb('sync_lease_until', 'is', null), eb('sync_lease_until', '<=', now)]))
    .where((eb) => {
      if (claim.kind === 'backup') {
        return eb.or([
          eb.and([eb('next_sync_at', 'is not', null), eb('next_sync_at', '<=', now)]),
          eb.and([eb('next_sync_at', 'is', null), eb.or([eb('last_synced_at', 'is', null), eb('last_synced_at', '<', claim.lastBackupAt)])]),
        ]);
      }
      if (claim.kind === 'requested') {
        // A sync that began in the same millisecond as the request may have fetched before the
        // change the request is about: only a strictly later start satisfies it.
        return eb.or([eb('sync_started_at', 'is', null), eb('sync_started_at', '<=', claim.requestedAt)]);
      }
      return eb.lit(true);
    })
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Frees the lease if `owner` still holds it (a lease taken over after expiry is left alone). */
export async function releaseSyncLease(db: Db, connectionId: string, owner: string = LEASE_OWNER): Promise<void> {
  await db
    .updateTable('calendar_connections')
    .set({ sync_lease_until: null, sync_lease_owner: null })
    .where('id', '=', connectionId)
    .where('sync_lease_owner', '=', owner)
    .execute();
}
