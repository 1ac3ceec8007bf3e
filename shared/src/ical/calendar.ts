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
 *
 * This file is the front door and holds step 2; the parts: `vevent.ts` (step 1, VEVENT
 * extraction), `calendar-zones.ts` (TZID and floating-time zones), `instance-times.ts` (each
 * instance's start and end: lengths, RRULE starts, RDATEs), `rrule.ts` (RRULE expansion).
 */
import { getIanaZone, wallToInstant, DAY_MS } from '../domain/zone-time.ts';
import { floatingZoneOf, instantOf, zoneFor, type ZoneCtx } from './calendar-zones.ts';
import { IcsParseError } from './content-lines.ts';
import { addRDates, endOf, lengthOf, ruleWalls, type Instance, type Length, type SeriesContext, type Starts } from './instance-times.ts';
import { ExpansionLimitError, type OccurrenceBudget } from './rrule.ts';
import type { IcsTime } from './values.ts';
import { parseCalendar, type ParsedCalendar, type ParsedEvent } from './vevent.ts';
import { DEFAULT_BUSY_RULES, type BusyRules } from './busy-rules.ts';

export { IcsParseError, ExpansionLimitError, parseCalendar };
export { resolveTzid } from './calendar-zones.ts';
export type { OccurrenceBudget, ParsedCalendar, ParsedEvent };

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
// Expansion
// ---------------------------------------------------------------------------------------------

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

/** One expansion's inputs and outputs, shared by the steps below (and `instance-times.ts`). */
interface Expansion extends SeriesContext {
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
