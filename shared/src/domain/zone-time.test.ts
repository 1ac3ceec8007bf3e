import { describe, expect, it } from 'vitest';
import {
  FixedOffsetZone,
  HOUR_MS,
  MINUTE_MS,
  UnknownTimeZoneError,
  addDays,
  canonicalIanaZone,
  getIanaZone,
  instantToLocal,
  isValidIanaZone,
  localToInstant,
  parseIsoDate,
  startOfLocalDay,
  weekdayOf,
} from './zone-time.ts';

const iso = (s: string) => Date.parse(s);
const L = (y: number, m: number, d: number, h = 0, mi = 0, s = 0) => ({ y, m, d, h, mi, s });
const at = (zone: string, f: ReturnType<typeof L>) => new Date(localToInstant(getIanaZone(zone), f)).toISOString();

describe('isValidIanaZone / getIanaZone', () => {
  it('accepts IANA names and canonicalises case', () => {
    expect(isValidIanaZone('Europe/Brussels')).toBe(true);
    expect(isValidIanaZone('UTC')).toBe(true);
    expect(isValidIanaZone('Pacific/Chatham')).toBe(true);
    expect(canonicalIanaZone('europe/brussels')).toBe('Europe/Brussels');
    // ICU would answer Asia/Calcutta / Asia/Katmandu: the caller's modern spelling is kept
    expect(canonicalIanaZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(getIanaZone('Asia/Kathmandu').name).toBe('Asia/Kathmandu');
    expect(getIanaZone('Etc/UTC').offsetAt(0)).toBe(0);
  });
  it('refuses unknown names, Windows names and bare offsets', () => {
    expect(isValidIanaZone('Europe/Atlantis')).toBe(false);
    expect(isValidIanaZone('W. Europe Standard Time')).toBe(false);
    expect(isValidIanaZone('+01:00')).toBe(false);
    expect(isValidIanaZone('')).toBe(false);
    expect(isValidIanaZone(42)).toBe(false);
    expect(() => getIanaZone('Mars/Olympus')).toThrow(UnknownTimeZoneError);
    expect(() => getIanaZone('Mars/Olympus')).toThrow('unknown time zone: Mars/Olympus');
  });
});

describe('offsetAt', () => {
  it('Brussels winter/summer and the exact transition instants', () => {
    const z = getIanaZone('Europe/Brussels');
    expect(z.offsetAt(iso('2026-01-15T12:00:00Z'))).toBe(HOUR_MS);
    expect(z.offsetAt(iso('2026-07-15T12:00:00Z'))).toBe(2 * HOUR_MS);
    expect(z.offsetAt(iso('2026-03-29T00:59:59Z'))).toBe(HOUR_MS);
    expect(z.offsetAt(iso('2026-03-29T01:00:00Z'))).toBe(2 * HOUR_MS);
    expect(z.offsetAt(iso('2026-10-25T00:59:59Z'))).toBe(2 * HOUR_MS);
    expect(z.offsetAt(iso('2026-10-25T01:00:00Z'))).toBe(HOUR_MS);
  });
  it('Kolkata +05:30, Chatham +12:45/+13:45, Lord Howe +10:30/+11:00', () => {
    expect(getIanaZone('Asia/Kolkata').offsetAt(iso('2026-06-01T00:00:00Z'))).toBe(330 * MINUTE_MS);
    const ch = getIanaZone('Pacific/Chatham');
    expect(ch.offsetAt(iso('2026-07-01T00:00:00Z'))).toBe(765 * MINUTE_MS);
    expect(ch.offsetAt(iso('2026-12-01T00:00:00Z'))).toBe(825 * MINUTE_MS);
    expect(ch.offsetAt(iso('2026-09-26T13:59:59Z'))).toBe(765 * MINUTE_MS);
    expect(ch.offsetAt(iso('2026-09-26T14:00:00Z'))).toBe(825 * MINUTE_MS);
    const lh = getIanaZone('Australia/Lord_Howe');
    expect(lh.offsetAt(iso('2026-07-01T00:00:00Z'))).toBe(630 * MINUTE_MS);
    expect(lh.offsetAt(iso('2026-12-01T00:00:00Z'))).toBe(660 * MINUTE_MS);
    expect(lh.offsetAt(iso('2026-10-03T15:30:00Z'))).toBe(660 * MINUTE_MS);
    expect(lh.offsetAt(iso('2026-10-03T15:29:59Z'))).toBe(630 * MINUTE_MS);
  });
  it('does not depend on the year cache order (far past and future years)', () => {
    const z = getIanaZone('America/New_York');
    expect(z.offsetAt(iso('2035-07-04T12:00:00Z'))).toBe(-4 * HOUR_MS);
    expect(z.offsetAt(iso('1995-01-04T12:00:00Z'))).toBe(-5 * HOUR_MS);
    expect(z.offsetAt(iso('2026-07-04T12:00:00Z'))).toBe(-4 * HOUR_MS);
  });
});

describe('localToInstant: RFC 5545 §3.3.5 / compatible disambiguation', () => {
  it('Brussels spring gap moves forward by the gap', () => {
    expect(at('Europe/Brussels', L(2026, 3, 29, 1, 59))).toBe('2026-03-29T00:59:00.000Z');
    expect(at('Europe/Brussels', L(2026, 3, 29, 2, 0))).toBe('2026-03-29T01:00:00.000Z');
    expect(at('Europe/Brussels', L(2026, 3, 29, 2, 30))).toBe('2026-03-29T01:30:00.000Z'); // = 03:30 CEST
    expect(at('Europe/Brussels', L(2026, 3, 29, 3, 0))).toBe('2026-03-29T01:00:00.000Z');
  });
  it('Brussels autumn overlap takes the earlier instant', () => {
    expect(at('Europe/Brussels', L(2026, 10, 25, 2, 0))).toBe('2026-10-25T00:00:00.000Z');
    expect(at('Europe/Brussels', L(2026, 10, 25, 2, 59))).toBe('2026-10-25T00:59:00.000Z');
    expect(at('Europe/Brussels', L(2026, 10, 25, 3, 0))).toBe('2026-10-25T02:00:00.000Z');
    expect(at('Europe/Brussels', L(2026, 10, 25, 1, 59))).toBe('2026-10-24T23:59:00.000Z');
  });
  it('New York both directions', () => {
    expect(at('America/New_York', L(2026, 3, 8, 2, 30))).toBe('2026-03-08T07:30:00.000Z'); // 03:30 EDT
    expect(at('America/New_York', L(2026, 3, 8, 3, 0))).toBe('2026-03-08T07:00:00.000Z');
    expect(at('America/New_York', L(2026, 11, 1, 1, 30))).toBe('2026-11-01T05:30:00.000Z'); // EDT, first
    expect(at('America/New_York', L(2026, 11, 1, 2, 0))).toBe('2026-11-01T07:00:00.000Z');
  });
  it('Sydney (southern hemisphere) both directions', () => {
    // DST ends 2026-04-05 03:00 AEDT -> 02:00 AEST: 02:30 happens twice
    expect(at('Australia/Sydney', L(2026, 4, 5, 2, 30))).toBe('2026-04-04T15:30:00.000Z');
    expect(at('Australia/Sydney', L(2026, 4, 5, 3, 0))).toBe('2026-04-04T17:00:00.000Z');
    // DST starts 2026-10-04 02:00 AEST -> 03:00 AEDT: 02:30 does not exist
    expect(at('Australia/Sydney', L(2026, 10, 4, 2, 30))).toBe('2026-10-03T16:30:00.000Z'); // 03:30 AEDT
    expect(at('Australia/Sydney', L(2026, 10, 4, 1, 59))).toBe('2026-10-03T15:59:00.000Z');
  });
  it('Santiago: transitions at local midnight', () => {
    // 2026-09-06 00:00 (-04) does not exist -> 01:00 (-03) = 04:00Z
    expect(at('America/Santiago', L(2026, 9, 6, 0, 0))).toBe('2026-09-06T04:00:00.000Z');
    expect(startOfLocalDay(getIanaZone('America/Santiago'), { y: 2026, m: 9, d: 6 })).toBe(iso('2026-09-06T04:00:00Z'));
    // 2026-04-04 23:30 happens twice (-03 then -04): earlier = 02:30Z
    expect(at('America/Santiago', L(2026, 4, 4, 23, 30))).toBe('2026-04-05T02:30:00.000Z');
    expect(at('America/Santiago', L(2026, 4, 5, 0, 0))).toBe('2026-04-05T04:00:00.000Z');
  });
  it('Chatham 45-minute offsets and Lord Howe 30-minute DST', () => {
    expect(at('Pacific/Chatham', L(2026, 9, 27, 3, 0))).toBe('2026-09-26T14:15:00.000Z'); // gap 02:45-03:45
    expect(at('Pacific/Chatham', L(2026, 4, 5, 3, 0))).toBe('2026-04-04T13:15:00.000Z'); // overlap, +13:45 first
    expect(at('Australia/Lord_Howe', L(2026, 10, 4, 2, 15))).toBe('2026-10-03T15:45:00.000Z'); // gap 02:00-02:30
    expect(at('Australia/Lord_Howe', L(2026, 4, 5, 1, 45))).toBe('2026-04-04T14:45:00.000Z'); // overlap, +11 first
    expect(at('Australia/Lord_Howe', L(2026, 4, 5, 2, 0))).toBe('2026-04-04T15:30:00.000Z');
  });
  it('Kolkata is a plain +05:30', () => {
    expect(at('Asia/Kolkata', L(2026, 3, 29, 2, 30))).toBe('2026-03-28T21:00:00.000Z');
  });
  it('fixed offset zones', () => {
    const z = new FixedOffsetZone('X', -3 * HOUR_MS);
    expect(localToInstant(z, L(2026, 1, 1, 0, 0))).toBe(iso('2026-01-01T03:00:00Z'));
  });
});

describe('instantToLocal', () => {
  it('round-trips and shows both sides of a transition', () => {
    const z = getIanaZone('Europe/Brussels');
    expect(instantToLocal(z, iso('2026-10-25T00:30:00Z'))).toEqual({ y: 2026, m: 10, d: 25, h: 2, mi: 30, s: 0 });
    expect(instantToLocal(z, iso('2026-10-25T01:30:00Z'))).toEqual({ y: 2026, m: 10, d: 25, h: 2, mi: 30, s: 0 });
    expect(instantToLocal(getIanaZone('Pacific/Chatham'), iso('2026-01-01T00:00:00Z'))).toEqual({ y: 2026, m: 1, d: 1, h: 13, mi: 45, s: 0 });
    expect(instantToLocal('Asia/Kolkata', iso('2026-01-01T00:00:00Z'))).toEqual({ y: 2026, m: 1, d: 1, h: 5, mi: 30, s: 0 });
    expect(localToInstant('America/New_York', L(2026, 11, 1, 1, 30))).toBe(iso('2026-11-01T05:30:00Z'));
  });
});

describe('date helpers', () => {
  it('weekday with 0 = Monday', () => {
    expect(weekdayOf('2026-03-23')).toBe(0);
    expect(weekdayOf('2026-03-29')).toBe(6);
    expect(weekdayOf('1970-01-01')).toBe(3);
    expect(weekdayOf('1969-12-29')).toBe(0);
  });
  it('addDays walks the calendar', () => {
    expect(addDays('2026-03-28', 1)).toBe('2026-03-29');
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
  });
  it('parseIsoDate rejects impossible dates', () => {
    expect(parseIsoDate('2026-02-29')).toBeNull();
    expect(parseIsoDate('2024-02-29')).toEqual({ y: 2024, m: 2, d: 29 });
    expect(parseIsoDate('2026-13-01')).toBeNull();
    expect(parseIsoDate('2026-1-01')).toBeNull();
  });
});
