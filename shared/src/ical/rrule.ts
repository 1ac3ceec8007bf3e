/**
 * RRULE expansion (RFC 5545 §3.3.10, §3.8.5.3) in **wall-clock time**: the rule is evaluated on
 * the local calendar of the event's zone (wall ms, see `domain/zone-time.ts`), so a weekly 09:00
 * meeting stays at 09:00 local across DST. Converting to instants (and shifting times out of
 * gaps) is the caller's job, which keeps gap instances in the set and counting toward COUNT
 * (semantics detail 11). Dates that do not exist (BYMONTHDAY=31 in April, Feb 29 in a common
 * year) are never generated and never counted.
 *
 * Supported: FREQ YEARLY/MONTHLY/WEEKLY/DAILY/HOURLY/MINUTELY/SECONDLY, INTERVAL, COUNT, UNTIL
 * (through the caller's `withinUntil` predicate), BYMONTH, BYWEEKNO, BYYEARDAY, BYMONTHDAY
 * (negatives too), BYDAY (with ordinals, relative to the month or the year as §3.3.10 says),
 * BYHOUR, BYMINUTE, BYSECOND, BYSETPOS, WKST.
 *
 * Cost: without COUNT the expander jumps straight to the period containing `fromWall`, so an
 * unbounded rule from 1990 costs time proportional to the queried window. With COUNT it walks
 * from DTSTART (COUNT itself bounds the walk). Both are guarded by `maxInstances`.
 */
import { DAY_MS, HOUR_MS, MINUTE_MS, daysInMonth, fieldsFromWall, wallFromFields, weekdayOfDay } from '../domain/zone-time.ts';
import { dayMatches, prepare, type Prepared } from './rrule-parts.ts';
import type { RecurRule } from './values.ts';

/**
 * Thrown when an expansion would exceed its instance cap; callers report it as a connection error.
 * `scope` says which cap: `'series'` (one recurring series, `maxInstances`) or `'connection'`
 * (the occurrence budget shared by all calendars of one connection, {@link OccurrenceBudget}).
 */
export class ExpansionLimitError extends Error {
  constructor(public readonly limit: number, detail = '', public readonly scope: 'series' | 'connection' = 'series') {
    super(`recurrence expansion exceeded ${limit} ${scope === 'connection' ? 'occurrences in the range' : 'instances'}${detail ? `: ${detail}` : ''}`);
    this.name = 'ExpansionLimitError';
  }
}

/**
 * A budget of occurrences shared by several expansions (all the calendars of one connection):
 * every occurrence emitted inside the range uses one; when `remaining` would go below zero the
 * expansion throws `ExpansionLimitError(limit, …, 'connection')` at once, so the work done on a
 * runaway calendar is bounded by the budget, not by the calendar.
 */
export interface OccurrenceBudget {
  /** The budget's size (occurrences), for messages. */
  readonly limit: number;
  /** Occurrences still allowed; decremented in place. */
  remaining: number;
}

export interface ExpandWindow {
  /** Instances with `fromWall <= wall < toWall` are returned. */
  fromWall: number;
  toWall: number;
  /** `false` once an instance is past UNTIL (instances are tested in increasing order). */
  withinUntil?: (wall: number) => boolean;
  /** Hard cap on instances generated (including those before `fromWall` counted for COUNT). */
  maxInstances: number;
}

/**
 * How a rule's periods are numbered (§3.3.10 FREQ and INTERVAL): the k-th period of the rule is
 * `idx0 + k * INTERVAL`, `idxOfRel(w)` is the period of wall ms `w` on that scale. WEEKLY periods
 * are counted from `dtWeekStart`, the day number of the WKST-started week holding DTSTART.
 */
interface PeriodIndex {
  idx0: number;
  idxOfRel: (w: number) => number;
  dtWeekStart: number;
}

function periodIndex(rule: RecurRule, dtstartWall: number, dtDay: number): PeriodIndex {
  // period index of a wall time, and the first/last day of a period
  const monthIdx = (w: number) => {
    const f = fieldsFromWall(w);
    return f.y * 12 + (f.m - 1);
  };
  const weekStartDay = (day: number) => day - ((weekdayOfDay(day) - rule.wkst + 7) % 7);
  let idxOf: (w: number) => number;
  switch (rule.freq) {
    case 'YEARLY': idxOf = (w) => fieldsFromWall(w).y; break;
    case 'MONTHLY': idxOf = monthIdx; break;
    case 'WEEKLY': idxOf = (w) => Math.floor(weekStartDay(Math.floor(w / DAY_MS)) / 7); break;
    case 'DAILY': idxOf = (w) => Math.floor(w / DAY_MS); break;
    case 'HOURLY': idxOf = (w) => Math.floor(w / HOUR_MS); break;
    case 'MINUTELY': idxOf = (w) => Math.floor(w / MINUTE_MS); break;
    default: idxOf = (w) => Math.floor(w / 1000); break;
  }
  // WEEKLY: idx*7 is not a week start in general, so keep an explicit base.
  const dtWeekStart = weekStartDay(dtDay);
  const idx0 = rule.freq === 'WEEKLY' ? 0 : idxOf(dtstartWall);
  const idxOfRel = rule.freq === 'WEEKLY'
    ? (w: number) => Math.floor((weekStartDay(Math.floor(w / DAY_MS)) - dtWeekStart) / 7)
    : idxOf;
  return { idx0, idxOfRel, dtWeekStart };
}

