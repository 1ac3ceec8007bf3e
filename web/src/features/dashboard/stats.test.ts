import { describe, expect, it } from 'vitest';
import { mapStats, viewsChangeLine } from './stats.ts';

describe('dashboard data', () => {
  it('maps the stats and falls back to the spec defaults', () => {
    expect(mapStats({ total_views: 3, has_availability: true, this_week_events: 2, user_slug: 'jane' })).toEqual({
      totalViews: 3, hasAvailability: true, thisWeekEvents: 2, userSlug: 'jane',
    });
    expect(mapStats(null)).toEqual({ totalViews: 0, hasAvailability: false, thisWeekEvents: 0, userSlug: 'username' });
  });
});

describe('views change line', () => {
  it('says up, down, no change, new or no views', () => {
    expect(viewsChangeLine(5, 4, 25)).toEqual({ trend: 'up', text: '+25% vs previous 7 days' });
    expect(viewsChangeLine(9, 10, -10)).toEqual({ trend: 'down', text: '\u221210% vs previous 7 days' });
    expect(viewsChangeLine(3, 3, 0)).toEqual({ trend: 'flat', text: 'No change vs previous 7 days' });
    expect(viewsChangeLine(2, 0, null)).toEqual({ trend: 'new', text: 'New this week' });
    expect(viewsChangeLine(0, 0, null)).toEqual({ trend: 'none', text: 'No views yet' });
  });
  it('computes the percent when the server sent none and names another period', () => {
    expect(viewsChangeLine(3, 2, null, 'previous 30 days')).toEqual({ trend: 'up', text: '+50% vs previous 30 days' });
    expect(viewsChangeLine(0, 4, null).text).toBe('\u2212100% vs previous 7 days');
  });
});
