/**
 * RFC 5545 value types: DATE / DATE-TIME (§3.3.4, §3.3.5), DURATION (§3.3.6), UTC-OFFSET (§3.3.14),
 * RECUR (§3.3.10). Values stay raw (wall-clock + form); resolving zones happens elsewhere.
 */
import { wallFromFields, daysInMonth } from '../domain/zone-time.ts';

/**
 * A DATE or DATE-TIME as written.
 * - `wall`: wall ms of the written local date/time (a DATE is its 00:00);
 * - `form`: `'date'` (`VALUE=DATE`), `'utc'` (`Z` suffix), `'zoned'` (with `TZID`), `'floating'`.
 */
export interface IcsTime {
  wall: number;
  form: 'date' | 'utc' | 'zoned' | 'floating';
  tzid?: string;
}

const DT_RE = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})?(Z)?)?$/i;

/**
 * Parses one DATE or DATE-TIME text (`20260329`, `20260329T020000`, `20260329T020000Z`).
 * `tzid` is attached when given and the value is not UTC (§3.2.19: TZID on a UTC value is ignored).
 * Returns `null` for malformed or non-existent dates/times.
 */
export function parseIcsTime(raw: string, tzid?: string, valueParam?: string): IcsTime | null {
  const m = DT_RE.exec(raw.trim());
  if (!m) return null;
  const y = Number(m[1]), mo = Number(m[2]), d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  if (m[4] === undefined) {
    return { wall: wallFromFields({ y, m: mo, d }), form: 'date' };
  }
  const h = Number(m[4]), mi = Number(m[5]), s = m[6] ? Math.min(Number(m[6]), 59) : 0; // leap second 60 → 59
  if (h > 23 || mi > 59) return null;
  const wall = wallFromFields({ y, m: mo, d, h, mi, s });
  if (valueParam && valueParam.toUpperCase() === 'DATE') return { wall: wallFromFields({ y, m: mo, d }), form: 'date' };
  if (m[7]) return { wall, form: 'utc' };
  if (tzid) return { wall, form: 'zoned', tzid };
  return { wall, form: 'floating' };
}

/** A DURATION: nominal `days` (weeks × 7 + days) and exact `ms` (hours/minutes/seconds); sign applied to both. */
export interface IcsDuration {
  days: number;
  ms: number;
}

/** Parses `P1D`, `PT1H30M`, `-P2W`, `P1DT2H`. `null` when malformed. */
export function parseDuration(raw: string): IcsDuration | null {
  const m = /^([+-])?P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/i.exec(raw.trim());
  if (!m || raw.trim().toUpperCase().endsWith('T') || /^[+-]?P$/i.test(raw.trim())) return null;
  const sign = m[1] === '-' ? -1 : 1;
  const days = (Number(m[2] ?? 0) * 7 + Number(m[3] ?? 0)) * sign;
  const ms = ((Number(m[4] ?? 0) * 60 + Number(m[5] ?? 0)) * 60 + Number(m[6] ?? 0)) * 1000 * sign;
  return { days, ms };
}

/** Parses a UTC-OFFSET (`+0100`, `-0330`, `+054500`) to milliseconds, or `null`. */
export function parseUtcOffset(raw: string): number | null {
  const m = /^([+-])(\d{2})(\d{2})(\d{2})?$/.exec(raw.trim());
  if (!m) return null;
  const v = ((Number(m[2]) * 60 + Number(m[3])) * 60 + Number(m[4] ?? 0)) * 1000;
  return m[1] === '-' ? -v : v;
}

type Freq = 'YEARLY' | 'MONTHLY' | 'WEEKLY' | 'DAILY' | 'HOURLY' | 'MINUTELY' | 'SECONDLY';

/** A parsed RRULE. Weekdays are 0 = Monday … 6 = Sunday. */
export interface RecurRule {
  freq: Freq;
  interval: number;
  count?: number;
  /** Raw UNTIL (form `'date'`, `'utc'` or `'floating'` = local in the event's zone). */
  until?: IcsTime;
  bySecond?: number[];
  byMinute?: number[];
  byHour?: number[];
  byDay?: Array<{ weekday: number; ordinal?: number }>;
  byMonthDay?: number[];
  byYearDay?: number[];
  byWeekNo?: number[];
  byMonth?: number[];
  bySetPos?: number[];
  wkst: number;
}