/** A period's first wall instant (wall ms) and, for HOURLY/MINUTELY/SECONDLY, its own hour/minute/second. */
interface Period {
  start: number;
  fixed: { h?: number; mi?: number; s?: number };
}

/**
 * The days of period `idx` (day numbers, increasing) into `days` (cleared first): a YEARLY
 * period's days of its BYMONTH months (BYMONTH expands YEARLY, §3.3.10), a month's, a week's
 * (from `dtWeekStart`), or the one day a DAILY or sub-daily period lies in.
 */
function periodDays(rule: RecurRule, p: Prepared, idx: number, dtWeekStart: number, days: number[]): Period {
  days.length = 0;
  let periodStart: number;
  let fixed: { h?: number; mi?: number; s?: number } = {};
  switch (rule.freq) {
    case 'YEARLY': {
      const y = idx;
      periodStart = wallFromFields({ y, m: 1, d: 1 });
      const months = p.byMonth ? [...p.byMonth].sort((a, b) => a - b) : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
      for (const m of months) {
        const first = Math.floor(wallFromFields({ y, m, d: 1 }) / DAY_MS);
        const dim = daysInMonth(y, m);
        for (let d = 0; d < dim; d++) days.push(first + d);
      }
      break;
    }
    case 'MONTHLY': {
      const y = Math.floor(idx / 12), m = (idx % 12) + 1;
      periodStart = wallFromFields({ y, m, d: 1 });
      const first = Math.floor(periodStart / DAY_MS);
      const dim = daysInMonth(y, m);
      for (let d = 0; d < dim; d++) days.push(first + d);
      break;
    }
    case 'WEEKLY': {
      const first = dtWeekStart + idx * 7;
      periodStart = first * DAY_MS;
      for (let d = 0; d < 7; d++) days.push(first + d);
      break;
    }
    case 'DAILY':
      periodStart = idx * DAY_MS;
      days.push(idx);
      break;
    case 'HOURLY': {
      periodStart = idx * HOUR_MS;
      days.push(Math.floor(periodStart / DAY_MS));
      fixed = { h: fieldsFromWall(periodStart).h };
      break;
    }
    case 'MINUTELY': {
      periodStart = idx * MINUTE_MS;
      days.push(Math.floor(periodStart / DAY_MS));
      const f = fieldsFromWall(periodStart);
      fixed = { h: f.h, mi: f.mi };
      break;
    }
    default: {
      periodStart = idx * 1000;
      days.push(Math.floor(periodStart / DAY_MS));
      const f = fieldsFromWall(periodStart);
      fixed = { h: f.h, mi: f.mi, s: f.s };
      break;
    }
  }
  return { start: periodStart, fixed };
}

/**
 * A period's candidate instants (wall ms) into `out` (cleared first): every day of `days` that
 * passes the day-level BYxxx parts (`dayMatches`; for sub-daily FREQ the caller checked the one
 * day), at each BYHOUR × BYMINUTE × BYSECOND time (they expand FREQs coarser than themselves), or
 * at the period's own time when they limit it (sub-daily FREQ, §3.3.10). Seconds above 59 (leap
 * seconds) count as 59.
 */
function periodCandidates(rule: RecurRule, p: Prepared, days: number[], fixed: Period['fixed'], subDaily: boolean, out: number[]): void {
  out.length = 0;
  for (const day of days) {
    if (!subDaily && !dayMatches(day, rule, p)) continue;
    let hours = p.hours;
    if (hours === null) hours = p.byHourSet && !p.byHourSet.has(fixed.h!) ? [] : [fixed.h!];
    let minutes = p.minutes;
    if (minutes === null) minutes = p.byMinuteSet && !p.byMinuteSet.has(fixed.mi!) ? [] : [fixed.mi!];
    let seconds = p.seconds;
    if (seconds === null) seconds = p.bySecondSet && !p.bySecondSet.has(fixed.s!) ? [] : [fixed.s!];
    for (const h of hours) {
      for (const mi of minutes) {
        for (const s of seconds) {
          out.push(day * DAY_MS + h * HOUR_MS + mi * MINUTE_MS + Math.min(s, 59) * 1000);
        }
      }
    }
  }
}

