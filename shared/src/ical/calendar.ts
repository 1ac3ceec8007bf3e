/**
 * ICS text → busy intervals, per `shared/spec/availability-semantics.md` (details 1–14).
 *
 * Two steps, so that the server can re-derive owner-zone-dependent intervals from the stored raw
 * ICS text alone when the owner changes zone (detail 14):
 *
 * 1. {@link parseCalendar}(text) — zone-independent: reads the content lines (our own RFC 5545
 *    reader, see `content-lines.ts` for why not node-ical), keeps every time value raw
 *    (wall-clock + form + TZID), and builds this calendar's own `VTIMEZONE`s (scoped to the
 *    returned object, never cached across calendars).
 * 2. {@link expandBusy}(parsed, { ownerZone, … }) — resolves zones, expands recurrences inside
 *    the range, applies RDATE / EXDATE / RECURRENCE-ID, decides busy/free.
 *
 * Re-deriving after an owner-zone change: `expandBusy(parseCalendar(storedRawIcs), { ownerZone:
 * newZone, … })` and replace the stored intervals flagged `dependsOnOwnerZone` (or all of them).
 */
import { DAY_MS, UTC_ZONE, getIanaZone, instantToWall, isValidIanaZone, wallToInstant, type TimeZone } from '../domain/zone-time.ts';
import { IcsParseError, paramOf, propOf, propsOf, readComponents, unescapeText, type IcsComponent, type IcsProperty } from './content-lines.ts';
import { ExpansionLimitError, expandRRuleWall, type OccurrenceBudget } from './rrule.ts';
import { VTimezone } from './vtimezone.ts';
import { parseDuration, parseIcsTime, parseRRule, type IcsDuration, type IcsTime, type RecurRule } from './values.ts';
import { windowsZoneToIana } from './windows-zones.ts';
import { DEFAULT_BUSY_RULES, type BusyRules } from './busy-rules.ts';

export { IcsParseError, ExpansionLimitError };
export type { OccurrenceBudget };

/** An RDATE value: a start, optionally with its own end (`VALUE=PERIOD`). */
interface RDateValue {
  start: IcsTime;
  end?: IcsTime;
  duration?: IcsDuration;
}

/** One VEVENT, values raw. */
export interface ParsedEvent {
  uid: string;
  title: string;
  dtstart: IcsTime;
  dtend?: IcsTime;
  duration?: IcsDuration;
  rrule?: RecurRule;
  rdates: RDateValue[];
  exdates: IcsTime[];
  recurrenceId?: IcsTime;
  /** SEQUENCE (0 when absent): of two overrides of the same instance, the higher one wins. */
  sequence: number;
  /** RECURRENCE-ID;RANGE=THISANDFUTURE (treated as a single-instance override, with a warning). */
  thisAndFuture: boolean;
  status?: string;
  transp?: string;
  busyStatus?: string;
  /** Attendees: lower-cased address without `mailto:`, and upper-cased PARTSTAT. */
  attendees: Array<{ email: string; partstat: string }>;
}

/** Result of {@link parseCalendar}. Independent of any owner zone. */
export interface ParsedCalendar {
  /** `X-WR-TIMEZONE` as written (applies to floating times when it names a known zone). */
  xWrTimezone?: string;
  events: ParsedEvent[];
  /** This calendar's own VTIMEZONEs by TZID (evaluated lazily, scoped to this object). */
  vtimezones: Map<string, IcsComponent>;
  /** Problems found while parsing (skipped events etc.); not fatal. */
  warnings: string[];
  /** @internal per-calendar cache of resolved TZIDs (never shared across calendars). */
  tzCache: Map<string, TimeZone | null>;
}

export interface ExpandOptions {
  /** Owner's IANA zone: floating times without X-WR-TIMEZONE, all-day events, unresolvable TZIDs. */
  ownerZone: string;
  /** Owner addresses (account e-mail, login, calendar-user-address-set); case-insensitive, `mailto:` optional. */
  ownerEmails?: readonly string[];
  /** Range of interest, UTC ms, half-open. */
  rangeStart: number;
  rangeEnd: number;
  /** Hard cap on instances generated per recurring series (default 100 000; a COUNT series is walked from DTSTART up to the range). */
  maxInstances?: number;
  /**
   * Occurrences emitted inside the range (events, busy or not, masters and overrides alike) are
   * taken from this budget, shared across calls (one connection's calendars); exhausting it
   * throws `ExpansionLimitError` with scope `'connection'`. Default: no budget.
   */
  budget?: OccurrenceBudget;
  /** The connection's busy rules (busy-rules.ts); default: the semantics doc's rules (DEFAULT_BUSY_RULES). */
  busyRules?: BusyRules;
}

