/**
 * SQL of the visitor-facing code. Reads only busy_intervals (no titles), the owner's schedule and
 * the minimal user fields; writes page views.
 */
import type { Db } from '../../db/kysely.ts';

/** The owner behind a public slug (case-insensitive), with only the fields the public answer needs. */
export function findPublicOwner(db: Db, slug: string) {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'timezone'])
    .where('username_lower', '=', slug.toLowerCase())
    .executeTakeFirst();
}

/** Busy intervals of the user overlapping [start, end) (UTC ms). */
export function busyOverlapping(db: Db, userId: string, start: number, end: number) {
  return db
    .selectFrom('busy_intervals')
    .select(['start_ms as start', 'end_ms as end'])
    .where('user_id', '=', userId)
    .where('start_ms', '<', end)
    .where('end_ms', '>', start)
    .execute();
}

/** Records one view per visitor per day (a repeat is ignored). */
export async function recordPageView(db: Db, row: { user_id: string; day: string; visitor_hash: string; created_at: number }) {
  await db
    .insertInto('page_views')
    .values(row)
    .onConflict((oc) => oc.columns(['user_id', 'day', 'visitor_hash']).doNothing())
    .execute();
}
