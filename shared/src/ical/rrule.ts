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
import { DAY_MS, HOUR_MS, MINUTE_MS, daysInMonth, fieldsFromWall, isLeapYear, wallFromFields, weekdayOfDay } from '../domain/zone-time.ts';
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

function dayOfYear(y: number, m: number, d: number): number {
  return Math.round((Date.UTC(y, m - 1, d) - Date.UTC(y, 0, 1)) / DAY_MS) + 1;
}

/** Day number (days since 1970-01-01) of the first day of week 1 of `y` for week start `wkst`. */
function week1Start(y: number, wkst: number): number {
  const jan1 = Math.floor(wallFromFields({ y, m: 1, d: 1 }) / DAY_MS);
  const off = (weekdayOfDay(jan1) - wkst + 7) % 7;
  return off <= 3 ? jan1 - off : jan1 + (7 - off);
}

/** RFC 5545 week number of `day` in its week-numbering year: [weekNo, weeksInThatYear]. */
function weekNumber(day: number, y: number, wkst: number): [number, number] {
  let yy = y;
  let s = week1Start(yy, wkst);
  if (day < s) {
    yy = y - 1;
    s = week1Start(yy, wkst);
  } else {
    const next = week1Start(y + 1, wkst);
    if (day >= next) {
      yy = y + 1;
      s = next;
    }
  }
  const weeks = (week1Start(yy + 1, wkst) - s) / 7;
  return [Math.floor((day - s) / 7) + 1, weeks];
}

interface Prepared {
  byMonth?: Set<number>;
  byMonthDay?: number[];
  byYearDay?: number[];
  byWeekNo?: number[];
  byDay?: Array<{ weekday: number; ordinal?: number }>;
  hours: number[] | null; // null = the period's own hour
  minutes: number[] | null;
  seconds: number[] | null;
  byHourSet?: Set<number>;
  byMinuteSet?: Set<number>;
  bySecondSet?: Set<number>;
}

function prepare(rule: RecurRule, dt: ReturnType<typeof fieldsFromWall>, dtDay: number): Prepared {
  const p: Prepared = { hours: null, minutes: null, seconds: null };
  let byMonth = rule.byMonth;
  let byMonthDay = rule.byMonthDay;
  let byDay = rule.byDay;
  const noDaySpec = !rule.byWeekNo && !rule.byYearDay && !rule.byMonthDay && !rule.byDay;
  if (rule.freq === 'YEARLY' && noDaySpec) {
    if (!byMonth) byMonth = [dt.m];
    byMonthDay = [dt.d];
  } else if (rule.freq === 'MONTHLY' && noDaySpec) {
    byMonthDay = [dt.d];
  } else if (rule.freq === 'WEEKLY' && noDaySpec) {
    byDay = [{ weekday: weekdayOfDay(dtDay) }];
  }
  if (byMonth) p.byMonth = new Set(byMonth);
  p.byMonthDay = byMonthDay;
  p.byYearDay = rule.byYearDay;
  p.byWeekNo = rule.freq === 'YEARLY' ? rule.byWeekNo : undefined;
  p.byDay = byDay;
  const f = rule.freq;
  const coarserThan = (unit: 'H' | 'M' | 'S') =>
    unit === 'H' ? ['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY'].includes(f)
      : unit === 'M' ? ['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY', 'HOURLY'].includes(f)
        : f !== 'SECONDLY';
  p.hours = coarserThan('H') ? (rule.byHour ? [...rule.byHour].sort((a, b) => a - b) : [dt.h]) : null;
  p.minutes = coarserThan('M') ? (rule.byMinute ? [...rule.byMinute].sort((a, b) => a - b) : [dt.mi]) : null;
  p.seconds = coarserThan('S') ? (rule.bySecond ? [...rule.bySecond].sort((a, b) => a - b) : [dt.s]) : null;
  if (rule.byHour) p.byHourSet = new Set(rule.byHour);
  if (rule.byMinute) p.byMinuteSet = new Set(rule.byMinute);
  if (rule.bySecond) p.bySecondSet = new Set(rule.bySecond);
  return p;
}