/** A busy interval: UTC ms, half-open. Carries no title or other event detail. */
export interface BusyInterval {
  start: number;
  end: number;
  /** `true` when the interval was placed using the owner's zone (floating, all-day, unresolved TZID). */
  dependsOnOwnerZone: boolean;
}

/** An event instance for the owner's own dashboard (contains the title: never public). */
export interface EventInstance {
  uid: string;
  title: string;
  start: number;
  end: number;
  allDay: boolean;
  isBusy: boolean;
  /**
   * Where the instance comes from: 'single' (a VEVENT without recurrence), 'recurring' (an
   * instance of an RRULE/RDATE series, RFC 5545 §3.8.5), 'override' (a VEVENT with RECURRENCE-ID
   * that replaces one instance, §3.8.4.4).
   */
  origin: 'single' | 'recurring' | 'override';
}

export interface ExpandResult {
  intervals: BusyInterval[];
  events: EventInstance[];
  warnings: string[];
}

// ---------------------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------------------

function timeOf(p: IcsProperty | undefined): IcsTime | null {
  if (!p) return null;
  return parseIcsTime(p.value, paramOf(p, 'TZID'), paramOf(p, 'VALUE'));
}

function timesOf(props: IcsProperty[], warnings: string[], what: string, uid: string): IcsTime[] {
  const out: IcsTime[] = [];
  for (const p of props) {
    if ((paramOf(p, 'VALUE') ?? '').toUpperCase() === 'PERIOD') {
      warnings.push(`${what} with VALUE=PERIOD is not supported (event ${uid})`);
      continue;
    }
    for (const v of p.value.split(',')) {
      if (!v.trim()) continue;
      const t = parseIcsTime(v, paramOf(p, 'TZID'), paramOf(p, 'VALUE'));
      if (t) out.push(t);
      else warnings.push(`unreadable ${what} value ${JSON.stringify(v)} (event ${uid})`);
    }
  }
  return out;
}

