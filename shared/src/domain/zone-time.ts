/**
 * Time-zone arithmetic for the free-window engine.
 *
 * Conventions used throughout `shared/src/domain` and `shared/src/ical`:
 *
 * - An **instant** is a number: UTC epoch milliseconds.
 * - A **wall time** ("wall ms") is a number too: the local calendar date and clock time of some
 *   zone, encoded as if it were UTC (`Date.UTC(y, m - 1, d, h, mi, s)`). Adding `n * DAY_MS` to a
 *   wall time moves `n` days on the wall-clock calendar (DST never interferes), and
 *   `Math.floor(wall / DAY_MS)` is the local day number. A wall time is only turned into an
 *   instant through {@link wallToInstant}, which applies RFC 5545 §3.3.5 disambiguation.
 * - Offsets are milliseconds, `local = utc + offset` (Brussels in summer: `+7_200_000`).
 *
 * Nothing here depends on the process time zone (`TZ`): IANA zones are evaluated through
 * `Intl.DateTimeFormat` with an explicit `timeZone`, and every `Date` is read with UTC getters.
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

/** Thrown for an unknown IANA zone name. */
export class UnknownTimeZoneError extends Error {
  constructor(public readonly zoneName: string) {
    super(`unknown time zone: ${zoneName}`);
    this.name = 'UnknownTimeZoneError';
  }
}

// ---------------------------------------------------------------------------------------------
// IANA zones via Intl
// ---------------------------------------------------------------------------------------------

interface YearSegments {
  /** Instants at which a new offset starts; `starts[0]` is the first instant of the year. */
  starts: number[];
  offsets: number[];
}

const yearStartCache = new Map<number, number>();
function utcYearStart(y: number): number {
  let v = yearStartCache.get(y);
  if (v === undefined) {
    v = Date.UTC(y, 0, 1);
    yearStartCache.set(y, v);
  }
  return v;
}

/**
 * An IANA zone evaluated through `Intl.DateTimeFormat`. Offsets are computed once per UTC year:
 * the year is sampled every 24 h and every offset change is bisected to the millisecond, so later
 * look-ups are a binary search over a handful of segments (no formatting in hot loops).
 * Limitation: two transitions less than 24 h apart that cancel each other out are not seen
 * (no such transition exists in the tz database after 1900).
 */
class IanaZone implements TimeZone {
  private readonly dtf: Intl.DateTimeFormat;
  private readonly years = new Map<number, YearSegments>();
  private lastSeg: { from: number; to: number; offset: number } = { from: 1, to: 0, offset: 0 };

  constructor(public readonly name: string) {
    this.dtf = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  }

  /** Exact offset by formatting (slow path; used only to build the per-year segments). */
  private rawOffset(utcMs: number): number {
    const t = Math.floor(utcMs / 1000) * 1000;
    const parts = this.dtf.formatToParts(new Date(t));
    let y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, bc = false;
    for (const p of parts) {
      switch (p.type) {
        case 'year': y = Number(p.value); break;
        case 'month': mo = Number(p.value); break;
        case 'day': d = Number(p.value); break;
        case 'hour': h = Number(p.value) % 24; break;
        case 'minute': mi = Number(p.value); break;
        case 'second': s = Number(p.value); break;
        case 'era': bc = p.value.startsWith('B'); break;
      }
    }
    if (bc) y = 1 - y;
    const local = Date.UTC(y, mo - 1, d, h, mi, s);
    // Date.UTC maps years 0–99 to 1900–1999; fix them up.
    const fixed = y >= 0 && y < 100 ? new Date(local).setUTCFullYear(y) : local;
    return fixed - t;
  }

