/**
 * SQL for e-mail changes (`email_changes`: one pending change per user, only the code's HMAC).
 * Instants are UTC epoch ms.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/kysely.ts';

/** The user's pending change (`new_email`, `code_hash`, `attempts`, `expires_at`, …) or undefined. */
export function findChange(db: Db, userId: string) {
  return db.selectFrom('email_changes').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/**
 * Stores a new pending change (new address, code hash, expiry; attempts back to 0), replacing any
 * earlier one, and counts one code against the hourly budget: at most `maxPerWindow` codes per
 * `windowMs` (the window starts with the first code after the previous window ended). Atomic, so
 * concurrent requests cannot exceed the budget.
 * @returns false when the budget is used up (nothing stored).
 */
export async function startChange(
  db: Db,
  row: { user_id: string; new_email: string; code_hash: string; expires_at: number; now: number },
  budget: { maxPerWindow: number; windowMs: number },
): Promise<boolean> {
  const windowOver = row.now - budget.windowMs;
  await db
    .insertInto('email_changes')
    .values({ user_id: row.user_id, new_email: row.new_email, code_hash: row.code_hash, attempts: 0, expires_at: row.expires_at, sends: 0, window_started_at: row.now, created_at: row.now })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  const res = await db
    .updateTable('email_changes')
    .set({
      new_email: row.new_email,
      code_hash: row.code_hash,
      attempts: 0,
      expires_at: row.expires_at,
      created_at: row.now,
      sends: sql<number>`case when window_started_at <= ${windowOver} then 1 else sends + 1 end`,
      window_started_at: sql<number>`case when window_started_at <= ${windowOver} then ${row.now} else window_started_at end`,
    })
    .where('user_id', '=', row.user_id)
    .where((eb) => eb.or([eb('window_started_at', '<=', windowOver), eb('sends', '<', budget.maxPerWindow)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/**
 * Counts one guess, atomically, only while fewer than `max` were made.
 * @returns false when the guesses are used up or there is no pending change (nothing counted).
 */
export async function countChangeAttempt(db: Db, userId: string, max: number): Promise<boolean> {
  const res = await db
    .updateTable('email_changes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('user_id', '=', userId)
    .where('attempts', '<', max)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/**
 * Ends the pending change while it still holds `codeHash` (compare-and-set: of two concurrent
 * confirmations one wins; a code replaced meanwhile is void). Keeps nothing: the hourly budget
 * starts again with the next change.
 * @returns false when the row was replaced or already used.
 */
export async function consumeChange(db: Db, userId: string, codeHash: string): Promise<boolean> {
  const res = await db.deleteFrom('email_changes').where('user_id', '=', userId).where('code_hash', '=', codeHash).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/**
 * Sets the user's e-mail to `email` (lower-cased) and the profile's replication stamp; the
 * verification instant is kept. Throws the database's unique violation when the address is taken.
 */
export async function setEmail(db: Db, userId: string, email: string, updatedAt: number): Promise<void> {
  await db.updateTable('users').set({ email, updated_at: updatedAt }).where('id', '=', userId).execute();
}

/**
 * Drops the user's pending password-reset code: it was mailed to the address being replaced and
 * must not work with the new one.
 */
export async function deletePendingReset(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('password_resets').where('user_id', '=', userId).execute();
}

/** Deletes pending changes that expired before `before` (UTC ms; the purge); returns how many. */
export async function deleteChangesExpiredBefore(db: Db, before: number): Promise<number> {
  const res = await db.deleteFrom('email_changes').where('expires_at', '<', before).executeTakeFirst();
  return Number(res.numDeletedRows);
}
