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