  private segmentsFor(year: number): YearSegments {
    let seg = this.years.get(year);
    if (seg) return seg;
    const start = utcYearStart(year);
    const end = utcYearStart(year + 1);
    const starts = [start];
    const offsets = [this.rawOffset(start)];
    let prevT = start;
    let prevO = offsets[0];
    for (let t = start + DAY_MS; ; t += DAY_MS) {
      const tt = Math.min(t, end);
      const o = this.rawOffset(tt);
      if (o !== prevO) {
        // bisect (prevT, tt]: the first instant whose offset differs from prevO
        let lo = prevT, hi = tt;
        while (hi - lo > 1000) {
          const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
          if (mid <= lo) break;
          if (this.rawOffset(mid) === prevO) lo = mid; else hi = mid;
        }
        if (hi < end) {
          starts.push(hi);
          offsets.push(this.rawOffset(hi));
        }
        prevO = o;
      }
      prevT = tt;
      if (tt >= end) break;
    }
    seg = { starts, offsets };
    this.years.set(year, seg);
    return seg;
  }

  offsetAt(utcMs: number): number {
    const last = this.lastSeg;
    if (utcMs >= last.from && utcMs < last.to) return last.offset;
    const year = new Date(utcMs).getUTCFullYear();
    const seg = this.segmentsFor(year);
    const { starts, offsets } = seg;
    let i = starts.length - 1;
    while (i > 0 && starts[i] > utcMs) i--;
    const to = i + 1 < starts.length ? starts[i + 1] : utcYearStart(year + 1);
    this.lastSeg = { from: starts[i], to, offset: offsets[i] };
    return offsets[i];
  }
}

/** A zone with one constant offset (e.g. UTC). */
export class FixedOffsetZone implements TimeZone {
  constructor(public readonly name: string, private readonly offsetMs: number) {}
  offsetAt(): number {
    return this.offsetMs;
  }
}

export const UTC_ZONE: TimeZone = new FixedOffsetZone('UTC', 0);

const ianaCache = new Map<string, TimeZone | null>();

/**
 * `name` with its letter case fixed (`europe/brussels` → `Europe/Brussels`; links such as
 * `Asia/Kolkata` are kept as written), or `null` when `name` is not a zone known to the runtime's
 * IANA database. Numeric offsets (`+02:00`) are not zones.
 */
export function canonicalIanaZone(name: string): string | null {
  const z = ianaZoneOrNull(name);
  return z ? z.name : null;
}

/** `true` when `name` is a known IANA zone name (`Europe/Brussels`, `UTC`, `Etc/GMT+5`). */
export function isValidIanaZone(name: unknown): name is string {
  return typeof name === 'string' && ianaZoneOrNull(name) !== null;
}

function ianaZoneOrNull(name: string): TimeZone | null {
  if (typeof name !== 'string') return null;
  const cached = ianaCache.get(name);
  if (cached !== undefined) return cached;
  let zone: TimeZone | null = null;
  // Intl also accepts offset strings like "+01:00" in newer engines: those are not IANA names.
  if (name.length > 0 && name.length < 100 && /^[A-Za-z]/.test(name) && !/\s/.test(name)) {
    try {
      const resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
      // ICU "canonicalises" to old link names (Asia/Kolkata -> Asia/Calcutta): keep the caller's
      // spelling, only fixing its letter case.
      const display = resolved.toLowerCase() === name.toLowerCase() ? resolved : properCase(name);
      zone = resolved === 'UTC' || resolved === 'Etc/UTC' || resolved === 'Etc/GMT'
        ? new FixedOffsetZone(display, 0)
        : new IanaZone(display);
    } catch {
      zone = null; // not a zone this runtime knows: callers treat null as unknown
    }
  }
  ianaCache.set(name, zone);
  return zone;
}

let supportedByLower: Map<string, string> | null = null;
function properCase(name: string): string {
  if (!supportedByLower) {
    supportedByLower = new Map();
    const list = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
    for (const z of list) supportedByLower.set(z.toLowerCase(), z);
  }
  return supportedByLower.get(name.toLowerCase()) ?? name;
}

/**
 * The {@link TimeZone} for an IANA name (cached per name).
 * @throws UnknownTimeZoneError when the name is not a known IANA zone.
 */
export function getIanaZone(name: string): TimeZone {
  const z = ianaZoneOrNull(name);
  if (!z) throw new UnknownTimeZoneError(name);
  return z;
}

// ---------------------------------------------------------------------------------------------
// Conversions
// ---------------------------------------------------------------------------------------------

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

