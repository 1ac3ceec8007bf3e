/** Dashboard stat cards: views, whether a schedule exists, this week's events, the public slug. */
import { DAY_MS, getIanaZone, instantToWall, wallDay, wallToInstant, weekdayOfDay } from '@avail/shared/domain/zone-time.ts';
import type { UserRow } from '../../db/schema.ts';
import type { Deps } from '../../http/deps.ts';
import { hasAnyRule } from '../availability/availability.repo.ts';
import * as repo from './dashboard.repo.ts';

/** [Monday 00:00, next Monday 00:00) of the week containing `now`, in `timezone`, as UTC ms. */
export function currentWeek(timezone: string, now: number): { start: number; end: number } {
  const zone = getIanaZone(timezone);
  const day = wallDay(instantToWall(zone, now));
  const monday = day - weekdayOfDay(day);
  return { start: wallToInstant(zone, monday * DAY_MS), end: wallToInstant(zone, (monday + 7) * DAY_MS) };
}

/** `{ total_views: number, has_availability: boolean, this_week_events: number, user_slug: string | null }` (product spec §3, §7). */
export async function stats(deps: Deps, user: UserRow) {
  const week = currentWeek(user.timezone, deps.now());
  const [total_views, has_availability, this_week_events] = await Promise.all([
    repo.countPageViews(deps.db, user.id),
    hasAnyRule(deps.db, user.id),
    repo.countEventsOverlapping(deps.db, user.id, week.start, week.end),
  ]);
  return { total_views, has_availability, this_week_events, user_slug: user.username };
}
