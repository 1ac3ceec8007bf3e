/**
 * Pure time helpers for the web grids: plain dates, week math, zone conversion through Intl,
 * hour-range widening. No dependencies, so the public page stays light.
 * A "plain date" is a 'YYYY-MM-DD' string; arithmetic on it goes through Date.UTC.
 */

export interface ZonedParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const dtfCache = new Map<string, Intl.DateTimeFormat>();
function partsFormatter(tz: string): Intl.DateTimeFormat {
  let f = dtfCache.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    dtfCache.set(tz, f);
  }
  return f;
}

/** Wall-clock parts of an instant in a zone. */
export function zonedParts(ms: number, tz: string): ZonedParts {
  const out: Record<string, number> = {};
  for (const p of partsFormatter(tz).formatToParts(new Date(ms))) {
    if (p.type !== 'literal') out[p.type] = Number(p.value);
  }
  return { year: out.year, month: out.month, day: out.day, hour: out.hour % 24, minute: out.minute, second: out.second };
}

/** Offset (ms) of the zone at an instant: local wall time minus UTC. */
function zoneOffsetMs(ms: number, tz: string): number {
  const p = zonedParts(ms, tz);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - (ms - (ms % 1000 + 1000) % 1000);
}

/** The instant of a wall-clock time in a zone (gap → shifted forward, overlap → earlier). */
export function zonedToUtc(date: string, minutes: number, tz: string): number {
  const [y, m, d] = date.split('-').map(Number);
  const wall = Date.UTC(y, m - 1, d) + minutes * 60_000;
  const before = zoneOffsetMs(wall - 86_400_000, tz);
  const after = zoneOffsetMs(wall + 86_400_000, tz);
  const valid = [wall - before, wall - after].filter((t) => wall - zoneOffsetMs(t, tz) === t);
  // Overlap: two valid instants, take the earlier. Gap: none valid; the pre-gap offset moves it forward.
  return valid.length ? Math.min(...valid) : wall - before;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** Plain date of an instant in a zone. */
export function dateInZone(ms: number, tz: string): string {
  const p = zonedParts(ms, tz);
  return `${p.year}-${pad2(p.month)}-${pad2(p.day)}`;
}

/** Plain date + n days. */
export function addDays(date: string, n: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d + n));
  return `${t.getUTCFullYear()}-${pad2(t.getUTCMonth() + 1)}-${pad2(t.getUTCDate())}`;
}

/** Weekday of a plain date, 0 = Monday … 6 = Sunday (the spec's numbering). */
export function weekdayMon0(date: string): number {
  const [y, m, d] = date.split('-').map(Number);
  return (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7;
}

/** First day of the month `offset` months from the one holding `today`. */
export function monthStart(today: string, offset: number): string {
  const [y, m] = today.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1 + offset, 1));
  return `${t.getUTCFullYear()}-${pad2(t.getUTCMonth() + 1)}-01`;
}

