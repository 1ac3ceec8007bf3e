/** SQL of the per-account login throttle (`login_throttle`, migration 0006). */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Q = Kysely<Database>;

export interface ThrottleRow {
  failures: number;
  locked_until: number | null;
  notified_lock_at: number | null;
}

/** The throttle row of `keyHash`, if any. */
export async function findThrottle(db: Q, keyHash: string): Promise<ThrottleRow | undefined> {
  const row = await db.selectFrom('login_throttle').select(['failures', 'locked_until', 'notified_lock_at']).where('key_hash', '=', keyHash).executeTakeFirst();
  if (!row) return undefined;
  return { failures: Number(row.failures), locked_until: row.locked_until == null ? null : Number(row.locked_until), notified_lock_at: row.notified_lock_at == null ? null : Number(row.notified_lock_at) };
}

/** Counts one more failure atomically (concurrent attempts each count) and returns the new total. */
export async function addFailure(db: Q, keyHash: string, now: number): Promise<number> {
  const row = await db
    .insertInto('login_throttle')
    .values({ key_hash: keyHash, failures: 1, locked_until: null, notified_lock_at: null, updated_at: now })
    .onConflict((oc) => oc.column('key_hash').doUpdateSet({ failures: sql`login_throttle.failures + 1`, updated_at: now }))
    .returning('failures')
    .executeTakeFirstOrThrow();
  return Number(row.failures);
}

/** Sets the lock end (UTC ms); never shortens a later lock set by a concurrent attempt. */
export async function lockUntil(db: Q, keyHash: string, until: number, now: number): Promise<void> {
  await db
    .updateTable('login_throttle')
    .set({ locked_until: until, updated_at: now })
    .where('key_hash', '=', keyHash)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', until)]))
    .execute();
}

/**
 * Marks the lock ending at `lockEnd` as e-mailed; true only for the one caller that marked it
 * (compare-and-set), so one lock gives one e-mail.
 */
export async function claimNotification(db: Q, keyHash: string, lockEnd: number): Promise<boolean> {
  const res = await db
    .updateTable('login_throttle')
    .set({ notified_lock_at: lockEnd })
    .where('key_hash', '=', keyHash)
    .where((eb) => eb.or([eb('notified_lock_at', 'is', null), eb('notified_lock_at', '!=', lockEnd)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Forgets the failures of `keyHash` (a right password, a password reset). */
export async function clearThrottle(db: Q, keyHash: string): Promise<void> {
  await db.deleteFrom('login_throttle').where('key_hash', '=', keyHash).execute();
}

/** Deletes rows untouched since `before` (UTC ms) and not locked past `now`; returns how many. */
export async function purgeThrottle(db: Q, before: number, now: number): Promise<number> {
  const res = await db
    .deleteFrom('login_throttle')
    .where('updated_at', '<', before)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
