import { describe, expect, it } from 'vitest';
import type { WritableCalendar } from '@avail/shared/api/api-client.ts';
import { calendarLabel, defaultOptionLabel, targetOf, targetValue } from './confirmed-meetings-section.tsx';

const work: WritableCalendar = { connection_id: 'c1', connection_name: 'Google · ana@example.com', provider: 'google', calendar_id: 'work@group', calendar_name: 'Work' };

describe('Confirmed meetings setting', () => {
  it('an option value round-trips the calendar, also with odd characters; "" is the default', () => {
    const t = { connection_id: 'c1', calendar_id: 'https://dav.example/cal/"a",b/' };
    expect(targetOf(targetValue(t))).toEqual(t);
    expect(targetValue(null)).toBe('');
    expect(targetOf('')).toBeNull();
    expect(targetOf('{bad')).toBeNull();
  });
  it('labels: the calendar with its connection; the default says where meetings go', () => {
    expect(calendarLabel(work)).toBe('Work (Google · ana@example.com)');
    expect(defaultOptionLabel({ effective: work, calendars: [work] }, false)).toBe('Default — Work (Google · ana@example.com)');
    expect(defaultOptionLabel({ effective: null, calendars: [] }, false)).toBe('Default — e-mail me an .ics file');
    expect(defaultOptionLabel({ effective: work, calendars: [work] }, true)).toBe('Default — the first calendar of your oldest connection');
  });
});