/** Number of days in the month starting at `first` (a 'YYYY-MM-01'). */
function daysInMonth(first: string): number {
  const [y, m] = first.split('-').map(Number);
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** 'HH:MM' → minutes since midnight. */
export function hhmmToMinutes(s: string): number {
  const [h, m] = s.split(':').map(Number);
  return h * 60 + m;
}

/** '17:00' → '5:00 PM'. */
export function to12h(s: string): string {
  const min = hhmmToMinutes(s);
  const h = Math.floor(min / 60) % 24;
  const m = min % 60;
  const suffix = h < 12 ? 'AM' : 'PM';
  const h12 = h % 12 === 0 ? 12 : h % 12;
  return `${h12}:${pad2(m)} ${suffix}`;
}

export interface HourRange {
  start: number;
  end: number;
}

/**
 * Dashboard grid range (spec §9): at least 8–20 h; a rule or event outside it widens the range
 * by 2 hours beyond it (a 06:00 event makes the grid start at 04:00), clamped to 0–24.
 * Items are [startMinutes, endMinutes] within one day.
 */
export function dashboardHourRange(
  items: ReadonlyArray<readonly [number, number]>,
  min: HourRange = { start: 8, end: 20 },
  widen = 2,
): HourRange {
  let start = min.start;
  let end = min.end;
  for (const [s, e] of items) {
    if (s < min.start * 60) start = Math.min(start, Math.floor(s / 60) - widen);
    if (e > min.end * 60) end = Math.max(end, Math.ceil(e / 60) + widen);
  }
  return { start: Math.max(0, start), end: Math.min(24, end) };
}

/** Public grid range (spec §1, §9): 07:00–20:00 by default, expanding to include every window. */
export function publicHourRange(items: ReadonlyArray<readonly [number, number]>, def: HourRange = { start: 7, end: 20 }): HourRange {
  let start = def.start;
  let end = def.end;
  for (const [s, e] of items) {
    start = Math.min(start, Math.floor(s / 60));
    end = Math.max(end, Math.ceil(e / 60));
  }
  return { start: Math.max(0, start), end: Math.min(24, end) };
}

export interface DaySegment {
  date: string;
  /** minutes since local midnight */
  startMin: number;
  endMin: number;
  startMs: number;
  endMs: number;
}

/**
 * Splits instants [startMs, endMs) into per-day segments of the given plain dates in `tz`.
 * Minutes are wall-clock minutes (a DST day still lays out on a 24-hour column).
 */
export function splitByDay(startMs: number, endMs: number, dates: readonly string[], tz: string): DaySegment[] {
  const out: DaySegment[] = [];
  for (const date of dates) {
    const dayStart = zonedToUtc(date, 0, tz);
    const dayEnd = zonedToUtc(addDays(date, 1), 0, tz);
    const s = Math.max(startMs, dayStart);
    const e = Math.min(endMs, dayEnd);
    if (e <= s) continue;
    const sp = zonedParts(s, tz);
    const startMin = s === dayStart ? 0 : sp.hour * 60 + sp.minute;
    let endMin: number;
    if (e === dayEnd) endMin = 24 * 60;
    else {
      const ep = zonedParts(e, tz);
      endMin = ep.hour * 60 + ep.minute;
    }
    if (endMin > startMin) out.push({ date, startMin, endMin, startMs: s, endMs: e });
  }
  return out;
}

/** The visitor's zone as the browser reports it. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

// Intl.DateTimeFormat objects are costly to create (the server renders the public page with these
// helpers too): one per zone and option set, kept.
const formatters = new Map<string, Intl.DateTimeFormat>();
function cachedFormat(key: string, make: () => Intl.DateTimeFormat): Intl.DateTimeFormat {
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = make()));
  return f;
}

/** '09:30' style time of an instant in a zone. */
export function formatTime(ms: number, tz: string, hour12 = false): string {
  return cachedFormat(`t|${tz}|${hour12}`, () => new Intl.DateTimeFormat('en-GB', { timeZone: tz, hour: '2-digit', minute: '2-digit', hour12 })).format(new Date(ms));
}

const QUARTER_MS = 15 * 60_000;

/**
 * Start instants for a proposal inside the window [startMs, endMs): every quarter hour from the
 * first one at or after max(startMs, notBeforeMs), as long as `minMinutes` still fit before endMs.
 * (Every zone in use today is offset from UTC by a multiple of 15 minutes, so UTC quarters are
 * wall-clock quarters in any zone.)
 */
export function quarterHourStarts(startMs: number, endMs: number, notBeforeMs = Number.NEGATIVE_INFINITY, minMinutes = 15): number[] {
  const first = Math.ceil(Math.max(startMs, notBeforeMs) / QUARTER_MS) * QUARTER_MS;
  const out: number[] = [];
  for (let t = first; t + minMinutes * 60_000 <= endMs; t += QUARTER_MS) out.push(t);
  return out;
}

/** Proposal lengths offered, in minutes. */
const PROPOSAL_DURATIONS = [15, 30, 45, 60, 90] as const;

/** The lengths (minutes) from `choices` that fit between startMs and endMs. */
export function fittingDurations(startMs: number, endMs: number, choices: readonly number[] = PROPOSAL_DURATIONS): number[] {
  return choices.filter((m) => startMs + m * 60_000 <= endMs);
}

/** The default length: `preferred` when it fits, else the longest that fits (undefined when none does). */
export function defaultDuration(fits: readonly number[], preferred = 30): number | undefined {
  if (fits.includes(preferred)) return preferred;
  return fits.length ? Math.max(...fits) : undefined;
}

/** The seven plain dates of the week holding `date`, starting on `weekStart` (0 = Sunday … 6 = Saturday). */
export function weekOf(date: string, weekStart: number): string[] {
  const dow = (weekdayMon0(date) + 1) % 7; // 0 = Sunday
  const first = addDays(date, -((dow - weekStart + 7) % 7));
  return Array.from({ length: 7 }, (_, i) => addDays(first, i));
}

/** Every plain date of the month holding `date`. */
export function monthOf(date: string): string[] {
  const first = `${date.slice(0, 7)}-01`;
  return Array.from({ length: daysInMonth(first) }, (_, i) => addDays(first, i));
}

/** `date` moved by `months` months, its day clamped to the target month's length ('2026-01-31' + 1 → '2026-02-28'). */
export function addMonths(date: string, months: number): string {
  const first = monthStart(date, months);
  const day = Math.min(Number(date.slice(8, 10)), daysInMonth(first));
  return `${first.slice(0, 8)}${pad2(day)}`;
}
