/**
 * SQL of the visitor-facing code. Reads only busy_intervals (no titles), the owner's schedule,
 * the minimal user fields, and the connections' freshness; writes nothing (page views are batched
 * by store/page-views.ts).
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

/** Status and last good sync (UTC ms) of each of the user's calendar connections (no names, no accounts). */
export function connectionFreshness(db: Db, userId: string) {
  return db.selectFrom('calendar_connections').select(['status', 'last_synced_at']).where('user_id', '=', userId).execute();
}
