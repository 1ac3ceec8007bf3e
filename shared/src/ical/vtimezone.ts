/**
 * A `VTIMEZONE` (RFC 5545 §3.6.5) evaluated as a real {@link TimeZone}: every `STANDARD` /
 * `DAYLIGHT` observance contributes onsets (its `DTSTART`, its `RRULE` instances and its `RDATE`s,
 * all local times in the observance's `TZOFFSETFROM`); an onset is the transition instant
 * `onset − TZOFFSETFROM`, after which `TZOFFSETTO` is in force. Before the first transition the
 * earliest observance's `TZOFFSETFROM` applies.
 *
 * Objects are built per parsed calendar and never shared or cached across calendars.
 * Transitions are computed lazily per UTC year and cached inside the object.
 */
import { DAY_MS, fieldsFromWall, wallFromFields, type TimeZone } from '../domain/zone-time.ts';
import { propOf, propsOf, type IcsComponent } from './content-lines.ts';
import { ExpansionLimitError, expandRRuleWall } from './rrule.ts';
import { parseIcsTime, parseRRule, parseUtcOffset, type RecurRule } from './values.ts';

interface Observance {
  kind: 'STANDARD' | 'DAYLIGHT';
  dtstart: number; // wall ms
  from: number; // offset ms
  to: number;
  rrule?: RecurRule;
  rdates: number[]; // wall ms, sorted
}

const YEAR_MS = 366 * DAY_MS;
/** Bounds of one VTIMEZONE (a real zone has a handful of observances and a few hundred RDATEs at most). */
const VTIMEZONE_MAX_OBSERVANCES = 1_000;
const VTIMEZONE_MAX_RDATES = 10_000;
/** Onsets one observance may have in the window a year needs (real zones: 1–2). */
const MAX_ONSETS_PER_WINDOW = 5_000;

/** Thrown when a VTIMEZONE has no usable observance. */
export class VTimezoneError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VTimezoneError';
  }
}

export class VTimezone implements TimeZone {
  private readonly obs: Observance[];
  private readonly years = new Map<number, { at: number[]; to: number[]; before: number }>();

  /**
   * @param name the `TZID`.
   * @param component the `VTIMEZONE` component.
   * @throws VTimezoneError when no observance has a readable DTSTART and offsets, or when it has
   *   more than {@link VTIMEZONE_MAX_OBSERVANCES} observances or {@link VTIMEZONE_MAX_RDATES} RDATEs
   *   (a garbage zone: the caller treats the TZID as unresolvable).
   */
  constructor(public readonly name: string, component: IcsComponent) {
    this.obs = [];
    let rdateCount = 0;
    for (const sub of component.components) {
      if (sub.name !== 'STANDARD' && sub.name !== 'DAYLIGHT') continue;
      if (this.obs.length >= VTIMEZONE_MAX_OBSERVANCES) {
        throw new VTimezoneError(`VTIMEZONE ${name} has more than ${VTIMEZONE_MAX_OBSERVANCES} observances`);
      }
      const ds = propOf(sub, 'DTSTART');
      const from = parseUtcOffset(propOf(sub, 'TZOFFSETFROM')?.value ?? '');
      const to = parseUtcOffset(propOf(sub, 'TZOFFSETTO')?.value ?? '');
      const start = ds ? parseIcsTime(ds.value) : null;
      if (!start || to === null) continue;
      let rrule: RecurRule | undefined;
      const rr = propOf(sub, 'RRULE');
      if (rr) {
        try {
          rrule = parseRRule(rr.value);
        } catch {
          // An unreadable RRULE leaves only this observance's DTSTART onset (and its RDATEs): the
          // zone stays usable near that date, later years may be off by the DST shift, unwarned.
          rrule = undefined;
        }
      }
      const rdates: number[] = [];
      for (const rd of propsOf(sub, 'RDATE')) {
        for (const v of rd.value.split(',')) {
          const t = parseIcsTime(v.split('/')[0]);
          if (t) rdates.push(t.wall);
          if (++rdateCount > VTIMEZONE_MAX_RDATES) {
            throw new VTimezoneError(`VTIMEZONE ${name} has more than ${VTIMEZONE_MAX_RDATES} RDATEs`);
          }
        }
      }
      rdates.sort((a, b) => a - b);
      this.obs.push({ kind: sub.name, dtstart: start.wall, from: from ?? to, to, rrule, rdates });
    }
    if (this.obs.length === 0) throw new VTimezoneError(`VTIMEZONE ${name} has no usable STANDARD/DAYLIGHT`);
  }

