/** SQL of the owner's links and their page-view analytics (table page_views, one row per visitor per day). */
import type { Db } from '../../db/kysely.ts';
import { flushPageViews } from '../../store/page-views.ts';

/**
 * Views per day of `userId` for owner-zone dates `from`..`to` (both `YYYY-MM-DD`, inclusive).
 * A page_views row is one distinct visitor on one day (unique user_id, day, visitor_hash), so the
 * row count of a day is that day's distinct visitors. Days without views are absent from the map.
 */
export async function viewsPerDay(db: Db, userId: string, from: string, to: string): Promise<Map<string, number>> {
  await flushPageViews(db); // views batched in memory count too (store/page-views.ts)
  const rows = await db
    .selectFrom('page_views')
    .select('day')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .groupBy('day')
    .execute();
  // PostgreSQL answers count(*) as a bigint string, SQLite as a number.
  return new Map(rows.map((r) => [r.day, Number(r.n)]));
}
