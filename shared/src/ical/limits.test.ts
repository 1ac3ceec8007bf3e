/** Bounds of the ICS reader and expander against hostile input (issue 11). */
import { describe, expect, it } from 'vitest';
import { ExpansionLimitError, expandBusy, parseCalendar, type OccurrenceBudget } from './calendar.ts';
import { ICS_MAX_NESTING, IcsParseError } from './content-lines.ts';
import { VTimezoneError } from './vtimezone.ts';

const range = { ownerZone: 'UTC', rangeStart: Date.UTC(2030, 0, 1), rangeEnd: Date.UTC(2031, 0, 1) };
const cal = (lines: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', ...lines, 'END:VCALENDAR', ''].join('\r\n');
const ev = (uid: string, extra: string[]) => ['BEGIN:VEVENT', `UID:${uid}`, 'DTSTART:20300105T090000Z', 'DTEND:20300105T093000Z', ...extra, 'END:VEVENT'];

describe('ICS limits', () => {
  it('takes occurrences from a budget shared across calendars and stops when it is spent', () => {
    const budget: OccurrenceBudget = { limit: 150, remaining: 150 };
    const daily = parseCalendar(cal(ev('d', ['RRULE:FREQ=DAILY;COUNT=100'])));
    expect(expandBusy(daily, { ...range, budget }).events).toHaveLength(100);
    expect(budget.remaining).toBe(50);
    let err: unknown;
    try {
      expandBusy(daily, { ...range, budget });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ExpansionLimitError);
    expect((err as ExpansionLimitError).scope).toBe('connection');
    expect((err as ExpansionLimitError).limit).toBe(150);
  });

  it('refuses components nested deeper than ICS_MAX_NESTING', () => {
    const open = Array.from({ length: ICS_MAX_NESTING + 5 }, () => 'BEGIN:VEVENT');
    const close = Array.from({ length: ICS_MAX_NESTING + 5 }, () => 'END:VEVENT');
    expect(() => parseCalendar(cal([...open, ...close]))).toThrow(IcsParseError);
    expect(() => parseCalendar(cal([...open, ...close]))).toThrow(/nested more than 16 deep/);
  });

  it('reports a VTIMEZONE whose observance recurs every second instead of expanding it', () => {
    const ics = cal([
      'BEGIN:VTIMEZONE', 'TZID:Junk', 'BEGIN:STANDARD', 'DTSTART:16010101T000000', 'RRULE:FREQ=SECONDLY', 'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0200', 'END:STANDARD', 'END:VTIMEZONE',
      'BEGIN:VEVENT', 'UID:z', 'DTSTART;TZID=Junk:20300105T090000', 'DURATION:PT1H', 'END:VEVENT',
    ]);
    expect(() => expandBusy(parseCalendar(ics), range)).toThrow(VTimezoneError);
  });

  it('reads a VTIMEZONE with many RDATE transitions (binary search) and refuses one with too many', () => {
    const rdates = (n: number) => Array.from({ length: n }, (_, i) => `RDATE:${2030 + Math.floor(i / 300)}${String(1 + (Math.floor(i / 25) % 12)).padStart(2, '0')}${String(1 + (i % 25)).padStart(2, '0')}T020000`);
    const zone = (n: number) => cal([
      'BEGIN:VTIMEZONE', 'TZID:Many', 'BEGIN:STANDARD', 'DTSTART:20000101T000000', 'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0100', ...rdates(n), 'END:STANDARD', 'END:VTIMEZONE',
      'BEGIN:VEVENT', 'UID:m', 'DTSTART;TZID=Many:20300105T090000', 'DURATION:PT1H', 'END:VEVENT',
    ]);
    const ok = expandBusy(parseCalendar(zone(1_000)), range);
    expect(ok.intervals).toEqual([{ start: Date.UTC(2030, 0, 5, 8), end: Date.UTC(2030, 0, 5, 9), dependsOnOwnerZone: false }]);
    const junk = expandBusy(parseCalendar(zone(10_001)), range);
    expect(junk.warnings.some((w) => w.includes('unresolvable TZID "Many"'))).toBe(true);
  });
});
