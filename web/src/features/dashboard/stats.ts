import type { DashboardStats } from '@avail/shared/api/api-client.ts';

/** Dashboard data (spec §3) from GET /me/dashboard/stats, with the spec's defaults. */
export function mapStats(s?: Partial<DashboardStats> | null) {
  return {
    totalViews: s?.total_views ?? 0,
    hasAvailability: s?.has_availability ?? false,
    thisWeekEvents: s?.this_week_events ?? 0,
    userSlug: s?.user_slug || 'username',
  };
}

/** Direction of a views change: shown with an arrow and a word, never by colour alone. */
export type ChangeTrend = 'up' | 'down' | 'flat' | 'new' | 'none';

/**
 * The Total Views card's change line (issue: a real change instead of the spec's fixed '+12%'):
 * the last 7 days against the 7 before. `percent` null means the previous period had no views.
 */
export function viewsChangeLine(last: number, previous: number, percent: number | null, period = 'previous 7 days', newText = 'New this week'): { trend: ChangeTrend; text: string } {
  if (last === 0 && previous === 0) return { trend: 'none', text: 'No views yet' };
  if (previous === 0) return { trend: 'new', text: newText };
  const p = percent ?? Math.round(((last - previous) / previous) * 100);
  if (p === 0) return { trend: 'flat', text: `No change vs ${period}` };
  return p > 0 ? { trend: 'up', text: `+${p}% vs ${period}` } : { trend: 'down', text: `\u2212${Math.abs(p)}% vs ${period}` };
}

