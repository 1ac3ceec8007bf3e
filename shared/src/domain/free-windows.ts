/**
 * The free-window computation — the contract in `shared/spec/availability-semantics.md`.
 *
 * Free windows = (union of rule/exception windows) − (union of busy intervals), clipped to the
 * queried range and to `[now, ∞)`, sorted, merged where they touch, zero-length windows dropped.
 * All instants are UTC epoch milliseconds.
 */
import { clipIntervals, mergeIntervals, subtractIntervals, type Interval } from './intervals.ts';
import {
  DAY_MS,
  MINUTE_MS,
  getIanaZone,
  instantToWall,
  parseIsoDate,
  wallDay,
  wallFromFields,
  wallToInstant,
  weekdayOfDay,
} from './zone-time.ts';

/** A weekly rule: `weekday` 0 = Monday … 6 = Sunday; times `HH:MM` (24 h) in the owner's zone. */
export interface WeeklyRule {
  weekday: number;
  start_time_local: string;
  end_time_local: string;
}

/**
 * A date override: if a local date has at least one exception, that date's weekly rules are
 * ignored and its windows are exactly its exceptions' windows; `null`/`null` adds nothing
 * ("unavailable all day").
 */
export interface DateException {
  id?: number | string;
  /** `YYYY-MM-DD`, a local date in the owner's zone. */
  date: string;
  start_time_local: string | null;
  end_time_local: string | null;
}

export interface FreeWindowInput {
  /** Owner's IANA zone. */
  timezone: string;
  rules: readonly WeeklyRule[];
  exceptions: readonly DateException[];
  /** Busy intervals (UTC ms, half-open); any order, may overlap. */
  busy: readonly Interval[];
  /** Queried range, UTC ms, half-open. */
  rangeStart: number;
  rangeEnd: number;
  /** The clock, UTC ms: nothing before it is free. */
  now: number;
}

/** Error for owner data that must be refused with HTTP 422. Message starts `invalid input (422)`. */
export class InvalidInputError extends Error {
  readonly status = 422;
  constructor(detail: string) {
    super(`invalid input (422): ${detail}`);
    this.name = 'InvalidInputError';
  }
}

