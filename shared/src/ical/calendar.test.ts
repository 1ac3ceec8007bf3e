import { describe, expect, it } from 'vitest';
import { ExpansionLimitError, IcsParseError, expandBusy, icsToBusy, parseCalendar, resolveTzid } from './calendar.ts';
import { readComponents, parseContentLine } from './content-lines.ts';
import { VTimezone } from './vtimezone.ts';
import { windowsZoneToIana } from './windows-zones.ts';

const iso = (s: string) => Date.parse(s);
const Z = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

function cal(body: string[], head: string[] = []): string {
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...head, ...body, 'END:VCALENDAR', ''].join('\r\n');
}
function ev(...props: string[]): string[] {
  return ['BEGIN:VEVENT', 'DTSTAMP:20260101T000000Z', ...props, 'END:VEVENT'];
}
function busy(text: string, opts: { owner?: string; from: string; to: string; emails?: string[] }) {
  const r = expandBusy(parseCalendar(text), {
    ownerZone: opts.owner ?? 'UTC',
    ownerEmails: opts.emails,
    rangeStart: iso(opts.from),
    rangeEnd: iso(opts.to),
  });
  return { ...r, spans: r.intervals.map((i) => `${Z(i.start)}/${Z(i.end)}`) };
}

const EU_CUSTOM = [
  'BEGIN:VTIMEZONE', 'TZID:Customized Time Zone',
  'BEGIN:STANDARD', 'DTSTART:16010101T030000', 'TZOFFSETFROM:+0200', 'TZOFFSETTO:+0100', 'RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=10', 'END:STANDARD',
  'BEGIN:DAYLIGHT', 'DTSTART:16010101T020000', 'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0200', 'RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=3', 'END:DAYLIGHT',
  'END:VTIMEZONE',
];

describe('content lines', () => {
  it('unfolds, reads quoted params with colons, keeps raw values', () => {
    const { roots } = readComponents('BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;TZID="tzone://Microsoft/Custom":2026\r\n 0323T090000\r\nSUMMARY:a\\, b\\nc\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n');
    const e = roots[0].components[0];
    expect(e.props[0]).toEqual({ name: 'DTSTART', params: { TZID: ['tzone://Microsoft/Custom'] }, value: '20260323T090000' });
    expect(e.props[1].value).toBe('a\\, b\\nc');
    expect(parseContentLine('ATTENDEE;PARTSTAT=DECLINED;CN="Doe, J":mailto:j@x.org')).toEqual({
      name: 'ATTENDEE', params: { PARTSTAT: ['DECLINED'], CN: ['Doe, J'] }, value: 'mailto:j@x.org',
    });
  });
  it('throws IcsParseError on garbage, truncation and mismatched END', () => {
    expect(() => parseCalendar('<html><body>login</body></html>')).toThrow(IcsParseError);
    expect(() => parseCalendar('')).toThrow(/not an iCalendar file/);
    expect(() => parseCalendar('BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\n')).toThrow(/truncated calendar/);
    expect(() => parseCalendar('BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nEND:VTODO\r\nEND:VCALENDAR')).toThrow(/does not close/);
  });
  it('accepts LF line ends and a BOM; titles are unescaped', () => {
    const p = parseCalendar('\ufeffBEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:1\nDTSTART:20260323T090000Z\nSUMMARY:Lunch\\, with Bob\\; notes\nEND:VEVENT\nEND:VCALENDAR\n');
    expect(p.events[0].title).toBe('Lunch, with Bob; notes');
  });
});