function parseEvent(c: IcsComponent, warnings: string[]): ParsedEvent | null {
  const uid = propOf(c, 'UID')?.value.trim() ?? '';
  const dtstartProp = propOf(c, 'DTSTART');
  const dtstart = timeOf(dtstartProp);
  if (!dtstart) {
    warnings.push(dtstartProp ? `event ${uid || '(no UID)'} has an unreadable DTSTART ${JSON.stringify(dtstartProp.value)}; skipped` : `event ${uid || '(no UID)'} has no DTSTART; skipped`);
    return null;
  }
  const dtendProp = propOf(c, 'DTEND');
  let dtend = timeOf(dtendProp) ?? undefined;
  if (dtendProp && !dtend) warnings.push(`event ${uid} has an unreadable DTEND; treated as absent`);
  let duration: IcsDuration | undefined;
  const durProp = propOf(c, 'DURATION');
  if (!dtend && durProp) {
    duration = parseDuration(durProp.value) ?? undefined;
    if (!duration) warnings.push(`event ${uid} has an unreadable DURATION ${JSON.stringify(durProp.value)}; treated as absent`);
  }
  if (dtend && dtend.form === 'date' && dtstart.form !== 'date') dtend = { ...dtend, form: 'floating' };
  let rrule: RecurRule | undefined;
  const rr = propOf(c, 'RRULE');
  if (rr) {
    try {
      rrule = parseRRule(rr.value);
    } catch (e) {
      warnings.push(`event ${uid}: ${(e as Error).message}; only its first occurrence is used`);
    }
    if (propsOf(c, 'RRULE').length > 1) warnings.push(`event ${uid} has several RRULEs; only the first is used`);
  }
  if (propOf(c, 'EXRULE')) warnings.push(`EXRULE is not supported (event ${uid}); ignored`);
  const rdates: RDateValue[] = [];
  for (const p of propsOf(c, 'RDATE')) {
    const isPeriod = (paramOf(p, 'VALUE') ?? '').toUpperCase() === 'PERIOD';
    for (const v of p.value.split(',')) {
      if (!v.trim()) continue;
      const [a, b] = v.split('/');
      const start = parseIcsTime(a, paramOf(p, 'TZID'), isPeriod ? undefined : paramOf(p, 'VALUE'));
      if (!start) {
        warnings.push(`unreadable RDATE value ${JSON.stringify(v)} (event ${uid})`);
        continue;
      }
      const rd: RDateValue = { start };
      if (isPeriod || b !== undefined) {
        if (b === undefined) {
          warnings.push(`RDATE period without end (event ${uid})`);
        } else if (/^[+-]?P/i.test(b)) {
          rd.duration = parseDuration(b) ?? undefined;
        } else {
          rd.end = parseIcsTime(b, paramOf(p, 'TZID')) ?? undefined;
        }
      }
      rdates.push(rd);
    }
  }
  const exdates = timesOf(propsOf(c, 'EXDATE'), warnings, 'EXDATE', uid);
  const ridProp = propOf(c, 'RECURRENCE-ID');
  const recurrenceId = timeOf(ridProp) ?? undefined;
  if (ridProp && !recurrenceId) warnings.push(`event ${uid} has an unreadable RECURRENCE-ID; treated as a single event`);
  const thisAndFuture = !!ridProp && (paramOf(ridProp, 'RANGE') ?? '').toUpperCase() === 'THISANDFUTURE';
  if (thisAndFuture) warnings.push(`RECURRENCE-ID;RANGE=THISANDFUTURE is not supported (event ${uid}); applied to one instance only`);
  const attendees: ParsedEvent['attendees'] = [];
  for (const a of propsOf(c, 'ATTENDEE')) {
    attendees.push({
      email: a.value.trim().replace(/^mailto:/i, '').toLowerCase(),
      partstat: (paramOf(a, 'PARTSTAT') ?? 'NEEDS-ACTION').toUpperCase(),
    });
  }
  const up = (name: string) => propOf(c, name)?.value.trim().toUpperCase() || undefined;
  return {
    uid,
    title: unescapeText(propOf(c, 'SUMMARY')?.value ?? ''),
    dtstart,
    dtend,
    duration,
    rrule,
    rdates,
    exdates,
    recurrenceId,
    thisAndFuture,
    sequence: Number.parseInt(propOf(c, 'SEQUENCE')?.value ?? '0', 10) || 0,
    status: up('STATUS'),
    transp: up('TRANSP'),
    busyStatus: up('X-MICROSOFT-CDO-BUSYSTATUS'),
    attendees,
  };
}

/**
 * Parses one calendar's ICS text (one connection's calendar; several VCALENDAR blocks in one text
 * are read as one calendar). Only VEVENTs and VTIMEZONEs are used.
 *
 * @throws IcsParseError when the text is not iCalendar or is truncated/unbalanced.
 */
export function parseCalendar(text: string): ParsedCalendar {
  const { roots, skippedLines } = readComponents(text);
  const warnings: string[] = [];
  if (skippedLines) warnings.push(`${skippedLines} unreadable line(s) skipped`);
  const vtimezones = new Map<string, IcsComponent>();
  const eventComps: IcsComponent[] = [];
  let xWrTimezone: string | undefined;
  const visit = (c: IcsComponent) => {
    for (const sub of c.components) {
      if (sub.name === 'VTIMEZONE') {
        const tzid = propOf(sub, 'TZID')?.value.trim();
        if (tzid && !vtimezones.has(tzid)) vtimezones.set(tzid, sub);
      } else if (sub.name === 'VEVENT') {
        eventComps.push(sub);
      }
    }
  };
  for (const root of roots) {
    const wr = propOf(root, 'X-WR-TIMEZONE')?.value.trim();
    if (wr && !xWrTimezone) xWrTimezone = wr;
    visit(root);
  }
  const events: ParsedEvent[] = [];
  for (const c of eventComps) {
    const e = parseEvent(c, warnings);
    if (e) events.push(e);
  }
  return { xWrTimezone, events, vtimezones, warnings, tzCache: new Map() };
}

// ---------------------------------------------------------------------------------------------
// Zones
// ---------------------------------------------------------------------------------------------

/**
 * Resolves a TZID within one calendar (semantics detail 5): IANA name → the calendar's own
 * VTIMEZONE of that name → Windows zone name (CLDR windowsZones) → the IANA name inside a
 * globally-unique TZID such as `/mozilla.org/20050126_1/Europe/Brussels`. `null` when nothing
 * matches (the caller then uses the owner's zone and warns).
 */
