import { describe, expect, it } from 'vitest';
import {
  InvalidInputError,
  computeFreeWindows,
  findOwnerScheduleProblem,
  formatInstant,
  formatWindows,
  validateOwnerSchedule,
  type DateException,
  type WeeklyRule,
} from './free-windows.ts';

const iso = (s: string) => Date.parse(s);
const rule = (weekday: number, s: string, e: string): WeeklyRule => ({ weekday, start_time_local: s, end_time_local: e });
const exc = (date: string, s: string | null, e: string | null, id = 1): DateException => ({ id, date, start_time_local: s, end_time_local: e });

function run(opts: {
  tz: string;
  rules: WeeklyRule[];
  exceptions?: DateException[];
  busy?: Array<[string, string]>;
  from: string;
  to: string;
  now?: string;
}) {
  return formatWindows(
    computeFreeWindows({
      timezone: opts.tz,
      rules: opts.rules,
      exceptions: opts.exceptions ?? [],
      busy: (opts.busy ?? []).map(([s, e]) => ({ start: iso(s), end: iso(e) })),
      rangeStart: iso(opts.from),
      rangeEnd: iso(opts.to),
      now: iso(opts.now ?? '2000-01-01T00:00:00Z'),
    }),
  );
}

describe('computeFreeWindows', () => {
  it('weekly rules in the owner zone, overlapping rules merged', () => {
    expect(run({
      tz: 'Europe/Brussels',
      rules: [rule(0, '09:00', '12:00'), rule(0, '11:00', '13:00'), rule(1, '14:00', '15:00')],
      from: '2026-03-23T00:00:00Z',
      to: '2026-03-25T00:00:00Z',
    })).toEqual([
      { start: '2026-03-23T08:00:00Z', end: '2026-03-23T12:00:00Z' },
      { start: '2026-03-24T13:00:00Z', end: '2026-03-24T14:00:00Z' },
    ]);
  });
  it('touching rules merge into one window', () => {
    expect(run({ tz: 'UTC', rules: [rule(0, '09:00', '10:00'), rule(0, '10:00', '11:00')], from: '2026-03-23T00:00:00Z', to: '2026-03-24T00:00:00Z' }))
      .toEqual([{ start: '2026-03-23T09:00:00Z', end: '2026-03-23T11:00:00Z' }]);
  });
  it('rule windows across the Brussels spring gap: start in gap moves forward, exact-gap window vanishes', () => {
    // Sunday 2026-03-29: 02:00-03:00 does not exist
    expect(run({ tz: 'Europe/Brussels', rules: [rule(6, '02:30', '04:00')], from: '2026-03-28T00:00:00Z', to: '2026-03-30T00:00:00Z' }))
      .toEqual([{ start: '2026-03-29T01:30:00Z', end: '2026-03-29T02:00:00Z' }]);
    expect(run({ tz: 'Europe/Brussels', rules: [rule(6, '02:00', '03:00')], from: '2026-03-28T00:00:00Z', to: '2026-03-30T00:00:00Z' }))
      .toEqual([]);
  });
  it('rule windows across the Brussels autumn overlap: 3 h of wall clock is 4 h of real time', () => {
    expect(run({ tz: 'Europe/Brussels', rules: [rule(6, '01:00', '04:00')], from: '2026-10-24T00:00:00Z', to: '2026-10-26T00:00:00Z' }))
      .toEqual([{ start: '2026-10-24T23:00:00Z', end: '2026-10-25T03:00:00Z' }]);
    // a window starting in the overlap starts at the first 02:30
    expect(run({ tz: 'Europe/Brussels', rules: [rule(6, '02:30', '03:30')], from: '2026-10-24T00:00:00Z', to: '2026-10-26T00:00:00Z' }))
      .toEqual([{ start: '2026-10-25T00:30:00Z', end: '2026-10-25T02:30:00Z' }]);
  });
  it('New York and Sydney days around their transitions', () => {
    expect(run({ tz: 'America/New_York', rules: [rule(6, '01:00', '04:00')], from: '2026-03-08T00:00:00Z', to: '2026-03-09T00:00:00Z' }))
      .toEqual([{ start: '2026-03-08T06:00:00Z', end: '2026-03-08T08:00:00Z' }]);
    expect(run({ tz: 'Australia/Sydney', rules: [rule(6, '09:00', '17:00')], from: '2026-04-04T00:00:00Z', to: '2026-04-06T00:00:00Z' }))
      .toEqual([{ start: '2026-04-04T23:00:00Z', end: '2026-04-05T07:00:00Z' }]);
    expect(run({ tz: 'Australia/Sydney', rules: [rule(5, '09:00', '17:00')], from: '2026-04-03T00:00:00Z', to: '2026-04-05T00:00:00Z' }))
      .toEqual([{ start: '2026-04-03T22:00:00Z', end: '2026-04-04T06:00:00Z' }]);
  });
  it('Kolkata +05:30 and Chatham +13:45', () => {
    expect(run({ tz: 'Asia/Kolkata', rules: [rule(0, '09:00', '17:30')], from: '2026-03-22T00:00:00Z', to: '2026-03-24T00:00:00Z' }))
      .toEqual([{ start: '2026-03-23T03:30:00Z', end: '2026-03-23T12:00:00Z' }]);
    expect(run({ tz: 'Pacific/Chatham', rules: [rule(0, '09:00', '10:00')], from: '2026-01-01T00:00:00Z', to: '2026-01-06T00:00:00Z' }))
      .toEqual([{ start: '2026-01-04T19:15:00Z', end: '2026-01-04T20:15:00Z' }]);
  });
  it('exceptions replace the date\'s rules; null/null adds nothing; union of the others', () => {
    const rules = [rule(0, '09:00', '17:00'), rule(1, '09:00', '17:00')];
    expect(run({
      tz: 'UTC',
      rules,
      exceptions: [exc('2026-03-23', null, null, 1), exc('2026-03-23', '20:00', '21:00', 2), exc('2026-03-23', '20:30', '22:00', 3), exc('2026-03-24', null, null, 4)],
      from: '2026-03-23T00:00:00Z',
      to: '2026-03-25T00:00:00Z',
    })).toEqual([{ start: '2026-03-23T20:00:00Z', end: '2026-03-23T22:00:00Z' }]);
    // an exception on a day without rules adds availability
    expect(run({ tz: 'UTC', rules, exceptions: [exc('2026-03-28', '10:00', '11:00')], from: '2026-03-28T00:00:00Z', to: '2026-03-29T00:00:00Z' }))
      .toEqual([{ start: '2026-03-28T10:00:00Z', end: '2026-03-28T11:00:00Z' }]);
  });
  it('busy time is subtracted, touching busy intervals leave no sliver', () => {
    expect(run({
      tz: 'UTC',
      rules: [rule(0, '09:00', '17:00')],
      busy: [['2026-03-23T10:00:00Z', '2026-03-23T11:00:00Z'], ['2026-03-23T11:00:00Z', '2026-03-23T12:00:00Z'], ['2026-03-23T16:30:00Z', '2026-03-23T20:00:00Z']],
      from: '2026-03-23T00:00:00Z',
      to: '2026-03-24T00:00:00Z',
    })).toEqual([
      { start: '2026-03-23T09:00:00Z', end: '2026-03-23T10:00:00Z' },
      { start: '2026-03-23T12:00:00Z', end: '2026-03-23T16:30:00Z' },
    ]);
  });
  it('clips to the range and to now; 23:59 end never touches the next day', () => {
    expect(run({
      tz: 'UTC',
      rules: [0, 1].map((d) => rule(d, '00:00', '23:59')),
      from: '2026-03-23T12:00:00Z',
      to: '2026-03-24T06:00:00Z',
      now: '2026-03-23T15:00:00Z',
    })).toEqual([
      { start: '2026-03-23T15:00:00Z', end: '2026-03-23T23:59:00Z' },
      { start: '2026-03-24T00:00:00Z', end: '2026-03-24T06:00:00Z' },
    ]);
    expect(run({ tz: 'UTC', rules: [rule(0, '09:00', '17:00')], from: '2026-03-23T00:00:00Z', to: '2026-03-24T00:00:00Z', now: '2026-03-25T00:00:00Z' }))
      .toEqual([]);
  });
  it('rejects an unknown owner zone', () => {
    expect(() => run({ tz: 'Europe/Atlantis', rules: [], from: '2026-03-23T00:00:00Z', to: '2026-03-24T00:00:00Z' })).toThrow('unknown time zone');
  });
});