/**
 * Instant of a wall time in `zone`, RFC 5545 §3.3.5 / Temporal `disambiguation: 'compatible'`:
 * a wall time in a gap (spring forward) uses the offset before the gap, i.e. it moves forward by
 * the gap's length; an ambiguous wall time (fall back) is its first (earlier) occurrence.
 */
export function wallToInstant(zone: TimeZone, wall: number): number {
  const before = zone.offsetAt(wall - DAY_MS);
  const after = zone.offsetAt(wall + DAY_MS);
  if (before === after) {
    const t = wall - before;
    if (zone.offsetAt(t) === before) return t;
    // a transition inside the ±1 day window that returned to the same offset: exact probe below
  }
  let best: number | null = null;
  const cands = before === after ? [before, zone.offsetAt(wall - before)] : [before, after];
  for (const o of cands) {
    const t = wall - o;
    if (zone.offsetAt(t) === o && (best === null || t < best)) best = t;
  }
  if (best !== null) return best;
  // gap: the offset before the gap
  return wall - before;
}

/** A {@link TimeZone}, or an IANA name resolved with {@link getIanaZone}. */
export type ZoneLike = TimeZone | string;

function toZone(zone: ZoneLike): TimeZone {
  return typeof zone === 'string' ? getIanaZone(zone) : zone;
}

/**
 * Instant (UTC ms) of local fields in `zone` (see {@link wallToInstant} for gaps and overlaps).
 * @throws UnknownTimeZoneError when `zone` is an unknown IANA name.
 */
export function localToInstant(zone: ZoneLike, local: LocalDateTime): number {
  return wallToInstant(toZone(zone), wallFromFields(local));
}

/** Wall ms of an instant in `zone`. */
export function instantToWall(zone: TimeZone, utcMs: number): number {
  return utcMs + zone.offsetAt(utcMs);
}

/**
 * Local fields of an instant (UTC ms) in `zone`.
 * @throws UnknownTimeZoneError when `zone` is an unknown IANA name.
 */
export function instantToLocal(zone: ZoneLike, utcMs: number): Required<LocalDateTime> {
  return fieldsFromWall(instantToWall(toZone(zone), utcMs));
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

/**
 * First instant of local date `date` in `zone`: 00:00, or on a day whose midnight falls in a gap
 * the first instant that exists (which is what {@link wallToInstant} yields for 00:00).
 */
export function startOfLocalDay(zone: TimeZone, date: { y: number; m: number; d: number }): number {
  return wallToInstant(zone, wallFromFields(date));
}

/** A change of a zone's UTC offset: at `instant` (UTC ms) the offset goes from `offsetBefore` to `offsetAfter` (minutes east of UTC). */
export interface ZoneChange {
  instant: number;
  zone: string;
  offsetBefore: number;
  offsetAfter: number;
}

/**
 * The offset changes of `zone` inside [start, end) (UTC ms), in order: the offset is sampled every
 * 6 hours (no zone changes twice within 6 hours) and each change located to the minute by
 * bisection — zones change on minute boundaries. Cost: (end − start) / 6 h samples plus ~19 per change.
 */
export function zoneChanges(zone: TimeZone, start: number, end: number): ZoneChange[] {
  const STEP = 6 * 3_600_000;
  const MINUTE = 60_000;
  const out: ZoneChange[] = [];
  let t = start;
  let before = zone.offsetAt(t);
  while (t < end) {
    const next = Math.min(end, t + STEP);
    const after = zone.offsetAt(next);
    if (after !== before) {
      // The first instant with the new offset, to the minute, in (t, next].
      let lo = t;
      let hi = next;
      while (hi - lo > MINUTE) {
        const mid = lo + Math.max(1, Math.floor((hi - lo) / 2 / MINUTE)) * MINUTE;
        if (zone.offsetAt(mid) === before) lo = mid;
        else hi = mid;
      }
      // lo still has the old offset and the change is on a minute boundary within (lo, lo + 1 min].
      const instant = Math.floor(lo / MINUTE) * MINUTE + MINUTE;
      if (instant < end) out.push({ instant, zone: zone.name, offsetBefore: before / MINUTE, offsetAfter: zone.offsetAt(instant) / MINUTE });
    }
    before = after;
    t = next;
  }
  return out;
}
