/**
 * SQL of the visitor-facing code. Reads only busy_intervals (no titles), the owner's schedule and
 * the minimal user fields; writes page views.
 */
import type { Db } from '../../db/kysely.ts';

/** The owner behind a public slug (case-insensitive), with only the fields the public answer needs (the host: name, intro, picture version). */
export function findPublicOwner(db: Db, slug: string) {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'timezone', 'plain_link_off', 'intro', 'avatar_version'])
    .where('username_lower', '=', slug.toLowerCase())
    .executeTakeFirst();
}

/**
 * Busy intervals of the user overlapping [start, end) (UTC ms), sorted by start (the engine's fast
 * path). `maxSpan` (ms) is the user's longest interval (see busyMaxSpan): it gives the query a
 * lower bound `start_ms >= start - maxSpan`, so the (user_id, start_ms) index is read only from
 * there on instead of over every past interval. Without it there is no lower bound.
 */
export function busyOverlapping(db: Db, userId: string, start: number, end: number, maxSpan?: number) {
  let q = db
    .selectFrom('busy_intervals')
    .select(['start_ms as start', 'end_ms as end'])
    .where('user_id', '=', userId);
  if (maxSpan !== undefined) q = q.where('start_ms', '>=', start - Math.max(0, maxSpan));
  return q.where('start_ms', '<', end).where('end_ms', '>', start).orderBy('start_ms').orderBy('end_ms').execute();
}

/** The user's longest busy interval, `max(end_ms - start_ms)` in ms (0 when there is none). */
export async function busyMaxSpan(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('busy_intervals')
    .select((eb) => eb.fn.max(eb('end_ms', '-', eb.ref('start_ms'))).as('span'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Math.max(0, Number(row?.span ?? 0));
}

/** Records one view per visitor per day (a repeat is ignored). Unbatched; the public path uses page-views.ts. */
export async function recordPageView(db: Db, row: { user_id: string; day: string; visitor_hash: string; created_at: number }) {
  await db
    .insertInto('page_views')
    .values(row)
    .onConflict((oc) => oc.columns(['user_id', 'day', 'visitor_hash']).doNothing())
    .execute();
}

/** Status and last good sync (UTC ms) of each of the user's calendar connections (no names, no accounts). */
export function connectionFreshness(db: Db, userId: string) {
  return db.selectFrom('calendar_connections').select(['status', 'last_synced_at']).where('user_id', '=', userId).execute();
}
