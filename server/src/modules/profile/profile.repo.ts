/** SQL of the profile module's own table: `user_avatars`, the owner's picture (one row per owner). */
import type { Db } from '../../db/kysely.ts';

/** Stores (or replaces) the owner's picture: WebP bytes and their version; `now` in UTC ms. */
export async function saveAvatar(db: Db, userId: string, version: string, image: Buffer, now: number): Promise<void> {
  await db
    .insertInto('user_avatars')
    .values({ user_id: userId, version, image, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ version, image, updated_at: now }))
    .execute();
}

/** Deletes the owner's picture; false when there was none. */
export async function deleteAvatar(db: Db, userId: string): Promise<boolean> {
  const result = await db.deleteFrom('user_avatars').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The owner's picture bytes (WebP) when its version is `version` (any version when omitted), else undefined. */
export async function findAvatar(db: Db, userId: string, version?: string): Promise<{ version: string; image: Buffer } | undefined> {
  let q = db.selectFrom('user_avatars').select(['version', 'image']).where('user_id', '=', userId);
  if (version !== undefined) q = q.where('version', '=', version);
  const row = await q.executeTakeFirst();
  return row ? { version: row.version, image: Buffer.from(row.image) } : undefined;
}