describe('event times and zones', () => {
  it('a weekly 09:00 Brussels meeting stays at 09:00 Brussels across DST, whatever the owner zone', () => {
    const text = cal(ev('UID:w', 'DTSTART;TZID=Europe/Brussels:20260323T090000', 'DTEND;TZID=Europe/Brussels:20260323T100000', 'RRULE:FREQ=WEEKLY'));
    const r = busy(text, { owner: 'America/New_York', from: '2026-03-20T00:00:00Z', to: '2026-04-03T00:00:00Z' });
    expect(r.spans).toEqual(['2026-03-23T08:00:00Z/2026-03-23T09:00:00Z', '2026-03-30T07:00:00Z/2026-03-30T08:00:00Z']);
    expect(r.intervals.every((i) => !i.dependsOnOwnerZone)).toBe(true);
  });
  it('instances in a gap move forward and still count toward COUNT; ambiguous DTSTART takes the first', () => {
    const text = cal([
      ...ev('UID:g', 'DTSTART;TZID=Europe/Brussels:20260328T023000', 'DURATION:PT30M', 'RRULE:FREQ=DAILY;COUNT=3'),
      ...ev('UID:o', 'DTSTART;TZID=Europe/Brussels:20261025T023000', 'DTEND;TZID=Europe/Brussels:20261025T030000'),
    ]);
    const r = busy(text, { from: '2026-03-27T00:00:00Z', to: '2026-10-30T00:00:00Z' });
    expect(r.spans).toEqual([
      '2026-03-28T01:30:00Z/2026-03-28T02:00:00Z',
      '2026-03-29T01:30:00Z/2026-03-29T02:00:00Z', // 02:30 does not exist: 03:30 CEST
      '2026-03-30T00:30:00Z/2026-03-30T01:00:00Z',
      '2026-10-25T00:30:00Z/2026-10-25T02:00:00Z', // first 02:30 (CEST) to 03:00 CET: 90 minutes
    ]);
  });
  it('DTEND length is exact, DURATION days are nominal (detail 2)', () => {
    const text = cal([
      ...ev('UID:e', 'DTSTART;TZID=Europe/Brussels:20260328T003000', 'DTEND;TZID=Europe/Brussels:20260328T033000', 'RRULE:FREQ=DAILY;COUNT=2'),
      ...ev('UID:n', 'DTSTART;TZID=Europe/Brussels:20260328T120000', 'DURATION:P1DT1H'),
    ]);
    const r = busy(text, { from: '2026-03-27T00:00:00Z', to: '2026-04-01T00:00:00Z' });
    expect(r.spans).toEqual([
      '2026-03-27T23:30:00Z/2026-03-28T02:30:00Z',
      '2026-03-28T11:00:00Z/2026-03-29T11:00:00Z', // 12:00 CET + 1 wall day (12:00 CEST = 10:00Z) + 1 h
      '2026-03-28T23:30:00Z/2026-03-29T02:30:00Z', // 3 h exactly, ends 04:30 CEST
    ]);
  });
  it('UTC times as is; floating in X-WR-TIMEZONE, never rewriting TZID/UTC times', () => {
    const text = cal([
      ...ev('UID:f', 'DTSTART:20260323T090000', 'DTEND:20260323T100000'),
      ...ev('UID:u', 'DTSTART:20260323T150000Z', 'DTEND:20260323T160000Z'),
      ...ev('UID:t', 'DTSTART;TZID=Asia/Kolkata:20260323T090000', 'DTEND;TZID=Asia/Kolkata:20260323T093000'),
    ], ['X-WR-TIMEZONE:Asia/Tokyo']);
    const r = busy(text, { owner: 'Europe/Brussels', from: '2026-03-22T00:00:00Z', to: '2026-03-24T00:00:00Z' });
    expect(r.spans).toEqual([
      '2026-03-23T00:00:00Z/2026-03-23T01:00:00Z',
      '2026-03-23T03:30:00Z/2026-03-23T04:00:00Z',
      '2026-03-23T15:00:00Z/2026-03-23T16:00:00Z',
    ]);
    expect(r.intervals.map((i) => i.dependsOnOwnerZone)).toEqual([false, false, false]);
  });
  it('floating without X-WR-TIMEZONE and all-day events follow the owner zone, flagged for re-derivation', () => {
    const text = cal([
      ...ev('UID:f', 'DTSTART:20260323T090000', 'DTEND:20260323T100000'),
      ...ev('UID:a', 'DTSTART;VALUE=DATE:20260324', 'DTEND;VALUE=DATE:20260326'),
      ...ev('UID:b', 'DTSTART;VALUE=DATE:20260328'),
    ]);
    const parsed = parseCalendar(text);
    const opts = { rangeStart: iso('2026-03-22T00:00:00Z'), rangeEnd: iso('2026-03-31T00:00:00Z') };
    const bru = expandBusy(parsed, { ...opts, ownerZone: 'Europe/Brussels' });
    expect(bru.intervals.map((i) => `${Z(i.start)}/${Z(i.end)}/${i.dependsOnOwnerZone}`)).toEqual([
      '2026-03-23T08:00:00Z/2026-03-23T09:00:00Z/true',
      '2026-03-23T23:00:00Z/2026-03-25T23:00:00Z/true',
      '2026-03-27T23:00:00Z/2026-03-28T23:00:00Z/true', // missing DTEND: one day
    ]);
    // the owner moves to Sydney: re-derive from the same parsed text
    const syd = expandBusy(parsed, { ...opts, ownerZone: 'Australia/Sydney' });
    expect(syd.intervals.map((i) => `${Z(i.start)}/${Z(i.end)}`)).toEqual([
      '2026-03-22T22:00:00Z/2026-03-22T23:00:00Z',
      '2026-03-23T13:00:00Z/2026-03-25T13:00:00Z',
      '2026-03-27T13:00:00Z/2026-03-28T13:00:00Z',
    ]);
  });
  it('icsToBusy is parse + expand in one call', () => {
    const text = cal(ev('UID:f', 'DTSTART:20260323T090000', 'DTEND:20260323T100000'));
    const r = icsToBusy(text, { ownerZone: 'Asia/Tokyo', rangeStart: iso('2026-03-22T00:00:00Z'), rangeEnd: iso('2026-03-24T00:00:00Z') });
    expect(r.intervals).toEqual([{ start: iso('2026-03-23T00:00:00Z'), end: iso('2026-03-23T01:00:00Z'), dependsOnOwnerZone: true }]);
  });
  it('an all-day day whose midnight does not exist starts at the first instant that does', () => {
    const r = busy(cal(ev('UID:a', 'DTSTART;VALUE=DATE:20260906')), { owner: 'America/Santiago', from: '2026-09-01T00:00:00Z', to: '2026-09-10T00:00:00Z' });
    expect(r.spans).toEqual(['2026-09-06T04:00:00Z/2026-09-07T03:00:00Z']);
  });
});

