/** Dashboard stat cards: views (all time and the 7-day change), whether a schedule exists, this week's events, the public slug. */
import { DAY_MS, getIanaZone, instantToWall, wallDay, wallToInstant, weekdayOfDay } from '@avail/shared/domain/zone-time.ts';
import type { UserRow } from '../../db/schema.ts';
import type { Deps } from '../../http/deps.ts';
import { hasAnyRule } from '../../store/availability.repo.ts';
import { viewPeriods } from '../links/index.ts';
import * as repo from './dashboard.repo.ts';

/** [Monday 00:00, next Monday 00:00) of the week containing `now`, in `timezone`, as UTC ms. */
export function currentWeek(timezone: string, now: number): { start: number; end: number } {
  const zone = getIanaZone(timezone);
  const day = wallDay(instantToWall(zone, now));
  const monday = day - weekdayOfDay(day);
  return { start: wallToInstant(zone, monday * DAY_MS), end: wallToInstant(zone, (monday + 7) * DAY_MS) };
}

/** The Total Views change fields; the web's `ViewsChange` (shared/src/api/api-client.ts). */
export interface ViewsChange {
  views_last_7_days: number;
  views_previous_7_days: number;
  /** Rounded percent; null when the previous 7 days had no views. */
  views_change_percent: number | null;
}

/**
 * The Total Views change: distinct visitors of the last 7 owner-zone dates (today and the 6 before)
 * against the 7 dates before those. `views_change_percent` = Math.round((last − previous) / previous × 100),
 * null when the previous period had no views (no meaningful percentage).
 */
async function viewsChange(deps: Deps, user: Pick<UserRow, 'id' | 'timezone'>): Promise<ViewsChange> {
  const { total, previous_total } = await viewPeriods(deps, user, 7);
  return {
    views_last_7_days: total,
    views_previous_7_days: previous_total,
    views_change_percent: previous_total === 0 ? null : Math.round(((total - previous_total) / previous_total) * 100),
  };
}

/**
 * `{ total_views, has_availability, this_week_events, user_slug, views_last_7_days, views_previous_7_days,
 * views_change_percent }` (product spec §3, §7; ViewsChange of shared/src/api/api-client.ts).
 * total_views counts all visitor-days ever; the change fields cover the last 7 days against the 7 before.
 */
export async function stats(deps: Deps, user: UserRow) {
  const week = currentWeek(user.timezone, deps.now());
  const [total_views, has_availability, this_week_events, change] = await Promise.all([
    repo.countPageViews(deps.db, user.id),
    hasAnyRule(deps.db, user.id),
    repo.countEventsOverlapping(deps.db, user.id, week.start, week.end),
    viewsChange(deps, user),
  ]);
  return { total_views, has_availability, this_week_events, user_slug: user.username, ...change };
}