/** Does `day` (day number) pass the day-level BYxxx parts? */
function dayMatches(day: number, rule: RecurRule, p: Prepared): boolean {
  const wall = day * DAY_MS;
  const f = fieldsFromWall(wall);
  if (p.byMonth && !p.byMonth.has(f.m)) return false;
  if (p.byWeekNo) {
    const [wn, weeks] = weekNumber(day, f.y, rule.wkst);
    if (!p.byWeekNo.some((n) => (n > 0 ? n === wn : weeks + n + 1 === wn))) return false;
  }
  if (p.byYearDay) {
    const doy = dayOfYear(f.y, f.m, f.d);
    const len = isLeapYear(f.y) ? 366 : 365;
    if (!p.byYearDay.some((n) => (n > 0 ? n === doy : len + n + 1 === doy))) return false;
  }
  if (p.byMonthDay) {
    const dim = daysInMonth(f.y, f.m);
    if (!p.byMonthDay.some((n) => (n > 0 ? n === f.d : dim + n + 1 === f.d))) return false;
  }
  if (p.byDay) {
    const wd = weekdayOfDay(day);
    const monthly = rule.freq === 'MONTHLY' || (rule.freq === 'YEARLY' && !!rule.byMonth);
    const yearlyOrdinals = rule.freq === 'YEARLY' && !rule.byMonth && !rule.byWeekNo;
    let ok = false;
    for (const bd of p.byDay) {
      if (bd.weekday !== wd) continue;
      if (bd.ordinal === undefined || (!monthly && !yearlyOrdinals)) {
        ok = true;
        break;
      }
      let nth: number, nthFromEnd: number;
      if (monthly) {
        const dim = daysInMonth(f.y, f.m);
        nth = Math.floor((f.d - 1) / 7) + 1;
        nthFromEnd = -(Math.floor((dim - f.d) / 7) + 1);
      } else {
        const doy = dayOfYear(f.y, f.m, f.d);
        const len = isLeapYear(f.y) ? 366 : 365;
        nth = Math.floor((doy - 1) / 7) + 1;
        nthFromEnd = -(Math.floor((len - doy) / 7) + 1);
      }
      if (bd.ordinal === nth || bd.ordinal === nthFromEnd) {
        ok = true;
        break;
      }
    }
    if (!ok) return false;
  }
  return true;
}

/**
 * Expands `rule` from `dtstartWall` (wall ms in the event's zone; for all-day series the date's
 * 00:00). Returns the rule's instances (wall ms, increasing) inside `[fromWall, toWall)`.
 * DTSTART itself is returned only if the rule generates it (callers always add DTSTART).
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

  let k = 0;
  if (!hasCount && win.fromWall > dtstartWall) {
    const target = idxOfRel(win.fromWall);
    k = Math.max(0, Math.floor((target - idx0) / interval) - 1);
  }

  let generated = 0;
  let emptyPeriods = 0;
  const candidateDays: number[] = [];
  const candidates: number[] = [];
  for (;; k++) {
    const idx = idx0 + k * interval;
    // the days of this period, and its first wall instant
    candidateDays.length = 0;
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
          for (let d = 0; d < dim; d++) candidateDays.push(first + d);
        }
        break;
      }
      case 'MONTHLY': {
        const y = Math.floor(idx / 12), m = (idx % 12) + 1;
        periodStart = wallFromFields({ y, m, d: 1 });
        const first = Math.floor(periodStart / DAY_MS);
        const dim = daysInMonth(y, m);
        for (let d = 0; d < dim; d++) candidateDays.push(first + d);
        break;
      }
      case 'WEEKLY': {
        const first = dtWeekStart + idx * 7;
        periodStart = first * DAY_MS;
        for (let d = 0; d < 7; d++) candidateDays.push(first + d);
        break;
      }
      case 'DAILY':
        periodStart = idx * DAY_MS;
        candidateDays.push(idx);
        break;
      case 'HOURLY': {
        periodStart = idx * HOUR_MS;
        candidateDays.push(Math.floor(periodStart / DAY_MS));
        fixed = { h: fieldsFromWall(periodStart).h };
        break;
      }
      case 'MINUTELY': {
        periodStart = idx * MINUTE_MS;
        candidateDays.push(Math.floor(periodStart / DAY_MS));
        const f = fieldsFromWall(periodStart);
        fixed = { h: f.h, mi: f.mi };
        break;
      }
      default: {
        periodStart = idx * 1000;
        candidateDays.push(Math.floor(periodStart / DAY_MS));
        const f = fieldsFromWall(periodStart);
        fixed = { h: f.h, mi: f.mi, s: f.s };
        break;
      }
    }
    if (periodStart >= win.toWall) break;

    candidates.length = 0;
    const subDaily = rule.freq === 'HOURLY' || rule.freq === 'MINUTELY' || rule.freq === 'SECONDLY';
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
    for (const day of candidateDays) {
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
            candidates.push(day * DAY_MS + h * HOUR_MS + mi * MINUTE_MS + Math.min(s, 59) * 1000);
          }
        }
      }
    }
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
    if (chosen.length === 0) {
      if (++emptyPeriods > win.maxInstances * 10) {
        throw new ExpansionLimitError(win.maxInstances, `rule ${rule.freq} matches nothing`);
      }
      continue;
    }
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
