/** SQL for password-reset codes (`password_resets`: one row per user, only the code's HMAC). */
import type { Db } from '../../db/kysely.ts';

/**
 * The user's pending reset row (`code_hash`, `expires_at`/`created_at` UTC epoch ms, `attempts`),
 * or undefined.
 */
export function findReset(db: Db, userId: string) {
  return db.selectFrom('password_resets').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** Stores a new reset code for the user, replacing any previous one (attempts back to 0). */
export async function upsertReset(db: Db, row: { user_id: string; code_hash: string; expires_at: number; now: number }) {
  await db
    .insertInto('password_resets')
    .values({ user_id: row.user_id, code_hash: row.code_hash, expires_at: row.expires_at, attempts: 0, created_at: row.now })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({ code_hash: row.code_hash, expires_at: row.expires_at, attempts: 0, created_at: row.now }),
    )
    .execute();
}

/**
 * Counts one guess, atomically, only while fewer than `max` were made.
 * @returns false when the guesses are used up or there is no row (nothing counted).
 */
export async function countResetAttempt(db: Db, userId: string, max: number): Promise<boolean> {
  const result = await db
    .updateTable('password_resets')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('user_id', '=', userId)
    .where('attempts', '<', max)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Deletes the user's reset row only while it still holds `codeHash` (compare-and-set: of two
 * concurrent resets with one code, one wins).
 * @returns false when the row was replaced or already used.
 */
export async function consumeReset(db: Db, userId: string, codeHash: string): Promise<boolean> {
  const result = await db
    .deleteFrom('password_resets')
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Deletes reset codes that expired before `before` (UTC ms); returns how many. */
export async function deleteExpiredResets(db: Db, before: number): Promise<number> {
  const res = await db.deleteFrom('password_resets').where('expires_at', '<', before).executeTakeFirst();
  return Number(res.numDeletedRows);
}
