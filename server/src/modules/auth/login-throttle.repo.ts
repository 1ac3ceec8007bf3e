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

/**
 * Compare-and-set of a throttle row: `failures` from `expected` to `failures` and `locked_until`
 * to `lockedUntil`, only while the row still holds `expected` failures. A missing row is created
 * (when `expected` is 0). True when this caller's write took effect.
 */
export async function casAttempt(db: Q, keyHash: string, expected: number, failures: number, lockedUntil: number | null, now: number): Promise<boolean> {
  if (expected === 0) {
    const inserted = await db
      .insertInto('login_throttle')
      .values({ key_hash: keyHash, failures, locked_until: lockedUntil, notified_lock_at: null, updated_at: now })
      .onConflict((oc) => oc.column('key_hash').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return true;
  }
  const res = await db
    .updateTable('login_throttle')
    .set({ failures, locked_until: lockedUntil, updated_at: now })
    .where('key_hash', '=', keyHash)
    .where('failures', '=', expected)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Gives back one counted failure (never below 0). */
export async function giveBackFailure(db: Q, keyHash: string, now: number): Promise<void> {
  await db
    .updateTable('login_throttle')
    .set({ failures: sql`CASE WHEN failures > 0 THEN failures - 1 ELSE 0 END`, updated_at: now })
    .where('key_hash', '=', keyHash)
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
