/** SQL of personal links (share_links) and their per-day views (share_link_views); see 0008_share_links. */
import type { Db } from '../../db/kysely.ts';
import type { ShareLinkRow } from '../../db/schema.ts';

/** The owner's links with their view counts (distinct visitor-days, all time) and last view (UTC ms), newest first. */
export async function listForUser(db: Db, userId: string) {
  const rows = await db
    .selectFrom('share_links as l')
    .leftJoin('share_link_views as v', 'v.link_id', 'l.id')
    .select(['l.id', 'l.user_id', 'l.label', 'l.token_hash', 'l.token_sealed', 'l.expires_at', 'l.created_at'])
    .select((eb) => [eb.fn.count<number | string>('v.link_id').as('views'), eb.fn.max('v.created_at').as('last_viewed_at')])
    .where('l.user_id', '=', userId)
    .groupBy(['l.id', 'l.user_id', 'l.label', 'l.token_hash', 'l.token_sealed', 'l.expires_at', 'l.created_at'])
    .orderBy('l.created_at', 'desc')
    .orderBy('l.id')
    .execute();
  // PostgreSQL answers count/max of bigint as strings, SQLite as numbers.
  return rows.map((r) => ({
    ...r,
    expires_at: r.expires_at === null ? null : Number(r.expires_at),
    created_at: Number(r.created_at),
    views: Number(r.views),
    last_viewed_at: r.last_viewed_at === null || r.last_viewed_at === undefined ? null : Number(r.last_viewed_at),
  }));
}

/** Number of links the owner has (expired ones included). */
export async function countForUser(db: Db, userId: string): Promise<number> {
  const row = await db.selectFrom('share_links').select((eb) => eb.fn.countAll<number | string>().as('n')).where('user_id', '=', userId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function insert(db: Db, row: ShareLinkRow): Promise<void> {
  await db.insertInto('share_links').values(row).execute();
}

/** Deletes the owner's link `id` (its views go with it); false when the owner has no such link. */
export async function deleteForUser(db: Db, userId: string, id: string): Promise<boolean> {
  const res = await db.deleteFrom('share_links').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** The link whose token hashes to `tokenHash` (id, owner, expiry only), or undefined. */
export function findByTokenHash(db: Db, tokenHash: string) {
  return db.selectFrom('share_links').select(['id', 'user_id', 'expires_at']).where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Records one view of link `linkId` by a visitor on an owner-zone day (a repeat is ignored). */
export async function recordView(db: Db, row: { link_id: string; day: string; visitor_hash: string; created_at: number }): Promise<void> {
  await db
    .insertInto('share_link_views')
    .values(row)
    .onConflict((oc) => oc.columns(['link_id', 'day', 'visitor_hash']).doNothing())
    .execute();
}

/** Sets whether the owner's plain `/{username}` link is off (1) or on (0). */
export async function setPlainLinkOff(db: Db, userId: string, off: boolean): Promise<void> {
  await db.updateTable('users').set({ plain_link_off: off ? 1 : 0 }).where('id', '=', userId).execute();
}

/** One link of `userId` by id: its sealed token and expiry (undefined when revoked or not theirs). */
export function findForUser(db: Db, userId: string, id: string) {
  return db.selectFrom('share_links').select(['token_sealed', 'expires_at']).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}
