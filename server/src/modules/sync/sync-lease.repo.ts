/**
 * The per-connection sync lease: "never two syncs of one connection at once", across server
 * instances sharing a database. A compare-and-set on calendar_connections: the lease is taken only
 * when it is free or expired (`sync_lease_until` null or ≤ now), by one UPDATE, so of two instances
 * racing exactly one wins (row lock on PostgreSQL, one writer on SQLite). A crashed holder's lease
 * expires after SYNC_LEASE_MS. These columns are not replicated: no stamp, no change-bus signal.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/kysely.ts';

/** Longest a sync may hold its lease (ms); a sync takes seconds, a crashed instance frees it after this. */
export const SYNC_LEASE_MS = 5 * 60_000;

/** This process's lease owner id. */
export const LEASE_OWNER = randomUUID();

/**
 * Takes the lease of `connectionId` until `now + SYNC_LEASE_MS` (UTC epoch ms).
 * @returns true when taken; false when another holder's lease is still running or the connection is gone.
 */
export async function acquireSyncLease(db: Db, connectionId: string, now: number, owner: string = LEASE_OWNER): Promise<boolean> {
  const res = await db
    .updateTable('calendar_connections')
    .set({ sync_lease_until: now + SYNC_LEASE_MS, sync_lease_owner: owner })
    .where('id', '=', connectionId)
    .where((eb) => eb.or([eb('sync_lease_until', 'is', null), eb('sync_lease_until', '<=', now)]))
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