describe('TZID resolution (detail 5)', () => {
  it('Windows names map through CLDR windowsZones', () => {
    expect(windowsZoneToIana('W. Europe Standard Time')).toBe('Europe/Berlin');
    expect(windowsZoneToIana('Romance Standard Time')).toBe('Europe/Paris');
    expect(windowsZoneToIana('Tokyo Standard Time')).toBe('Asia/Tokyo');
    expect(windowsZoneToIana('AUS Eastern Standard Time')).toBe('Australia/Sydney');
    expect(windowsZoneToIana('Not A Zone')).toBeNull();
    const text = cal([
      ...ev('UID:w', 'DTSTART;TZID=W. Europe Standard Time:20260330T090000', 'DTEND;TZID=W. Europe Standard Time:20260330T100000'),
      ...ev('UID:p', 'DTSTART;TZID="Pacific Standard Time":20260310T090000', 'DTEND;TZID="Pacific Standard Time":20260310T100000'),
    ]);
    expect(busy(text, { owner: 'Asia/Kolkata', from: '2026-03-01T00:00:00Z', to: '2026-04-01T00:00:00Z' }).spans).toEqual([
      '2026-03-10T16:00:00Z/2026-03-10T17:00:00Z', // PDT already
      '2026-03-30T07:00:00Z/2026-03-30T08:00:00Z', // CEST
    ]);
  });
  it('a custom VTIMEZONE is evaluated with its own transitions, even when it comes after the event', () => {
    const text = cal([
      ...ev('UID:c1', 'DTSTART;TZID="Customized Time Zone":20260328T100000', 'DTEND;TZID="Customized Time Zone":20260328T110000'),
      ...ev('UID:c2', 'DTSTART;TZID="Customized Time Zone":20260330T100000', 'DTEND;TZID="Customized Time Zone":20260330T110000'),
      ...EU_CUSTOM,
    ]);
    const r = busy(text, { owner: 'America/New_York', from: '2026-03-25T00:00:00Z', to: '2026-04-01T00:00:00Z' });
    expect(r.spans).toEqual(['2026-03-28T09:00:00Z/2026-03-28T10:00:00Z', '2026-03-30T08:00:00Z/2026-03-30T09:00:00Z']);
    expect(r.warnings).toEqual([]);
  });
  it('VTIMEZONEs are scoped to their calendar: the same TZID can mean different offsets in two calendars', () => {
    const other = [
      'BEGIN:VTIMEZONE', 'TZID:Customized Time Zone',
      'BEGIN:STANDARD', 'DTSTART:16010101T000000', 'TZOFFSETFROM:+0545', 'TZOFFSETTO:+0545', 'END:STANDARD',
      'END:VTIMEZONE',
    ];
    const e = ev('UID:c', 'DTSTART;TZID=Customized Time Zone:20260701T100000', 'DURATION:PT1H');
    const a = busy(cal([...EU_CUSTOM, ...e]), { from: '2026-06-30T00:00:00Z', to: '2026-07-02T00:00:00Z' });
    const b = busy(cal([...other, ...e]), { from: '2026-06-30T00:00:00Z', to: '2026-07-02T00:00:00Z' });
    expect(a.spans).toEqual(['2026-07-01T08:00:00Z/2026-07-01T09:00:00Z']);
    expect(b.spans).toEqual(['2026-07-01T04:15:00Z/2026-07-01T05:15:00Z']);
  });
  it('an IANA TZID beats a VTIMEZONE of the same name', () => {
    const fake = EU_CUSTOM.map((l) => (l === 'TZID:Customized Time Zone' ? 'TZID:Australia/Sydney' : l));
    const r = busy(cal([...fake, ...ev('UID:s', 'DTSTART;TZID=Australia/Sydney:20260701T100000', 'DURATION:PT1H')]), { from: '2026-06-30T00:00:00Z', to: '2026-07-02T00:00:00Z' });
    expect(r.spans).toEqual(['2026-07-01T00:00:00Z/2026-07-01T01:00:00Z']);
  });
  it('a globally unique TZID prefix is stripped', () => {
    const p = parseCalendar(cal([]));
    expect(resolveTzid(p, '/mozilla.org/20050126_1/Europe/Brussels')?.name).toBe('Europe/Brussels');
  });
  it('an unresolvable TZID is read in the owner zone with a warning, never UTC, never a failure', () => {
    const r = busy(cal(ev('UID:x', 'DTSTART;TZID="tzone://Microsoft/Custom":20260323T090000', 'DTEND;TZID="tzone://Microsoft/Custom":20260323T100000')), {
      owner: 'Asia/Kolkata', from: '2026-03-22T00:00:00Z', to: '2026-03-24T00:00:00Z',
    });
    expect(r.spans).toEqual(['2026-03-23T03:30:00Z/2026-03-23T04:30:00Z']);
    expect(r.intervals[0].dependsOnOwnerZone).toBe(true);
    expect(r.warnings.some((w) => w.includes('tzone://Microsoft/Custom'))).toBe(true);
  });
});

