import { describe, expect, it } from 'vitest';
import { DAY_MS, formatIsoDate } from '../domain/zone-time.ts';
import { ExpansionLimitError, expandRRuleWall } from './rrule.ts';
import { parseIcsTime, parseRRule } from './values.ts';

/** Expands in UTC wall time; returns `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM`. */
function expand(rrule: string, dtstart: string, opts: { from?: string; to?: string; withTime?: boolean; max?: number } = {}) {
  const rule = parseRRule(rrule);
  const start = parseIcsTime(dtstart)!.wall;
  const until = rule.until;
  const walls = expandRRuleWall(rule, start, {
    fromWall: opts.from ? parseIcsTime(opts.from)!.wall : start,
    toWall: opts.to ? parseIcsTime(opts.to)!.wall : start + 3000 * DAY_MS,
    withinUntil: until ? (w) => w <= until.wall + (until.form === 'date' ? DAY_MS - 1 : 0) : undefined,
    maxInstances: opts.max ?? 10_000,
  });
  return walls.map((w) => (opts.withTime ? new Date(w).toISOString().slice(0, 16) : formatIsoDate(w)));
}

describe('RRULE expansion (RFC 5545 §3.8.5.3 examples)', () => {
  it('every other week on MO,WE,FR until 1997-12-24', () => {
    expect(expand('FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224T000000Z;WKST=SU;BYDAY=MO,WE,FR', '19970901T090000')).toEqual([
      '1997-09-01', '1997-09-03', '1997-09-05', '1997-09-15', '1997-09-17', '1997-09-19', '1997-09-29',
      '1997-10-01', '1997-10-03', '1997-10-13', '1997-10-15', '1997-10-17', '1997-10-27', '1997-10-29', '1997-10-31',
      '1997-11-10', '1997-11-12', '1997-11-14', '1997-11-24', '1997-11-26', '1997-11-28',
      '1997-12-08', '1997-12-10', '1997-12-12', '1997-12-22',
    ]);
  });
  it('monthly on the first Friday, COUNT=10', () => {
    expect(expand('FREQ=MONTHLY;COUNT=10;BYDAY=1FR', '19970905T090000')).toEqual([
      '1997-09-05', '1997-10-03', '1997-11-07', '1997-12-05', '1998-01-02', '1998-02-06', '1998-03-06', '1998-04-03', '1998-05-01', '1998-06-05',
    ]);
  });
  it('every other month on the first and last Sunday', () => {
    expect(expand('FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU', '19970907T090000')).toEqual([
      '1997-09-07', '1997-09-28', '1997-11-02', '1997-11-30', '1998-01-04', '1998-01-25', '1998-03-01', '1998-03-29', '1998-05-03', '1998-05-31',
    ]);
  });
  it('third-to-last day of the month (negative BYMONTHDAY)', () => {
    expect(expand('FREQ=MONTHLY;BYMONTHDAY=-3', '19970928T090000', { to: '19980401' })).toEqual([
      '1997-09-28', '1997-10-29', '1997-11-28', '1997-12-29', '1998-01-29', '1998-02-26', '1998-03-29',
    ]);
  });
  it('BYSETPOS: third of TU/WE/TH, and second-to-last weekday', () => {
    expect(expand('FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3', '19970904T090000')).toEqual(['1997-09-04', '1997-10-07', '1997-11-06']);
    expect(expand('FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2', '19970929T090000', { to: '19980401' })).toEqual([
      '1997-09-29', '1997-10-30', '1997-11-27', '1997-12-30', '1998-01-29', '1998-02-26', '1998-03-30',
    ]);
  });
  it('Friday the 13th', () => {
    expect(expand('FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13', '19970902T090000', { to: '20001101' })).toEqual([
      '1998-02-13', '1998-03-13', '1998-11-13', '1999-08-13', '2000-10-13',
    ]);
  });
  it('yearly: every Thursday in March; week number 20; the 20th Monday', () => {
    expect(expand('FREQ=YEARLY;BYMONTH=3;BYDAY=TH', '19970313T090000', { to: '19990101' })).toEqual([
      '1997-03-13', '1997-03-20', '1997-03-27', '1998-03-05', '1998-03-12', '1998-03-19', '1998-03-26',
    ]);
    expect(expand('FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO', '19970512T090000', { to: '20000101' })).toEqual(['1997-05-12', '1998-05-11', '1999-05-17']);
    expect(expand('FREQ=YEARLY;BYDAY=20MO', '19970519T090000', { to: '20000101' })).toEqual(['1997-05-19', '1998-05-18', '1999-05-17']);
  });
  it('WKST changes which days an INTERVAL=2 week contains', () => {
    expect(expand('FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO', '19970805T090000')).toEqual(['1997-08-05', '1997-08-10', '1997-08-19', '1997-08-24']);
    expect(expand('FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU', '19970805T090000')).toEqual(['1997-08-05', '1997-08-17', '1997-08-19', '1997-08-31']);
  });
  it('non-existent dates produce nothing and do not count', () => {
    expect(expand('FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5', '20070115T090000')).toEqual(['2007-01-15', '2007-01-30', '2007-02-15', '2007-03-15', '2007-03-30']);
    expect(expand('FREQ=MONTHLY;COUNT=4', '20260131T090000')).toEqual(['2026-01-31', '2026-03-31', '2026-05-31', '2026-07-31']);
    expect(expand('FREQ=YEARLY;COUNT=2', '20240229T090000')).toEqual(['2024-02-29', '2028-02-29']);
  });
  it('DATE UNTIL and DAILY with INTERVAL', () => {
    expect(expand('FREQ=DAILY;INTERVAL=3;UNTIL=20260110', '20260101T230000')).toEqual(['2026-01-01', '2026-01-04', '2026-01-07', '2026-01-10']);
  });
  it('HOURLY and MINUTELY', () => {
    expect(expand('FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T170000Z', '19970902T090000', { withTime: true })).toEqual([
      '1997-09-02T09:00', '1997-09-02T12:00', '1997-09-02T15:00',
    ]);
    expect(expand('FREQ=MINUTELY;INTERVAL=20;BYHOUR=9,10;COUNT=7', '19970902T090000', { withTime: true })).toEqual([
      '1997-09-02T09:00', '1997-09-02T09:20', '1997-09-02T09:40', '1997-09-02T10:00', '1997-09-02T10:20', '1997-09-02T10:40', '1997-09-03T09:00',
    ]);
  });
  it('BYHOUR/BYMINUTE expand a DAILY rule', () => {
    expect(expand('FREQ=DAILY;BYHOUR=9,17;BYMINUTE=0,30;COUNT=5', '20260101T090000', { withTime: true })).toEqual([
      '2026-01-01T09:00', '2026-01-01T09:30', '2026-01-01T17:00', '2026-01-01T17:30', '2026-01-02T09:00',
    ]);
  });
  it('jumps ahead for an unbounded old rule: same instances, cost independent of age', () => {
    const t0 = performance.now();
    const got = expand('FREQ=WEEKLY;BYDAY=TU', '19900102T090000', { from: '20260301', to: '20260401' });
    expect(performance.now() - t0).toBeLessThan(50);
    expect(got).toEqual(['2026-03-03', '2026-03-10', '2026-03-17', '2026-03-24', '2026-03-31']);
    expect(expand('FREQ=DAILY;INTERVAL=7', '19900102T090000', { from: '20260301', to: '20260315' })).toEqual(['2026-03-03', '2026-03-10']);
    // months since 1990-01 ≡ 0 mod 5 in 2026: April and September (both lack a 31st)
    expect(expand('FREQ=MONTHLY;INTERVAL=5', '19900115T090000', { from: '20260101', to: '20261231' })).toEqual(['2026-04-15', '2026-09-15']);
    expect(expand('FREQ=MONTHLY;INTERVAL=5', '19900131T090000', { from: '20260101', to: '20261231' })).toEqual([]);
  });
  it('sub-daily rules skip whole days that BYMONTH/BYDAY exclude', () => {
    const t0 = performance.now();
    expect(expand('FREQ=MINUTELY;INTERVAL=30;BYMONTH=2;BYMONTHDAY=29;BYHOUR=9;COUNT=3', '20000101T000000', { to: '20300101', withTime: true })).toEqual([
      '2000-02-29T09:00', '2000-02-29T09:30', '2004-02-29T09:00',
    ]);
    expect(expand('FREQ=HOURLY;INTERVAL=5;BYDAY=SU;COUNT=6', '20260323T000000', { withTime: true })).toEqual([
      // hours since DTSTART ≡ 0 mod 5: Sunday 03-29 starts at +144 h, so 01:00 (+145); 04-05 starts at +312 h, so 03:00 (+315)
      '2026-03-29T01:00', '2026-03-29T06:00', '2026-03-29T11:00', '2026-03-29T16:00', '2026-03-29T21:00', '2026-04-05T03:00',
    ]);
    expect(performance.now() - t0).toBeLessThan(500);
  });
  it('throws ExpansionLimitError past the cap', () => {
    expect(() => expand('FREQ=MINUTELY;COUNT=1000000', '19900101T000000', { from: '20260101', to: '20260102', max: 1000 })).toThrow(ExpansionLimitError);
  });
  it('rejects malformed rules', () => {
    expect(() => parseRRule('INTERVAL=2')).toThrow('RRULE without FREQ');
    expect(() => parseRRule('FREQ=FORTNIGHTLY')).toThrow('unknown FREQ');
    expect(() => parseRRule('FREQ=DAILY;BYDAY=XX')).toThrow('invalid BYDAY');
    expect(() => parseRRule('FREQ=MONTHLY;BYMONTHDAY=0')).toThrow();
  });
});
