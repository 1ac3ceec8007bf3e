import { describe, expect, it } from 'vitest';
import {
  addDays, addMonths, dashboardHourRange, dateInZone, defaultDuration, fittingDurations, monthOf, monthStart, publicHourRange, quarterHourStarts, splitByDay, to12h,
  weekOf, weekdayMon0, zonedToUtc,
} from './time.ts';

describe('week math', () => {
  it('numbers weekdays Monday = 0 … Sunday = 6', () => {
    expect(weekdayMon0('2026-11-23')).toBe(0);
    expect(weekdayMon0('2026-11-22')).toBe(6);
  });
  it('lays a week out from the locale’s first day (Monday, Sunday or Saturday)', () => {
    expect(weekOf('2026-11-22', 1)).toEqual(['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22']);
    expect(weekOf('2026-11-22', 0)[0]).toBe('2026-11-22');
    expect(weekOf('2026-11-21', 0)[0]).toBe('2026-11-15');
    expect(weekOf('2026-11-22', 6)[0]).toBe('2026-11-21');
    expect(weekOf('2026-11-20', 6)).toHaveLength(7);
  });
  it('moves months keeping the day where it exists', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2026-12-08', 1)).toBe('2027-01-08');
    expect(addMonths('2026-03-15', -3)).toBe('2025-12-15');
    expect(monthOf('2028-02-10')).toHaveLength(29);
  });
  it('crosses month and year boundaries', () => {
    expect(addDays('2026-12-30', 3)).toBe('2027-01-02');
    expect(monthStart('2026-12-15', 1)).toBe('2027-01-01');
    expect(monthStart('2026-01-15', -1)).toBe('2025-12-01');
  });
});

describe('hour ranges', () => {
  it('keeps the dashboard minimum 8–20', () => {
    expect(dashboardHourRange([[9 * 60, 17 * 60]])).toEqual({ start: 8, end: 20 });
  });
  it('widens by 2 hours around items outside it', () => {
    expect(dashboardHourRange([[6 * 60, 7 * 60]])).toEqual({ start: 4, end: 20 });
    expect(dashboardHourRange([[18 * 60, 21 * 60 + 30]])).toEqual({ start: 8, end: 24 });
    expect(dashboardHourRange([[60, 120]])).toEqual({ start: 0, end: 20 });
  });
  it('public range defaults to 7–20 and includes every window', () => {
    expect(publicHourRange([])).toEqual({ start: 7, end: 20 });
    expect(publicHourRange([[6 * 60, 9 * 60], [19 * 60, 21 * 60 + 15]])).toEqual({ start: 6, end: 22 });
  });
});

describe('zones', () => {
  it('converts wall-clock times to instants', () => {
    expect(new Date(zonedToUtc('2026-11-23', 9 * 60, 'Europe/Brussels')).toISOString()).toBe('2026-11-23T08:00:00.000Z');
    expect(new Date(zonedToUtc('2026-07-01', 9 * 60, 'America/New_York')).toISOString()).toBe('2026-07-01T13:00:00.000Z');
  });
  it('shifts a DST-gap time forward', () => {
    // 2026-03-29 02:30 does not exist in Brussels; forward → 03:30 CEST = 01:30Z
    expect(new Date(zonedToUtc('2026-03-29', 2 * 60 + 30, 'Europe/Brussels')).toISOString()).toBe('2026-03-29T01:30:00.000Z');
  });
  it('takes the earlier instant in an overlap', () => {
    expect(new Date(zonedToUtc('2026-10-25', 2 * 60 + 30, 'Europe/Brussels')).toISOString()).toBe('2026-10-25T00:30:00.000Z');
  });
  it('splits a window by local day', () => {
    const s = Date.parse('2026-11-23T20:00:00Z');
    const e = Date.parse('2026-11-24T02:00:00Z');
    const segs = splitByDay(s, e, ['2026-11-23', '2026-11-24'], 'Europe/Brussels');
    expect(segs.map((x) => [x.date, x.startMin, x.endMin])).toEqual([
      ['2026-11-23', 21 * 60, 24 * 60],
      ['2026-11-24', 0, 3 * 60],
    ]);
    expect(dateInZone(s, 'Asia/Tokyo')).toBe('2026-11-24');
  });
  it('formats 12-hour times', () => {
    expect(to12h('09:00')).toBe('9:00 AM');
    expect(to12h('17:00')).toBe('5:00 PM');
    expect(to12h('00:30')).toBe('12:30 AM');
    expect(to12h('12:00')).toBe('12:00 PM');
  });
});

describe('proposal times', () => {
  const at = (iso: string) => Date.parse(iso);
  it('offers quarter-hour starts that leave 15 minutes before the window end', () => {
    const starts = quarterHourStarts(at('2026-11-24T08:00:00Z'), at('2026-11-24T09:00:00Z'));
    expect(starts.map((t) => new Date(t).toISOString().slice(11, 16))).toEqual(['08:00', '08:15', '08:30', '08:45']);
  });
  it('rounds an odd window start (clipped to now) up to the next quarter, and skips the past', () => {
    const starts = quarterHourStarts(at('2026-11-24T08:07:12Z'), at('2026-11-24T09:00:00Z'));
    expect(new Date(starts[0]).toISOString().slice(11, 16)).toBe('08:15');
    const later = quarterHourStarts(at('2026-11-24T08:00:00Z'), at('2026-11-24T09:00:00Z'), at('2026-11-24T08:31:00Z'));
    expect(later.map((t) => new Date(t).toISOString().slice(11, 16))).toEqual(['08:45']);
    expect(quarterHourStarts(at('2026-11-24T08:50:00Z'), at('2026-11-24T09:00:00Z'))).toEqual([]);
  });
  it('offers only the lengths that fit and defaults to 30 minutes, else the longest that fits', () => {
    const s = at('2026-11-24T08:00:00Z');
    expect(fittingDurations(s, s + 50 * 60_000)).toEqual([15, 30, 45]);
    expect(fittingDurations(s, s + 3 * 3_600_000)).toEqual([15, 30, 45, 60, 90]);
    expect(defaultDuration([15, 30, 45])).toBe(30);
    expect(defaultDuration([15])).toBe(15);
    expect(defaultDuration([])).toBeUndefined();
  });
});