describe('VTIMEZONE evaluation', () => {
  const tz = (lines: string[]) => new VTimezone('T', readComponents(cal(lines)).roots[0].components[0]);
  it('southern-hemisphere rules with yearly RRULEs', () => {
    const z = tz([
      'BEGIN:VTIMEZONE', 'TZID:T',
      'BEGIN:STANDARD', 'DTSTART:16010101T030000', 'TZOFFSETFROM:+1100', 'TZOFFSETTO:+1000', 'RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=4', 'END:STANDARD',
      'BEGIN:DAYLIGHT', 'DTSTART:16010101T020000', 'TZOFFSETFROM:+1000', 'TZOFFSETTO:+1100', 'RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=10', 'END:DAYLIGHT',
      'END:VTIMEZONE',
    ]);
    const H = 3_600_000;
    expect(z.offsetAt(iso('2026-01-15T00:00:00Z'))).toBe(11 * H);
    expect(z.offsetAt(iso('2026-04-04T15:59:59Z'))).toBe(11 * H); // 2026-04-05 03:00 AEDT = 16:00Z
    expect(z.offsetAt(iso('2026-04-04T16:00:00Z'))).toBe(10 * H);
    expect(z.offsetAt(iso('2026-10-03T15:59:59Z'))).toBe(10 * H); // 2026-10-04 02:00 AEST = 16:00Z
    expect(z.offsetAt(iso('2026-10-03T16:00:00Z'))).toBe(11 * H);
  });
  it('RDATE-only observances and the offset before the first onset', () => {
    const z = tz([
      'BEGIN:VTIMEZONE', 'TZID:T',
      'BEGIN:DAYLIGHT', 'DTSTART:20260301T020000', 'TZOFFSETFROM:-0500', 'TZOFFSETTO:-0400', 'RDATE:20270301T020000', 'END:DAYLIGHT',
      'BEGIN:STANDARD', 'DTSTART:20261101T020000', 'TZOFFSETFROM:-0400', 'TZOFFSETTO:-0500', 'END:STANDARD',
      'END:VTIMEZONE',
    ]);
    const H = 3_600_000;
    expect(z.offsetAt(iso('2025-06-01T00:00:00Z'))).toBe(-5 * H);
    expect(z.offsetAt(iso('2026-03-01T06:59:59Z'))).toBe(-5 * H);
    expect(z.offsetAt(iso('2026-03-01T07:00:00Z'))).toBe(-4 * H);
    expect(z.offsetAt(iso('2026-11-01T06:00:00Z'))).toBe(-5 * H);
    expect(z.offsetAt(iso('2027-03-01T07:00:00Z'))).toBe(-4 * H);
    expect(z.offsetAt(iso('2030-01-01T00:00:00Z'))).toBe(-4 * H); // last onset stays in force
  });
  it('RRULE with UNTIL: the old rule stops, a newer one takes over', () => {
    const z = tz([
      'BEGIN:VTIMEZONE', 'TZID:T',
      'BEGIN:STANDARD', 'DTSTART:19671029T020000', 'TZOFFSETFROM:-0400', 'TZOFFSETTO:-0500', 'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10', 'END:STANDARD',
      'BEGIN:DAYLIGHT', 'DTSTART:19870405T020000', 'TZOFFSETFROM:-0500', 'TZOFFSETTO:-0400', 'RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=4;UNTIL=20060402T070000Z', 'END:DAYLIGHT',
      'BEGIN:DAYLIGHT', 'DTSTART:20070311T020000', 'TZOFFSETFROM:-0500', 'TZOFFSETTO:-0400', 'RRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=3', 'END:DAYLIGHT',
      'END:VTIMEZONE',
    ]);
    const H = 3_600_000;
    expect(z.offsetAt(iso('2005-04-03T07:00:00Z'))).toBe(-4 * H);
    expect(z.offsetAt(iso('2005-04-03T06:59:00Z'))).toBe(-5 * H);
    expect(z.offsetAt(iso('2026-03-08T07:00:00Z'))).toBe(-4 * H);
    expect(z.offsetAt(iso('2026-03-08T06:59:00Z'))).toBe(-5 * H);
    expect(z.offsetAt(iso('2026-04-05T06:00:00Z'))).toBe(-4 * H);
  });
});

