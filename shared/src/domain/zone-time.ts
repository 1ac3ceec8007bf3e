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
import { DAY_MS, fieldsFromWall, wallFromFields, type LocalDateTime, type TimeZone } from './wall-time.ts';
import { getIanaZone } from './iana-zones.ts';

export {
  MINUTE_MS,
  HOUR_MS,
  DAY_MS,
  wallFromFields,
  fieldsFromWall,
  wallDay,
  weekdayOfDay,
  weekdayOf,
  addDays,
  parseIsoDate,
  formatIsoDate,
  isLeapYear,
  daysInMonth,
} from './wall-time.ts';
export type { TimeZone, LocalDateTime } from './wall-time.ts';
export { UnknownTimeZoneError, FixedOffsetZone, UTC_ZONE, canonicalIanaZone, isValidIanaZone, getIanaZone } from './iana-zones.ts';

// ---------------------------------------------------------------------------------------------
// Conversions
// ---------------------------------------------------------------------------------------------

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
