/**
 * An RRULE's BYxxx parts made ready for `expandRRuleWall` (RFC 5545 §3.3.10): the parts DTSTART
 * implies when the rule names no day (a YEARLY rule on DTSTART's month and day, MONTHLY on its
 * day, WEEKLY on its weekday), the times BYHOUR/BYMINUTE/BYSECOND expand to, and the day-level
 * limit (BYMONTH, BYWEEKNO with WKST week numbers, BYYEARDAY, BYMONTHDAY, BYDAY with ordinals).
 * Days are day numbers on the wall-clock calendar (`domain/zone-time.ts`).
 */
import { DAY_MS, daysInMonth, fieldsFromWall, isLeapYear, wallFromFields, weekdayOfDay } from '../domain/zone-time.ts';
import type { RecurRule } from './values.ts';

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

/** A rule's BYxxx parts as `expandRRuleWall` reads them; `hours`/`minutes`/`seconds` null = the period's own (sub-daily FREQ). */
export interface Prepared {
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

/** The BYxxx parts of `rule` with DTSTART's implied ones filled in (`dt`: DTSTART's local fields, `dtDay` its day number). */
export function prepare(rule: RecurRule, dt: ReturnType<typeof fieldsFromWall>, dtDay: number): Prepared {
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
export function dayMatches(day: number, rule: RecurRule, p: Prepared): boolean {
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