describe('recurrence: RDATE, EXDATE, RECURRENCE-ID (details 2, 3, 4, 11, 12)', () => {
  const base = (...extra: string[]) => ev('UID:s', 'DTSTART;TZID=Europe/Brussels:20260323T090000', 'DTEND;TZID=Europe/Brussels:20260323T100000', 'RRULE:FREQ=DAILY;COUNT=5', ...extra);
  const range = { owner: 'UTC', from: '2026-03-20T00:00:00Z', to: '2026-04-05T00:00:00Z' };
  it('EXDATE and RDATE match by instant whatever their form; duplicates collapse', () => {
    const r = busy(cal(base('EXDATE:20260324T080000Z', 'EXDATE;TZID=Asia/Tokyo:20260325T170000', 'RDATE;TZID=America/New_York:20260330T040000', 'RDATE:20260326T080000Z')), range);
    expect(r.spans).toEqual([
      '2026-03-23T08:00:00Z/2026-03-23T09:00:00Z',
      '2026-03-26T08:00:00Z/2026-03-26T09:00:00Z',
      '2026-03-27T08:00:00Z/2026-03-27T09:00:00Z',
      '2026-03-30T08:00:00Z/2026-03-30T09:00:00Z',
    ]);
  });
  it('overrides replace their instance, keep the master length without DTEND, and orphans still count', () => {
    const text = cal([
      ...ev('UID:s', 'RECURRENCE-ID:20260324T080000Z', 'DTSTART;TZID=Europe/Brussels:20260324T140000'),
      ...base(),
      ...ev('UID:s', 'RECURRENCE-ID;TZID=Europe/Brussels:20260325T090000', 'STATUS:CANCELLED', 'DTSTART;TZID=Europe/Brussels:20260325T090000', 'DTEND;TZID=Europe/Brussels:20260325T100000'),
      ...ev('UID:s', 'RECURRENCE-ID;TZID=Europe/Brussels:20260401T090000', 'DTSTART;TZID=Europe/Brussels:20260402T120000', 'DTEND;TZID=Europe/Brussels:20260402T123000'),
    ]);
    expect(busy(text, range).spans).toEqual([
      '2026-03-23T08:00:00Z/2026-03-23T09:00:00Z',
      '2026-03-24T13:00:00Z/2026-03-24T14:00:00Z',
      '2026-03-26T08:00:00Z/2026-03-26T09:00:00Z',
      '2026-03-27T08:00:00Z/2026-03-27T09:00:00Z',
      '2026-04-02T10:00:00Z/2026-04-02T10:30:00Z',
    ]);
  });
  it('an override of a transparent series without TRANSP is busy; an instance moved into the range counts', () => {
    const text = cal([
      ...ev('UID:t', 'DTSTART:20260301T090000Z', 'DTEND:20260301T100000Z', 'RRULE:FREQ=WEEKLY', 'TRANSP:TRANSPARENT'),
      ...ev('UID:t', 'RECURRENCE-ID:20260315T090000Z', 'DTSTART:20260323T070000Z', 'DTEND:20260323T073000Z'),
    ]);
    expect(busy(text, range).spans).toEqual(['2026-03-23T07:00:00Z/2026-03-23T07:30:00Z']);
  });
  it('of two overrides of one instance the higher SEQUENCE wins; a timed override of an all-day series keeps its length in days', () => {
    const text = cal([
      ...base(),
      ...ev('UID:s', 'SEQUENCE:1', 'RECURRENCE-ID:20260324T080000Z', 'DTSTART:20260324T120000Z', 'DTEND:20260324T130000Z'),
      ...ev('UID:s', 'SEQUENCE:3', 'RECURRENCE-ID;TZID=Europe/Brussels:20260324T090000', 'DTSTART:20260324T150000Z', 'DTEND:20260324T160000Z'),
      ...ev('UID:a', 'DTSTART;VALUE=DATE:20260401', 'RRULE:FREQ=DAILY;COUNT=2'),
      ...ev('UID:a', 'RECURRENCE-ID;VALUE=DATE:20260402', 'DTSTART:20260403T100000Z'),
    ]);
    expect(busy(text, range).spans).toEqual([
      '2026-03-23T08:00:00Z/2026-03-23T09:00:00Z',
      '2026-03-24T15:00:00Z/2026-03-24T16:00:00Z',
      '2026-03-25T08:00:00Z/2026-03-25T09:00:00Z',
      '2026-03-26T08:00:00Z/2026-03-26T09:00:00Z',
      '2026-03-27T08:00:00Z/2026-03-27T09:00:00Z',
      '2026-04-01T00:00:00Z/2026-04-02T00:00:00Z',
      '2026-04-03T10:00:00Z/2026-04-04T10:00:00Z',
    ]);
  });
  it('all-day series match EXDATE and RECURRENCE-ID by date', () => {
    const text = cal([
      ...ev('UID:a', 'DTSTART;VALUE=DATE:20260323', 'RRULE:FREQ=DAILY;COUNT=4', 'EXDATE;VALUE=DATE:20260324'),
      ...ev('UID:a', 'RECURRENCE-ID;VALUE=DATE:20260325', 'DTSTART;VALUE=DATE:20260328'),
    ]);
    expect(busy(text, { owner: 'Asia/Kolkata', from: '2026-03-20T00:00:00Z', to: '2026-04-05T00:00:00Z' }).spans).toEqual([
      '2026-03-22T18:30:00Z/2026-03-23T18:30:00Z',
      '2026-03-25T18:30:00Z/2026-03-26T18:30:00Z',
      '2026-03-27T18:30:00Z/2026-03-28T18:30:00Z',
    ]);
  });
  it('UNTIL forms: UTC inclusive, DATE = end of that day in the event zone, local in the event zone', () => {
    const mk = (uid: string, until: string) =>
      ev(`UID:${uid}`, 'DTSTART;TZID=America/New_York:20260323T200000', 'DURATION:PT30M', `RRULE:FREQ=DAILY;UNTIL=${until}`);
    const range2 = { owner: 'UTC', from: '2026-03-20T00:00:00Z', to: '2026-04-05T00:00:00Z' };
    // 20:00 EDT = 00:00Z next day
    expect(busy(cal(mk('u', '20260325T000000Z')), range2).spans).toEqual(['2026-03-24T00:00:00Z/2026-03-24T00:30:00Z', '2026-03-25T00:00:00Z/2026-03-25T00:30:00Z']);
    expect(busy(cal(mk('d', '20260324')), range2).spans).toEqual(['2026-03-24T00:00:00Z/2026-03-24T00:30:00Z', '2026-03-25T00:00:00Z/2026-03-25T00:30:00Z']);
    expect(busy(cal(mk('l', '20260324T200000')), range2).spans).toEqual(['2026-03-24T00:00:00Z/2026-03-24T00:30:00Z', '2026-03-25T00:00:00Z/2026-03-25T00:30:00Z']);
    expect(busy(cal(mk('l2', '20260324T195959')), range2).spans).toEqual(['2026-03-24T00:00:00Z/2026-03-24T00:30:00Z']);
  });
  it('RDATE;VALUE=PERIOD instances keep their own end; EXRULE and THISANDFUTURE are reported', () => {
    const text = cal([
      ...base('RDATE;VALUE=PERIOD:20260401T120000Z/20260401T150000Z,20260402T120000Z/PT15M', 'EXRULE:FREQ=DAILY;COUNT=1'),
      ...ev('UID:s', 'RECURRENCE-ID;RANGE=THISANDFUTURE:20260327T080000Z', 'DTSTART:20260327T060000Z', 'DTEND:20260327T063000Z'),
    ]);
    const r = busy(text, range);
    expect(r.spans).toEqual([
      '2026-03-23T08:00:00Z/2026-03-23T09:00:00Z',
      '2026-03-24T08:00:00Z/2026-03-24T09:00:00Z',
      '2026-03-25T08:00:00Z/2026-03-25T09:00:00Z',
      '2026-03-26T08:00:00Z/2026-03-26T09:00:00Z',
      '2026-03-27T06:00:00Z/2026-03-27T06:30:00Z',
      '2026-04-01T12:00:00Z/2026-04-01T15:00:00Z',
      '2026-04-02T12:00:00Z/2026-04-02T12:15:00Z',
    ]);
    expect(r.warnings.some((w) => w.includes('EXRULE'))).toBe(true);
    expect(r.warnings.some((w) => w.includes('THISANDFUTURE'))).toBe(true);
  });
  it('an unbounded rule from 1990 costs time proportional to the range', () => {
    const text = cal(ev('UID:old', 'DTSTART;TZID=Europe/Brussels:19900101T090000', 'DURATION:PT30M', 'RRULE:FREQ=DAILY'));
    const t0 = performance.now();
    const r = busy(text, { owner: 'UTC', from: '2026-03-01T00:00:00Z', to: '2026-06-02T00:00:00Z' });
    expect(performance.now() - t0).toBeLessThan(100);
    expect(r.intervals).toHaveLength(93);
    expect(r.spans[0]).toBe('2026-03-01T08:00:00Z/2026-03-01T08:30:00Z');
    expect(r.spans[92]).toBe('2026-06-01T07:00:00Z/2026-06-01T07:30:00Z');
  });
  it('a series needing more instances than the cap throws ExpansionLimitError', () => {
    const text = cal(ev('UID:m', 'DTSTART:19900101T000000Z', 'DURATION:PT1M', 'RRULE:FREQ=MINUTELY;COUNT=99999999'));
    expect(() => expandBusy(parseCalendar(text), { ownerZone: 'UTC', rangeStart: iso('2026-03-01T00:00:00Z'), rangeEnd: iso('2026-03-02T00:00:00Z'), maxInstances: 5000 }))
      .toThrow(ExpansionLimitError);
  });
});

