/**
 * Wall times and local dates: the zone-free half of the engine's time arithmetic (the conventions
 * are in `zone-time.ts`, the front door, which re-exports everything here).
 *
 * - A **wall time** ("wall ms") is the local calendar date and clock time of some zone, encoded as
 *   if it were UTC (`Date.UTC(y, m - 1, d, h, mi, s)`); a **day number** counts days since
 *   1970-01-01 on the wall-clock calendar (`Math.floor(wall / DAY_MS)`).
 * - Every `Date` here is read with UTC getters: nothing depends on the process time zone (`TZ`).
 */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** A time zone: maps instants to UTC offsets. */
export interface TimeZone {
  /** Zone name: the canonical IANA name, or the `TZID` of a `VTIMEZONE`. */
  readonly name: string;
  /** UTC offset in milliseconds in force at `utcMs` (`local = utc + offset`). */
  offsetAt(utcMs: number): number;
}

/** Local calendar fields. `m` is 1–12, `d` 1–31, `h` 0–23, `mi` 0–59, `s` 0–59. */
export interface LocalDateTime {
  y: number;
  m: number;
  d: number;
  h?: number;
  mi?: number;
  s?: number;
}

/** Wall ms for local fields (see module doc). Works for years 0–9999. */
export function wallFromFields(f: LocalDateTime): number {
  const ms = Date.UTC(f.y, f.m - 1, f.d, f.h ?? 0, f.mi ?? 0, f.s ?? 0);
  return f.y >= 0 && f.y < 100 ? new Date(ms).setUTCFullYear(f.y) : ms;
}

/** Local fields of a wall ms. */
export function fieldsFromWall(wall: number): Required<LocalDateTime> {
  const d = new Date(wall);
  return {
    y: d.getUTCFullYear(),
    m: d.getUTCMonth() + 1,
    d: d.getUTCDate(),
    h: d.getUTCHours(),
    mi: d.getUTCMinutes(),
    s: d.getUTCSeconds(),
  };
}

// ---------------------------------------------------------------------------------------------
// Local-date helpers (dates as day numbers: days since 1970-01-01 on the wall-clock calendar)
// ---------------------------------------------------------------------------------------------

/** Day number of a wall ms. */
export function wallDay(wall: number): number {
  return Math.floor(wall / DAY_MS);
}

/** Weekday of a day number, 0 = Monday … 6 = Sunday. */
export function weekdayOfDay(day: number): number {
  return (((day + 3) % 7) + 7) % 7;
}

/** Weekday (0 = Monday … 6 = Sunday) of a `YYYY-MM-DD` date or of local fields. */
export function weekdayOf(date: string | LocalDateTime): number {
  const f = typeof date === 'string' ? parseIsoDate(date) : date;
  if (!f) throw new RangeError(`invalid date: ${String(date)}`);
  return weekdayOfDay(wallDay(wallFromFields({ y: f.y, m: f.m, d: f.d })));
}

/** `YYYY-MM-DD` plus `days` calendar days (wall-clock calendar, DST-free). */
export function addDays(date: string, days: number): string {
  const f = parseIsoDate(date);
  if (!f) throw new RangeError(`invalid date: ${date}`);
  return formatIsoDate(wallFromFields(f) + days * DAY_MS);
}

/** Parses a real calendar date `YYYY-MM-DD` (rejects 2026-02-30), else `null`. */
export function parseIsoDate(s: string): { y: number; m: number; d: number } | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return null;
  const y = Number(m[1]), mo = Number(m[2]), d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  return { y, m: mo, d };
}

/** `YYYY-MM-DD` of a wall ms (or of a day number times DAY_MS). */
export function formatIsoDate(wall: number): string {
  const f = fieldsFromWall(wall);
  return `${String(f.y).padStart(4, '0')}-${String(f.m).padStart(2, '0')}-${String(f.d).padStart(2, '0')}`;
}

export function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

/** Days in month `m` (1–12) of year `y`. */
export function daysInMonth(y: number, m: number): number {
  return m === 2 ? (isLeapYear(y) ? 29 : 28) : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
}