const TIME_RE = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes after local midnight of an `HH:MM` string (00:00–23:59), or `null` when malformed. */
function parseLocalTime(s: unknown): number | null {
  if (typeof s !== 'string') return null;
  const m = TIME_RE.exec(s);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/**
 * The first problem with the owner's rules/exceptions as an `invalid input (422): …` message,
 * or `null` when they are valid. Checks: weekday an integer 0–6; times `HH:MM` 00:00–23:59
 * (`24:00` refused); `end > start`; exception dates real `YYYY-MM-DD` dates; an exception has
 * both times or both `null` (exactly one `null` is refused, semantics detail 8).
 */
export function findOwnerScheduleProblem(
  rules: readonly WeeklyRule[],
  exceptions: readonly DateException[],
): string | null {
  if (!Array.isArray(rules)) return 'invalid input (422): rules must be a list';
  if (!Array.isArray(exceptions)) return 'invalid input (422): exceptions must be a list';
  for (const [i, r] of rules.entries()) {
    const where = `rule ${i + 1}`;
    if (!r || typeof r !== 'object') return `invalid input (422): ${where} is not an object`;
    if (!Number.isInteger(r.weekday) || r.weekday < 0 || r.weekday > 6) {
      return `invalid input (422): ${where} has weekday ${String(r.weekday)}, expected 0 (Monday) to 6 (Sunday)`;
    }
    const s = parseLocalTime(r.start_time_local);
    const e = parseLocalTime(r.end_time_local);
    if (s === null) return `invalid input (422): ${where} has start time ${JSON.stringify(r.start_time_local)}, expected HH:MM from 00:00 to 23:59`;
    if (e === null) return `invalid input (422): ${where} has end time ${JSON.stringify(r.end_time_local)}, expected HH:MM from 00:00 to 23:59`;
    if (e <= s) return `invalid input (422): ${where} ends (${r.end_time_local}) at or before its start (${r.start_time_local})`;
  }
  for (const x of exceptions) {
    if (!x || typeof x !== 'object') return 'invalid input (422): exception is not an object';
    if (typeof x.date !== 'string' || !parseIsoDate(x.date)) {
      return `invalid input (422): exception date ${JSON.stringify(x.date)} is not a YYYY-MM-DD date`;
    }
    const sNull = x.start_time_local === null || x.start_time_local === undefined;
    const eNull = x.end_time_local === null || x.end_time_local === undefined;
    if (sNull && eNull) continue;
    if (sNull !== eNull) return `invalid input (422): exception on ${x.date} has exactly one null time`;
    const s = parseLocalTime(x.start_time_local);
    const e = parseLocalTime(x.end_time_local);
    if (s === null) return `invalid input (422): exception on ${x.date} has start time ${JSON.stringify(x.start_time_local)}, expected HH:MM from 00:00 to 23:59`;
    if (e === null) return `invalid input (422): exception on ${x.date} has end time ${JSON.stringify(x.end_time_local)}, expected HH:MM from 00:00 to 23:59`;
    if (e <= s) return `invalid input (422): exception on ${x.date} ends (${x.end_time_local}) at or before its start (${x.start_time_local})`;
  }
  return null;
}

/**
 * Validates the owner's weekly rules and exceptions (see {@link findOwnerScheduleProblem}).
 * @throws InvalidInputError (`status` 422, message `invalid input (422): …`).
 */
export function validateOwnerSchedule(rules: readonly WeeklyRule[], exceptions: readonly DateException[]): void {
  const problem = findOwnerScheduleProblem(rules, exceptions);
  if (problem) throw new InvalidInputError(problem.replace(/^invalid input \(422\): /, ''));
}

/**
 * Rule/exception windows (before busy time is removed) of every local date touching
 * `[rangeStart, rangeEnd)`, as merged instants. Windows are `[D start, D end)` converted with
 * 'compatible' disambiguation (gap → forward, overlap → earlier); a window that collapses to zero
 * length (e.g. exactly a DST gap) disappears.
 */
function availabilityWindows(
  timezone: string,
  rules: readonly WeeklyRule[],
  exceptions: readonly DateException[],
  rangeStart: number,
  rangeEnd: number,
): Interval[] {
  const zone = getIanaZone(timezone);
  const byWeekday: Array<Array<[number, number]>> = [[], [], [], [], [], [], []];
  for (const r of rules) {
    const s = parseLocalTime(r.start_time_local);
    const e = parseLocalTime(r.end_time_local);
    if (s === null || e === null || e <= s) continue;
    byWeekday[r.weekday]?.push([s, e]);
  }
  const byDay = new Map<number, Array<[number, number]>>();
  for (const x of exceptions) {
    const f = parseIsoDate(x.date);
    if (!f) continue;
    const day = wallDay(wallFromFields(f));
    let list = byDay.get(day);
    if (!list) byDay.set(day, (list = []));
    const s = parseLocalTime(x.start_time_local);
    const e = parseLocalTime(x.end_time_local);
    if (s !== null && e !== null && e > s) list.push([s, e]);
  }
  const firstDay = wallDay(instantToWall(zone, rangeStart)) - 1;
  const lastDay = wallDay(instantToWall(zone, rangeEnd)) + 1;
  const out: Interval[] = [];
  for (let day = firstDay; day <= lastDay; day++) {
    const spans = byDay.get(day) ?? byWeekday[weekdayOfDay(day)];
    const dayWall = day * DAY_MS;
    for (const [s, e] of spans) {
      const start = wallToInstant(zone, dayWall + s * MINUTE_MS);
      const end = wallToInstant(zone, dayWall + e * MINUTE_MS);
      if (end > start) out.push({ start, end });
    }
  }
  return mergeIntervals(out);
}

/**
 * Free windows per `shared/spec/availability-semantics.md`.
 *
 * @param input see {@link FreeWindowInput}; all instants UTC ms. Busy intervals in any order; when
 *   already sorted by start (then end), no sort happens: the whole computation is linear.
 * @returns sorted, disjoint, non-touching `{ start, end }` (UTC ms) inside
 *   `[max(rangeStart, now), rangeEnd)`; empty when the range is empty or in the past.
 * @throws UnknownTimeZoneError for an unknown owner zone. Rules/exceptions are expected to have
 *   passed {@link validateOwnerSchedule}; malformed entries are ignored here.
 */
export function computeFreeWindows(input: FreeWindowInput): Interval[] {
  const from = Math.max(input.rangeStart, input.now);
  const to = input.rangeEnd;
  if (!(to > from)) {
    getIanaZone(input.timezone); // still refuse an unknown zone
    return [];
  }
  const avail = availabilityWindows(input.timezone, input.rules, input.exceptions, from, to);
  // Busy time outside [from, to) cannot change the clipped result, so it is not filtered out
  // first (one pass fewer); busy already sorted by start is walked as is (intervals.ts).
  return clipIntervals(subtractIntervals(avail, input.busy), from, to);
}

/** `2026-03-23T08:00:00Z`: ISO 8601 UTC with second precision (sub-second part truncated). */
export function formatInstant(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** {@link formatInstant} applied to each window. */
export function formatWindows(windows: readonly Interval[]): Array<{ start: string; end: string }> {
  return windows.map((w) => ({ start: formatInstant(w.start), end: formatInstant(w.end) }));
}