describe('busy or free (details 7, 12, 13) and zero length', () => {
  const one = (uid: string, ...p: string[]) => ev(`UID:${uid}`, 'DTSTART:20260323T090000Z', 'DTEND:20260323T100000Z', ...p);
  const range = { owner: 'UTC', from: '2026-03-23T00:00:00Z', to: '2026-03-24T00:00:00Z' };
  it.each([
    ['plain (no TRANSP = opaque)', [], true],
    ['STATUS:CANCELLED', ['STATUS:CANCELLED'], false],
    ['TRANSP:TRANSPARENT', ['TRANSP:TRANSPARENT'], false],
    ['BUSYSTATUS FREE without TRANSP', ['X-MICROSOFT-CDO-BUSYSTATUS:FREE'], false],
    ['BUSYSTATUS OOF', ['X-MICROSOFT-CDO-BUSYSTATUS:OOF'], true],
    ['BUSYSTATUS TENTATIVE', ['X-MICROSOFT-CDO-BUSYSTATUS:TENTATIVE'], true],
    ['BUSYSTATUS WORKINGELSEWHERE', ['X-MICROSOFT-CDO-BUSYSTATUS:WORKINGELSEWHERE'], true],
    ['STATUS:TENTATIVE', ['STATUS:TENTATIVE'], true],
    ['declined by the owner', ['ATTENDEE;PARTSTAT=DECLINED:mailto:Me@Example.com'], false],
    ['declined by someone else', ['ATTENDEE;PARTSTAT=DECLINED:mailto:other@example.com', 'ATTENDEE;PARTSTAT=ACCEPTED:mailto:me@example.com'], true],
    ['owner has not answered', ['ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:me@example.com'], true],
    ['owner tentative', ['ATTENDEE;PARTSTAT=TENTATIVE:MAILTO:me@example.com'], true],
  ])('%s', (_label, props, isBusy) => {
    const r = busy(cal(one('x', ...(props as string[]))), { ...range, emails: ['me@example.com'] });
    expect(r.intervals.length).toBe(isBusy ? 1 : 0);
    expect(r.events).toHaveLength(1);
    expect(r.events[0].isBusy).toBe(isBusy);
  });
  it('zero-length events block nothing but are listed for the dashboard', () => {
    const r = busy(cal([...ev('UID:z', 'DTSTART:20260323T090000Z'), ...ev('UID:d', 'DTSTART:20260323T110000Z', 'DURATION:PT0S')]), range);
    expect(r.intervals).toEqual([]);
    expect(r.events.map((e) => e.uid)).toEqual(['z', 'd']);
  });
  it('intervals carry no event detail; events carry the title', () => {
    const r = busy(cal(one('secret', 'SUMMARY:Therapy', 'DESCRIPTION:private', 'LOCATION:Somewhere')), range);
    expect(Object.keys(r.intervals[0]).sort()).toEqual(['dependsOnOwnerZone', 'end', 'start']);
    expect(JSON.stringify(r.intervals)).not.toMatch(/Therapy|private|Somewhere|secret/);
    expect(r.events[0]).toMatchObject({ uid: 'secret', title: 'Therapy', allDay: false, isBusy: true });
  });
  it('events outside the range are left out', () => {
    const r = busy(cal(one('x')), { owner: 'UTC', from: '2026-03-24T00:00:00Z', to: '2026-03-25T00:00:00Z' });
    expect(r.intervals).toEqual([]);
    expect(r.events).toEqual([]);
  });
});
