import { describe, expect, it } from 'vitest';
import { mapStats } from './stats.ts';

describe('dashboard data', () => {
  it('maps the stats and falls back to the spec defaults', () => {
    expect(mapStats({ total_views: 3, has_availability: true, this_week_events: 2, user_slug: 'jane' })).toEqual({
      totalViews: 3, hasAvailability: true, thisWeekEvents: 2, userSlug: 'jane',
    });
    expect(mapStats(null)).toEqual({ totalViews: 0, hasAvailability: false, thisWeekEvents: 0, userSlug: 'username' });
  });
});