const WEEKDAYS: Record<string, number> = { MO: 0, TU: 1, WE: 2, TH: 3, FR: 4, SA: 5, SU: 6 };

/** Thrown for an RRULE that cannot be read. */
export class RRuleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RRuleError';
  }
}

function intList(v: string, min: number, max: number, allowNegative: boolean, what: string): number[] {
  const out: number[] = [];
  for (const part of v.split(',')) {
    const t = part.trim();
    if (!/^[+-]?\d+$/.test(t)) throw new RRuleError(`invalid ${what} value ${JSON.stringify(t)}`);
    const n = Number(t);
    const a = Math.abs(n);
    if ((n < 0 && !allowNegative) || a < min || a > max || n === 0 && min > 0) {
      throw new RRuleError(`${what} value ${n} out of range`);
    }
    out.push(n);
  }
  return out;
}

/**
 * Parses an RRULE value (§3.3.10), e.g. `FREQ=WEEKLY;BYDAY=TU;UNTIL=20260324T090000`.
 * @throws RRuleError for a missing/unknown FREQ or malformed parts.
 */
export function parseRRule(raw: string): RecurRule {
  const rule: Partial<RecurRule> & { interval: number; wkst: number } = { interval: 1, wkst: 0 };
  for (const part of raw.trim().split(';')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    if (eq < 0) throw new RRuleError(`malformed RRULE part ${JSON.stringify(part)}`);
    const key = part.slice(0, eq).trim().toUpperCase();
    const v = part.slice(eq + 1).trim();
    switch (key) {
      case 'FREQ': {
        const f = v.toUpperCase();
        if (!['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY', 'HOURLY', 'MINUTELY', 'SECONDLY'].includes(f)) {
          throw new RRuleError(`unknown FREQ ${v}`);
        }
        rule.freq = f as Freq;
        break;
      }
      case 'INTERVAL': {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1) throw new RRuleError(`invalid INTERVAL ${v}`);
        rule.interval = n;
        break;
      }
      case 'COUNT': {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 0) throw new RRuleError(`invalid COUNT ${v}`);
        rule.count = n;
        break;
      }
      case 'UNTIL': {
        const t = parseIcsTime(v);
        if (!t) throw new RRuleError(`invalid UNTIL ${v}`);
        rule.until = t;
        break;
      }
      case 'BYSECOND': rule.bySecond = intList(v, 0, 60, false, 'BYSECOND'); break;
      case 'BYMINUTE': rule.byMinute = intList(v, 0, 59, false, 'BYMINUTE'); break;
      case 'BYHOUR': rule.byHour = intList(v, 0, 23, false, 'BYHOUR'); break;
      case 'BYMONTHDAY': rule.byMonthDay = intList(v, 1, 31, true, 'BYMONTHDAY'); break;
      case 'BYYEARDAY': rule.byYearDay = intList(v, 1, 366, true, 'BYYEARDAY'); break;
      case 'BYWEEKNO': rule.byWeekNo = intList(v, 1, 53, true, 'BYWEEKNO'); break;
      case 'BYMONTH': rule.byMonth = intList(v, 1, 12, false, 'BYMONTH'); break;
      case 'BYSETPOS': rule.bySetPos = intList(v, 1, 366, true, 'BYSETPOS'); break;
      case 'BYDAY': {
        rule.byDay = v.split(',').map((d) => {
          const m = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/i.exec(d.trim());
          if (!m) throw new RRuleError(`invalid BYDAY value ${JSON.stringify(d)}`);
          const ordinal = m[1] ? Number(m[1]) : undefined;
          if (ordinal !== undefined && (ordinal === 0 || Math.abs(ordinal) > 53)) {
            throw new RRuleError(`invalid BYDAY ordinal ${m[1]}`);
          }
          return { weekday: WEEKDAYS[m[2].toUpperCase()], ordinal };
        });
        break;
      }
      case 'WKST': {
        const w = WEEKDAYS[v.toUpperCase()];
        if (w === undefined) throw new RRuleError(`invalid WKST ${v}`);
        rule.wkst = w;
        break;
      }
      default:
        // X- names and unknown parts are ignored (§3.3.10 allows extensions)
        break;
    }
  }
  if (!rule.freq) throw new RRuleError('RRULE without FREQ');
  return rule as RecurRule;
}
