/** SQL for tokens and e-mail verification codes. */
import type { Db } from '../../db/kysely.ts';

/**
 * The pending verification row of the user (`code_hash`, `expires_at`/`last_sent_at`/`created_at` epoch ms, `attempts`),
 * or undefined. `created_at` is when the row was started: the first code of the registration (resends keep it).
 */
export function findVerification(db: Db, userId: string) {
  return db.selectFrom('email_verifications').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** Stores a new code for the user (replacing any previous one, attempts reset to 0). */
export async function upsertVerification(db: Db, row: { user_id: string; code_hash: string; expires_at: number; now: number }) {
  await db
    .insertInto('email_verifications')
    .values({ user_id: row.user_id, code_hash: row.code_hash, expires_at: row.expires_at, attempts: 0, last_sent_at: row.now, created_at: row.now })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({ code_hash: row.code_hash, expires_at: row.expires_at, attempts: 0, last_sent_at: row.now }),
    )
    .execute();
}

/**
 * Starts a new verification row for the user: every earlier code is gone, attempts are 0 and
 * `created_at` = `now` marks the latest registration. Call inside a transaction.
 */
export async function replaceVerification(db: Db, row: { user_id: string; code_hash: string; expires_at: number; now: number }) {
  await db.deleteFrom('email_verifications').where('user_id', '=', row.user_id).execute();
  await db
    .insertInto('email_verifications')
    .values({ user_id: row.user_id, code_hash: row.code_hash, expires_at: row.expires_at, attempts: 0, last_sent_at: row.now, created_at: row.now })
    .execute();
}

/**
 * Counts one attempt, atomically, only while fewer than `max` were made.
 * @returns false when the attempts are used up (nothing counted).
 */
export async function countAttempt(db: Db, userId: string, max: number): Promise<boolean> {
  const result = await db
    .updateTable('email_verifications')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('user_id', '=', userId)
    .where('attempts', '<', max)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Removes the user's pending code (after a successful verification). */
export async function deleteVerification(db: Db, userId: string) {
  await db.deleteFrom('email_verifications').where('user_id', '=', userId).execute();
}

/** Revokes one bearer token by its auth_tokens id (logout). */
export async function deleteToken(db: Db, tokenId: string) {
  await db.deleteFrom('auth_tokens').where('id', '=', tokenId).execute();
}

/** Revokes every bearer token of the user. */
export async function deleteTokensOfUser(db: Db, userId: string) {
  await db.deleteFrom('auth_tokens').where('user_id', '=', userId).execute();
}
