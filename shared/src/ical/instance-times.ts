/**
 * Where one event's instances start and end (RFC 5545 §3.3.10, §3.8.2, §3.8.5; semantics detail
 * 2): the length model of DTEND / DURATION, end instants that follow the wall clock for nominal
 * days, the RRULE's starts near the range and the RDATEs. Instants are UTC ms, walls wall ms
 * (`zone-time.ts`). Steps of `expandBusy` (`calendar.ts`).
 */
import { DAY_MS, instantToWall, wallToInstant, type TimeZone } from '../domain/zone-time.ts';
import { instantOf, zoneFor, type ZoneCtx } from './calendar-zones.ts';
import { expandRRuleWall } from './rrule.ts';
import type { RecurRule } from './values.ts';
import type { ParsedEvent } from './vevent.ts';

/** What the series steps read of an expansion: its zones, the range of interest (UTC ms, half-open) and the per-series instance cap. */
export interface SeriesContext {
  ctx: ZoneCtx;
  /** Range of interest, UTC ms, half-open. */
  rangeStart: number;
  rangeEnd: number;
  maxInstances: number;
}

export interface Instance {
  start: number;
  end: number;
  /** For all-day series: the day number; for timed: undefined. */
  day?: number;
}

/** Length model of a master (detail 2). */
export type Length =
  | { kind: 'exact'; ms: number }
  | { kind: 'nominal'; days: number; ms: number }
  | { kind: 'days'; days: number; ms: number };

/** Length of an event from DTEND or DURATION (detail 2), or null when it has neither. */
export function lengthOf(ctx: ZoneCtx, e: ParsedEvent): Length | null {
  const allDay = e.dtstart.form === 'date';
  if (allDay) {
    if (e.dtend) return { kind: 'days', days: Math.max(0, Math.floor(e.dtend.wall / DAY_MS) - Math.floor(e.dtstart.wall / DAY_MS)), ms: 0 };
    if (e.duration) return { kind: 'days', days: e.duration.days, ms: e.duration.ms };
    return null;
  }
  if (e.dtend) return { kind: 'exact', ms: instantOf(ctx, e.dtend)[0] - instantOf(ctx, e.dtstart)[0] };
  if (e.duration) return { kind: 'nominal', days: e.duration.days, ms: e.duration.ms };
  return null;
}

/** End instant (UTC ms) of an instance starting at `startInstant` with length `len` in `zone` (nominal days follow the wall clock). */
export function endOf(startInstant: number, len: Length, zone: TimeZone, allDay: boolean, startDay?: number): number {
  if (len.kind === 'exact') return startInstant + len.ms;
  if (allDay) {
    const day = startDay ?? Math.floor(instantToWall(zone, startInstant) / DAY_MS);
    return wallToInstant(zone, (day + len.days) * DAY_MS + len.ms);
  }
  const wall = instantToWall(zone, startInstant);
  return wallToInstant(zone, wall + len.days * DAY_MS) + len.ms;
}

/** A series' instance starts by key (instant for timed, day number for all-day): DTSTART, RRULE, RDATE. */
export type Starts = Map<number, { instant: number; wall: number; end?: number }>;

/**
 * The RRULE's instance starts near the range (RFC 5545 §3.3.10; DTSTART counts as the first of a
 * COUNT; UNTIL compared as a date, a wall time or an instant as its form says).
 */
export function ruleWalls(x: SeriesContext, m: ParsedEvent, rrule: RecurRule, zone: TimeZone, allDay: boolean, maxLenMs: number): number[] {
  let rule = rrule;
  if (rule.count !== undefined && rule.count > 0) {
    // RFC 5545: DTSTART always counts as the first occurrence.
    const first = expandRRuleWall({ ...rule, count: 1 }, m.dtstart.wall, {
      fromWall: m.dtstart.wall,
      toWall: m.dtstart.wall + 1,
      maxInstances: x.maxInstances,
    });
    if (first.length === 0) rule = { ...rule, count: rule.count - 1 };
  }
  let withinUntil: ((w: number) => boolean) | undefined;
  const u = rule.until;
  if (u) {
    if (u.form === 'date') withinUntil = (w) => w < u.wall + DAY_MS;
    else if (allDay) withinUntil = (w) => w <= u.wall;
    else {
      const untilInstant = u.form === 'utc' ? u.wall : wallToInstant(zone, u.wall);
      withinUntil = (w) => wallToInstant(zone, w) <= untilInstant;
    }
  }
  return expandRRuleWall(rule, m.dtstart.wall, {
    fromWall: x.rangeStart - maxLenMs - 2 * DAY_MS,
    toWall: x.rangeEnd + 2 * DAY_MS,
    withinUntil,
    maxInstances: x.maxInstances,
  });
}

/** Adds the RDATEs of `m` (§3.8.5.2; a PERIOD keeps its own end) to `add`; returns whether the owner's zone was used. */
export function addRDates(x: SeriesContext, m: ParsedEvent, zone: TimeZone, allDay: boolean, add: (wall: number, instant: number, end?: number) => void): boolean {
  let depends = false;
  for (const rd of m.rdates) {
    let wall: number;
    let instant: number;
    if (allDay || rd.start.form === 'date') {
      wall = rd.start.wall;
      instant = wallToInstant(allDay ? zone : zoneFor(x.ctx, rd.start)[0], wall);
      if (!allDay) {
        // a DATE RDATE on a timed series: that date at DTSTART's time of day
        wall = rd.start.wall + (((m.dtstart.wall % DAY_MS) + DAY_MS) % DAY_MS);
        instant = wallToInstant(zone, wall);
      }
    } else {
      const [rz, dep] = zoneFor(x.ctx, rd.start);
      depends ||= dep;
      instant = rd.start.form === 'utc' ? rd.start.wall : wallToInstant(rz, rd.start.wall);
      wall = instantToWall(zone, instant);
    }
    let end: number | undefined;
    if (rd.end) end = instantOf(x.ctx, rd.end)[0];
    else if (rd.duration) end = endOf(instant, { kind: 'nominal', days: rd.duration.days, ms: rd.duration.ms }, zone, false);
    add(wall, instant, end);
  }
  return depends;
}