  /** Onsets (wall ms) of one observance inside [fromWall, toWall). */
  private onsets(o: Observance, fromWall: number, toWall: number): number[] {
    const out: number[] = [];
    if (o.dtstart >= fromWall && o.dtstart < toWall) out.push(o.dtstart);
    if (o.rrule) {
      let walls: number[];
      try {
        walls = expandRRuleWall(o.rrule, o.dtstart, {
          fromWall,
          toWall,
          maxInstances: MAX_ONSETS_PER_WINDOW,
          withinUntil: this.untilPredicate(o),
        });
      } catch (err) {
        if (err instanceof ExpansionLimitError) {
          throw new VTimezoneError(`time zone ${JSON.stringify(this.name)} defines more transitions than a time zone can have`);
        }
        throw err;
      }
      for (const w of walls) {
        if (w !== o.dtstart) out.push(w);
      }
    }
    for (const r of o.rdates) if (r >= fromWall && r < toWall) out.push(r);
    return out;
  }

  private untilPredicate(o: Observance): ((wall: number) => boolean) | undefined {
    const u = o.rrule?.until;
    if (!u) return undefined;
    if (u.form === 'date') return (w) => w < u.wall + DAY_MS;
    // UTC UNTIL compares with the transition instant; a local one with the onset.
    if (u.form === 'utc') return (w) => w - o.from <= u.wall;
    return (w) => w <= u.wall;
  }

  /** Latest onset (wall ms) of `o` before `limitWall`, or null. */
  private lastOnsetBefore(o: Observance, limitWall: number): number | null {
    if (o.dtstart >= limitWall) return null;
    let best = o.dtstart;
    for (const r of o.rdates) if (r < limitWall && r > best) best = r;
    if (o.rrule) {
      let hi = limitWall;
      const u = o.rrule.until;
      if (u && u.wall + 2 * DAY_MS < hi) hi = u.wall + 2 * DAY_MS;
      const spans = [3 * YEAR_MS, 30 * YEAR_MS];
      for (const span of spans) {
        const lo = Math.max(o.dtstart, hi - span);
        const xs = this.onsets({ ...o, rdates: [] }, lo, hi);
        if (xs.length) {
          const last = xs[xs.length - 1];
          if (last > best) best = last;
          break;
        }
        if (lo <= o.dtstart) break;
      }
    }
    return best;
  }

  private yearData(year: number): { at: number[]; to: number[]; before: number } {
    let yd = this.years.get(year);
    if (yd) return yd;
    const fromWall = wallFromFields({ y: year - 1, m: 12, d: 1 });
    const toWall = wallFromFields({ y: year + 1, m: 2, d: 1 });
    const trans: Array<[number, number]> = [];
    let baseline: [number, number] | null = null; // latest transition before the window
    for (const o of this.obs) {
      for (const w of this.onsets(o, fromWall, toWall)) trans.push([w - o.from, o.to]);
      const lb = this.lastOnsetBefore(o, fromWall);
      if (lb !== null && (baseline === null || lb - o.from > baseline[0])) baseline = [lb - o.from, o.to];
    }
    trans.sort((a, b) => a[0] - b[0]);
    let before: number;
    if (baseline) before = baseline[1];
    else {
      const earliest = [...this.obs].sort((a, b) => a.dtstart - b.dtstart)[0];
      before = earliest.from;
    }
    yd = { at: trans.map((t) => t[0]), to: trans.map((t) => t[1]), before };
    this.years.set(year, yd);
    return yd;
  }

  /** @throws VTimezoneError when an observance's RRULE has more onsets than a zone can have. */
  offsetAt(utcMs: number): number {
    const year = fieldsFromWall(utcMs).y;
    const yd = this.yearData(year);
    // last transition at or before utcMs (binary search: a year can hold many RDATE transitions)
    let lo = 0;
    let hi = yd.at.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (yd.at[mid] <= utcMs) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? yd.before : yd.to[lo - 1];
  }
}
