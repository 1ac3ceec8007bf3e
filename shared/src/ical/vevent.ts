/**
 * VEVENT extraction (RFC 5545 §3.6.1), step 1 of `calendar.ts`: one calendar's ICS text → its
 * events with every time value raw (wall-clock + form + TZID, `values.ts`) and its own
 * `VTIMEZONE` components, zone-independent. Content lines and the component tree are read by
 * `content-lines.ts`; unreadable values are skipped with a warning, never fatal.
 */
import type { TimeZone } from '../domain/zone-time.ts';
import { paramOf, propOf, propsOf, readComponents, unescapeText, type IcsComponent, type IcsProperty } from './content-lines.ts';
import { parseDuration, parseIcsTime, parseRRule, type IcsDuration, type IcsTime, type RecurRule } from './values.ts';

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
