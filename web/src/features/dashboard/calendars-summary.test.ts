import { describe, expect, it } from 'vitest';
import { calendarsSummary } from './calendars-summary.ts';

describe('calendarsSummary', () => {
  it('says nothing is connected without calendars', () => {
    expect(calendarsSummary([])).toEqual({ count: 0, line: '', attention: [] });
  });

  it('counts healthy calendars and offers Manage', () => {
    const s = calendarsSummary([
      { name: 'Work', provider: 'ics', status: 'active' },
      { name: null, provider: 'google', status: 'active' },
    ]);
    expect(s).toEqual({ count: 2, line: '2 connected · Manage →', attention: [] });
  });

  it('a broken feed still counts as connected and is named as needing attention', () => {
    const s = calendarsSummary([{ name: 'Team rota', provider: 'ics', status: 'error' }]);
    expect(s.count).toBe(1);
    expect(s.line).toBe('1 connected · 1 needs attention');
    expect(s.attention).toEqual(['Team rota (error)']);
  });

  it('names an unnamed expired connection by its provider, and uses the plural', () => {
    const s = calendarsSummary([
      { name: '', provider: 'google', status: 'expired' },
      { name: 'Team rota', provider: 'ics', status: 'error' },
      { name: 'Home', provider: 'caldav', status: 'active' },
    ]);
    expect(s.line).toBe('3 connected · 2 need attention');
    expect(s.attention).toEqual(['Google Calendar (expired)', 'Team rota (error)']);
  });
});