/**
 * BYSETPOS (§3.3.10, applied last): the candidates at the given positions (1-based, negatives
 * from the end) of the period's sorted set, increasing; without BYSETPOS the candidates
 * themselves, sorted in place.
 */
function applyBySetPos(rule: RecurRule, candidates: number[]): number[] {
  let chosen = candidates;
  if (rule.bySetPos && candidates.length) {
    const sorted = [...candidates].sort((a, b) => a - b);
    const picked = new Set<number>();
    for (const pos of rule.bySetPos) {
      const i = pos > 0 ? pos - 1 : sorted.length + pos;
      if (i >= 0 && i < sorted.length) picked.add(sorted[i]);
    }
    chosen = [...picked];
  }
  if (chosen.length > 1) chosen.sort((a, b) => a - b);
  return chosen;
}

/**
 * Expands `rule` from `dtstartWall` (wall ms in the event's zone; for all-day series the date's
 * 00:00). Returns the rule's instances (wall ms, increasing) inside `[fromWall, toWall)`.
 * DTSTART itself is returned only if the rule generates it (callers always add DTSTART).
 * Steps per period: its days (`periodDays`), the candidates (`periodCandidates`), BYSETPOS
 * (`applyBySetPos`), then COUNT / UNTIL / the window.
 *
 * @throws ExpansionLimitError when more than `maxInstances` instances (or 10 × that many empty
 *   periods) would have to be generated.
 */
export function expandRRuleWall(rule: RecurRule, dtstartWall: number, win: ExpandWindow): number[] {
  const out: number[] = [];
  if (rule.count === 0) return out;
  const dt = fieldsFromWall(dtstartWall);
  const dtDay = Math.floor(dtstartWall / DAY_MS);
  const p = prepare(rule, dt, dtDay);
  const interval = rule.interval;
  const hasCount = rule.count !== undefined;
  const { idx0, idxOfRel, dtWeekStart } = periodIndex(rule, dtstartWall, dtDay);

  let k = 0;
  if (!hasCount && win.fromWall > dtstartWall) {
    const target = idxOfRel(win.fromWall);
    k = Math.max(0, Math.floor((target - idx0) / interval) - 1);
  }

  let generated = 0;
  let emptyPeriods = 0;
  const candidateDays: number[] = [];
  const candidates: number[] = [];
  const subDaily = rule.freq === 'HOURLY' || rule.freq === 'MINUTELY' || rule.freq === 'SECONDLY';
  for (;; k++) {
    const idx = idx0 + k * interval;
    // the days of this period, and its first wall instant
    const { start: periodStart, fixed } = periodDays(rule, p, idx, dtWeekStart, candidateDays);
    if (periodStart >= win.toWall) break;

    if (subDaily && !dayMatches(candidateDays[0], rule, p)) {
      // skip the rest of this day at once (HOURLY/MINUTELY/SECONDLY limited by day-level parts)
      const unit = rule.freq === 'HOURLY' ? HOUR_MS : rule.freq === 'MINUTELY' ? MINUTE_MS : 1000;
      const nextDayIdx = ((candidateDays[0] + 1) * DAY_MS) / unit;
      const nextK = Math.ceil((nextDayIdx - idx0) / interval) - 1; // the loop's k++ adds one
      if (nextK > k) k = nextK;
      if (++emptyPeriods > win.maxInstances * 10) {
        throw new ExpansionLimitError(win.maxInstances, `rule ${rule.freq} matches nothing`);
      }
      continue;
    }
    periodCandidates(rule, p, candidateDays, fixed, subDaily, candidates);
    const chosen = applyBySetPos(rule, candidates);
    if (chosen.length === 0) {
      if (++emptyPeriods > win.maxInstances * 10) {
        throw new ExpansionLimitError(win.maxInstances, `rule ${rule.freq} matches nothing`);
      }
      continue;
    }
    // COUNT, UNTIL and the window, in increasing order (DTSTART's own period may hold earlier candidates)
    for (const c of chosen) {
      if (c < dtstartWall) continue;
      if (win.withinUntil && !win.withinUntil(c)) return out;
      generated++;
      if (hasCount && generated > rule.count!) return out;
      if (generated > win.maxInstances) throw new ExpansionLimitError(win.maxInstances);
      if (c >= win.toWall) return out;
      if (c >= win.fromWall) out.push(c);
    }
  }
  return out;
}
