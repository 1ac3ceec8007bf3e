/** SQL of a password change while signed in (issue 26). */
import type { Db } from '../../db/kysely.ts';

/**
 * Sets the user's password hash to `newHash` only while it is still `expectedHash`
 * (compare-and-set: of two concurrent changes, one wins).
 * @returns false when the password changed meanwhile (nothing written).
 */
export async function setPasswordIfUnchanged(db: Db, userId: string, expectedHash: string, newHash: string): Promise<boolean> {
  const res = await db.updateTable('users').set({ password_hash: newHash }).where('id', '=', userId).where('password_hash', '=', expectedHash).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/**
 * Gives session `sessionId` of `userId` a new token: its row keeps its id, label and sign-in time,
 * only the stored SHA-256 (`tokenHash`) changes, so the old token stops working at once.
 * @returns false when the session is gone.
 */
export async function rotateSessionToken(db: Db, userId: string, sessionId: string, tokenHash: string, now: number): Promise<boolean> {
  const res = await db.updateTable('auth_tokens').set({ token_hash: tokenHash, last_used_at: now }).where('id', '=', sessionId).where('user_id', '=', userId).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