export function resolveTzid(cal: ParsedCalendar, tzid: string): TimeZone | null {
  if (cal.tzCache.has(tzid)) return cal.tzCache.get(tzid)!;
  let zone: TimeZone | null = null;
  const name = tzid.trim();
  if (isValidIanaZone(name)) zone = getIanaZone(name);
  if (!zone) {
    const comp = cal.vtimezones.get(tzid) ?? cal.vtimezones.get(name);
    if (comp) {
      try {
        zone = new VTimezone(name, comp);
      } catch {
        zone = null; // a garbage VTIMEZONE: the fallbacks below, then the owner's zone with a warning
      }
    }
  }
  if (!zone) {
    const iana = windowsZoneToIana(name);
    if (iana) zone = getIanaZone(iana);
  }
  if (!zone && name.includes('/')) {
    const parts = name.split('/').filter(Boolean);
    for (let i = 1; i < parts.length && !zone; i++) {
      const cand = parts.slice(i).join('/');
      if (isValidIanaZone(cand) && cand.includes('/')) zone = getIanaZone(cand);
    }
  }
  cal.tzCache.set(tzid, zone);
  return zone;
}

interface ZoneCtx {
  cal: ParsedCalendar;
  owner: TimeZone;
  floating: TimeZone;
  floatingIsOwner: boolean;
  warnings: Set<string>;
}