describe('validateOwnerSchedule', () => {
  const ok = [rule(0, '09:00', '17:00')];
  it('accepts valid data, including null/null exceptions and 23:59', () => {
    expect(findOwnerScheduleProblem([rule(6, '00:00', '23:59')], [exc('2026-05-26', null, null)])).toBeNull();
    expect(() => validateOwnerSchedule(ok, [exc('2026-05-26', '10:00', '11:00')])).not.toThrow();
  });
  it.each([
    ['exactly one null time', ok, [exc('2026-05-26', '10:00', null)]],
    ['exactly one null time (start)', ok, [exc('2026-05-26', null, '10:00')]],
    ['end before start', [rule(0, '10:00', '09:00')], []],
    ['end equal to start', [rule(0, '10:00', '10:00')], []],
    ['24:00', [rule(0, '10:00', '24:00')], []],
    ['bad HH:MM', [rule(0, '9:00', '10:00')], []],
    ['minutes 60', [rule(0, '09:60', '10:00')], []],
    ['weekday 7', [rule(7, '09:00', '10:00')], []],
    ['weekday -1', [rule(-1, '09:00', '10:00')], []],
    ['weekday 1.5', [rule(1.5, '09:00', '10:00')], []],
    ['exception end before start', ok, [exc('2026-05-26', '12:00', '11:00')]],
    ['exception bad date', ok, [exc('2026-02-30', '10:00', '11:00')]],
  ])('refuses %s with a 422 message', (_label, rules, exceptions) => {
    const p = findOwnerScheduleProblem(rules as WeeklyRule[], exceptions as DateException[]);
    expect(p).toMatch(/^invalid input \(422\): /);
    expect(() => validateOwnerSchedule(rules as WeeklyRule[], exceptions as DateException[])).toThrow(InvalidInputError);
    try {
      validateOwnerSchedule(rules as WeeklyRule[], exceptions as DateException[]);
    } catch (e) {
      expect((e as InvalidInputError).status).toBe(422);
      expect((e as Error).message).toBe(p);
    }
  });
});

describe('formatInstant', () => {
  it('second precision with Z', () => {
    expect(formatInstant(iso('2026-03-23T08:00:00Z'))).toBe('2026-03-23T08:00:00Z');
    expect(formatInstant(iso('2026-03-23T08:00:00.999Z'))).toBe('2026-03-23T08:00:00Z');
  });
});
