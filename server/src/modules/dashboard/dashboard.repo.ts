/** SQL for the dashboard's counts. */
import type { Db } from '../../db/kysely.ts';
import { flushPageViews } from '../../store/page-views.ts';

/** Number of page_views rows of the user (one per visitor per day). */
export async function countPageViews(db: Db, userId: string): Promise<number> {
  await flushPageViews(db); // views batched in memory count too (store/page-views.ts)
  const row = await db
    .selectFrom('page_views')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Owner's calendar events overlapping [start, end) (UTC ms). */
export async function countEventsOverlapping(db: Db, userId: string, start: number, end: number): Promise<number> {
  const row = await db
    .selectFrom('calendar_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('start_ms', '<', end)
    .where('end_ms', '>', start)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