/** Zone of a time value, and whether the owner's zone was used for it. */
function zoneFor(ctx: ZoneCtx, t: IcsTime): [TimeZone, boolean] {
  switch (t.form) {
    case 'utc':
      return [UTC_ZONE, false];
    case 'date':
      return [ctx.owner, true];
    case 'floating':
      return [ctx.floating, ctx.floatingIsOwner];
    case 'zoned': {
      const z = resolveTzid(ctx.cal, t.tzid!);
      if (z) return [z, false];
      ctx.warnings.add(`unresolvable TZID ${JSON.stringify(t.tzid)}: read in the owner's zone ${ctx.owner.name}`);
      return [ctx.owner, true];
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Expansion
// ---------------------------------------------------------------------------------------------

interface Instance {
  start: number;
  end: number;
  /** For all-day series: the day number; for timed: undefined. */
  day?: number;
}

/** Length model of a master (detail 2). */
type Length =
  | { kind: 'exact'; ms: number }
  | { kind: 'nominal'; days: number; ms: number }
  | { kind: 'days'; days: number; ms: number };

/**
 * Whether an event instance is busy: the semantics doc's rules (cancelled, transparent, Outlook
 * FREE, declined by the owner → free), then the connection's busy rules (busy-rules.ts): all-day,
 * tentative and unanswered events may be made free, and so may titles containing a free keyword
 * (`keywords`: lower-cased).
 */
function isBusy(e: ParsedEvent, owners: Set<string>, allDay: boolean, rules: BusyRules, keywords: readonly string[]): boolean {
  if (e.status === 'CANCELLED') return false;
  if (e.transp === 'TRANSPARENT') return false;
  if (e.busyStatus === 'FREE') return false;
  let own: string | undefined;
  for (const a of e.attendees) {
    if (!owners.has(a.email)) continue;
    if (a.partstat === 'DECLINED') return false;
    own ??= a.partstat;
  }
  if (allDay && rules.all_day === 'free') return false;
  if (rules.tentative === 'free' && (own === 'TENTATIVE' || e.status === 'TENTATIVE' || e.busyStatus === 'TENTATIVE')) return false;
  if (rules.unanswered === 'free' && own === 'NEEDS-ACTION') return false;
  if (keywords.length) {
    const title = e.title.toLowerCase();
    for (const k of keywords) if (title.includes(k)) return false;
  }
  return true;
}

/**
 * Expands a parsed calendar into busy intervals and dashboard events within
 * `[rangeStart, rangeEnd)` (intervals/events that overlap it; not clipped).
 *
 * - Times: DATE-TIME with TZID in that zone (see {@link resolveTzid}); UTC as is; floating in
 *   X-WR-TIMEZONE when it names a known zone, else the owner's zone; DATE (all-day) in the
 *   owner's zone, `[start 00:00, end 00:00)`, missing DTEND = one day. Gaps/overlaps: RFC 5545
 *   §3.3.5 (gap → forward, overlap → first occurrence).
 * - Recurrence: RRULE in the event's zone, RDATE, EXDATE and RECURRENCE-ID matched by instant (by
 *   date for all-day series); overrides replace their instance and keep the master's length when
 *   they have no DTEND/DURATION; orphan overrides count on their own times.
 * - Busy unless STATUS:CANCELLED, TRANSP:TRANSPARENT, X-MICROSOFT-CDO-BUSYSTATUS:FREE, or declined
 *   by an owner address, or made free by `opts.busyRules` (all-day, tentative, unanswered, free
 *   keywords; busy-rules.ts). Zero-length instances never produce an interval.
 *
 * @throws ExpansionLimitError when a series needs more than `maxInstances` instances, or the
 *   shared `budget` of occurrences is exhausted (scope `'connection'`).
 * @throws VTimezoneError when a calendar's own VTIMEZONE that is needed cannot be evaluated
 *   (e.g. an observance whose RRULE has more onsets than a zone can have).
 */
export function expandBusy(cal: ParsedCalendar, opts: ExpandOptions): ExpandResult {
  const owner = getIanaZone(opts.ownerZone);
  const warnings = new Set<string>(cal.warnings);
  const ctx: ZoneCtx = { cal, owner, floating: owner, floatingIsOwner: true, warnings };
  const floating = floatingZoneOf(cal, warnings);
  if (floating) {
    ctx.floating = floating;
    ctx.floatingIsOwner = false;
  }
  const rules = opts.busyRules ?? DEFAULT_BUSY_RULES;
  const x: Expansion = {
    ctx,
    rangeStart: opts.rangeStart,
    rangeEnd: opts.rangeEnd,
    maxInstances: opts.maxInstances ?? 100_000,
    budget: opts.budget,
    owners: new Set((opts.ownerEmails ?? []).map((e) => e.trim().replace(/^mailto:/i, '').toLowerCase())),
    rules,
    keywords: rules.free_keywords.map((k) => k.trim().toLowerCase()).filter((k) => k !== ''),
    intervals: [],
    events: [],
    masterLength: new Map(),
  };

  const masters = new Map<string, ParsedEvent[]>();
  const allOverrides: ParsedEvent[] = [];
  for (const e of cal.events) {
    if (e.recurrenceId) allOverrides.push(e);
    else {
      const list = masters.get(e.uid);
      if (list) list.push(e);
      else masters.set(e.uid, [e]);
    }
  }
  const overrides = latestOverrides(x, allOverrides);
  const overridesByUid = new Map<string, ParsedEvent[]>();
  for (const o of overrides) {
    const list = overridesByUid.get(o.uid);
    if (list) list.push(o);
    else overridesByUid.set(o.uid, [o]);
  }

  for (const [, list] of masters) for (const m of list) expandMaster(x, m, overridesByUid.get(m.uid) ?? []);
  for (const o of overrides) expandOverride(x, o, masters.get(o.uid)?.[0]);

  x.intervals.sort((a, b) => a.start - b.start || a.end - b.end);
  x.events.sort((a, b) => a.start - b.start || a.end - b.end);
  return { intervals: x.intervals, events: x.events, warnings: [...warnings] };
}

/** One expansion's inputs and outputs, shared by the steps below. */
interface Expansion {
  ctx: ZoneCtx;
  /** Range of interest, UTC ms, half-open. */
  rangeStart: number;
  rangeEnd: number;
  maxInstances: number;
  budget: OccurrenceBudget | undefined;
  /** Owner addresses, lower-cased, without `mailto:`. */
  owners: Set<string>;
  rules: BusyRules;
  /** The busy rules' free keywords, lower-cased. */
  keywords: readonly string[];
  intervals: BusyInterval[];
  events: EventInstance[];
  /** Each expanded master's length, for overrides without their own DTEND/DURATION. */
  masterLength: Map<ParsedEvent, Length>;
}

/**
 * The zone of floating times from X-WR-TIMEZONE (an IANA name, or a Windows name mapped to one),
 * or null (the owner's zone) when absent or unknown — the latter with a warning.
 */
function floatingZoneOf(cal: ParsedCalendar, warnings: Set<string>): TimeZone | null {
  if (!cal.xWrTimezone) return null;
  if (isValidIanaZone(cal.xWrTimezone)) return getIanaZone(cal.xWrTimezone);
  const mapped = windowsZoneToIana(cal.xWrTimezone);
  if (mapped) return getIanaZone(mapped);
  warnings.add(`X-WR-TIMEZONE ${JSON.stringify(cal.xWrTimezone)} is not a known zone; floating times use the owner's zone`);
  return null;
}

/** Instant (UTC ms) of a timed value, and whether the owner's zone was used for it. */
function instantOf(ctx: ZoneCtx, t: IcsTime): [number, boolean] {
  const [z, dep] = zoneFor(ctx, t);
  return [t.form === 'utc' ? t.wall : wallToInstant(z, t.wall), dep];
}

/**
 * Several overrides of one instance (stale copies left by some servers): the highest SEQUENCE
 * wins; equal SEQUENCEs are all kept (busy time is a union anyway).
 */
function latestOverrides(x: Expansion, overrides: ParsedEvent[]): ParsedEvent[] {
  const best = new Map<string, number>();
  const keyOf = (o: ParsedEvent) => {
    const r = o.recurrenceId!;
    return `${o.uid}\u0000${r.form === 'date' ? `d${Math.floor(r.wall / DAY_MS)}` : instantOf(x.ctx, r)[0]}`;
  };
  for (const o of overrides) {
    const k = keyOf(o);
    best.set(k, Math.max(best.get(k) ?? -Infinity, o.sequence));
  }
  return overrides.filter((o) => o.sequence === best.get(keyOf(o)));
}

/** Records an instance that overlaps the range (zero-length: starts in it) as an event, and as a busy interval when busy. */
function emit(x: Expansion, e: ParsedEvent, inst: Instance, allDay: boolean, dependsOnOwnerZone: boolean, origin: EventInstance['origin']): void {
  const zeroLen = inst.end <= inst.start;
  const inRange = zeroLen
    ? inst.start >= x.rangeStart && inst.start < x.rangeEnd
    : inst.start < x.rangeEnd && inst.end > x.rangeStart;
  if (!inRange) return;
  if (x.budget && --x.budget.remaining < 0) throw new ExpansionLimitError(x.budget.limit, '', 'connection');
  const busy = isBusy(e, x.owners, allDay, x.rules, x.keywords);
  x.events.push({ uid: e.uid, title: e.title, start: inst.start, end: Math.max(inst.end, inst.start), allDay, isBusy: busy, origin });
  if (busy && !zeroLen) x.intervals.push({ start: inst.start, end: inst.end, dependsOnOwnerZone });
}

/** Length of an event from DTEND or DURATION (detail 2), or null when it has neither. */
function lengthOf(ctx: ZoneCtx, e: ParsedEvent): Length | null {
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
function endOf(startInstant: number, len: Length, zone: TimeZone, allDay: boolean, startDay?: number): number {
  if (len.kind === 'exact') return startInstant + len.ms;
  if (allDay) {
    const day = startDay ?? Math.floor(instantToWall(zone, startInstant) / DAY_MS);
    return wallToInstant(zone, (day + len.days) * DAY_MS + len.ms);
  }
  const wall = instantToWall(zone, startInstant);
  return wallToInstant(zone, wall + len.days * DAY_MS) + len.ms;
}

/** A series' instance starts by key (instant for timed, day number for all-day): DTSTART, RRULE, RDATE. */
type Starts = Map<number, { instant: number; wall: number; end?: number }>;

/**
 * The RRULE's instance starts near the range (RFC 5545 §3.3.10; DTSTART counts as the first of a
 * COUNT; UNTIL compared as a date, a wall time or an instant as its form says).
 */
function ruleWalls(x: Expansion, m: ParsedEvent, rrule: RecurRule, zone: TimeZone, allDay: boolean, maxLenMs: number): number[] {
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
function addRDates(x: Expansion, m: ParsedEvent, zone: TimeZone, allDay: boolean, add: (wall: number, instant: number, end?: number) => void): boolean {
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

/**
 * Emits the instances of a master (a VEVENT without RECURRENCE-ID): DTSTART, RRULE and RDATE
 * instances, less those removed by EXDATE or replaced by an override of `ovs` (detail 3).
 */
function expandMaster(x: Expansion, m: ParsedEvent, ovs: ParsedEvent[]): void {
  const allDay = m.dtstart.form === 'date';
  const [zone, depStart] = zoneFor(x.ctx, m.dtstart);
  let depends = depStart;
  const len: Length = lengthOf(x.ctx, m) ?? (allDay ? { kind: 'days', days: 1, ms: 0 } : { kind: 'exact', ms: 0 });
  if (m.dtend) depends ||= zoneFor(x.ctx, m.dtend)[1];
  x.masterLength.set(m, len);
  const dtstartInstant = allDay ? wallToInstant(zone, m.dtstart.wall) : instantOf(x.ctx, m.dtstart)[0];

  // Instance keys: instant (timed) or day number (all-day).
  const starts: Starts = new Map();
  const add = (wall: number, instant: number, end?: number) => {
    const key = allDay ? Math.floor(wall / DAY_MS) : instant;
    if (!starts.has(key)) starts.set(key, { instant, wall, end });
  };
  add(m.dtstart.wall, dtstartInstant);
  const maxLenMs = len.kind === 'exact' ? Math.max(0, len.ms) : (Math.max(0, len.days) + 1) * DAY_MS + Math.max(0, len.ms);
  if (m.rrule) for (const w of ruleWalls(x, m, m.rrule, zone, allDay, maxLenMs)) add(w, wallToInstant(zone, w));
  depends = addRDates(x, m, zone, allDay, add) || depends;

  // EXDATE and overrides remove instances (detail 3).
  const removedKeys = new Set<number>();
  const removedDays = new Set<number>(); // DATE values on a timed series: by local date
  const removeBy = (t: IcsTime) => {
    if (allDay) removedKeys.add(Math.floor(t.wall / DAY_MS));
    else if (t.form === 'date') removedDays.add(Math.floor(t.wall / DAY_MS));
    else {
      const [i, dep] = instantOf(x.ctx, t);
      depends ||= dep;
      removedKeys.add(i);
    }
  };
  for (const ex of m.exdates) removeBy(ex);
  for (const o of ovs) removeBy(o.recurrenceId!);

  const origin = m.rrule || m.rdates.length ? 'recurring' : 'single';
  for (const [key, s] of starts) {
    if (removedKeys.has(key)) continue;
    if (!allDay && removedDays.size && removedDays.has(Math.floor(s.wall / DAY_MS))) continue;
    const day = allDay ? Math.floor(s.wall / DAY_MS) : undefined;
    const start = allDay ? wallToInstant(zone, day! * DAY_MS) : s.instant;
    const end = s.end ?? endOf(start, len, zone, allDay, day);
    emit(x, m, { start, end, day }, allDay, depends, origin);
  }
}

/**
 * Emits an override (a VEVENT with RECURRENCE-ID) on its own times (details 3, 12); without its
 * own DTEND/DURATION it keeps `master`'s length. Runs after every master was expanded.
 */
function expandOverride(x: Expansion, o: ParsedEvent, master: ParsedEvent | undefined): void {
  const allDay = o.dtstart.form === 'date';
  const [zone, depStart] = zoneFor(x.ctx, o.dtstart);
  let depends = depStart;
  if (master) {
    // the override removed an instance of a series placed in its zone
    depends ||= zoneFor(x.ctx, master.dtstart)[1] || zoneFor(x.ctx, o.recurrenceId!)[1];
  }
  let len = lengthOf(x.ctx, o);
  if (!len) {
    const ml = master ? x.masterLength.get(master) : undefined;
    if (ml && !(allDay && ml.kind === 'exact')) len = ml;
    else len = allDay ? { kind: 'days', days: 1, ms: 0 } : { kind: 'exact', ms: 0 };
  }
  if (o.dtend) depends ||= zoneFor(x.ctx, o.dtend)[1];
  if (allDay) {
    const day = Math.floor(o.dtstart.wall / DAY_MS);
    const start = wallToInstant(zone, day * DAY_MS);
    emit(x, o, { start, end: endOf(start, len, zone, true, day), day }, true, depends, 'override');
  } else {
    const start = instantOf(x.ctx, o.dtstart)[0];
    emit(x, o, { start, end: endOf(start, len, zone, false) }, false, depends, 'override');
  }
}

/**
 * `expandBusy(parseCalendar(text), opts)`: what a sync (or a re-derivation after the owner changes
 * zone) does with one calendar's stored raw ICS text.
 * @throws IcsParseError for unreadable text; ExpansionLimitError past the instance cap.
 */
export function icsToBusy(text: string, opts: ExpandOptions): ExpandResult {
  return expandBusy(parseCalendar(text), opts);
}
