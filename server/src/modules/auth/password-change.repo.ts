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
