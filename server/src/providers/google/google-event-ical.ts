/**
 * Google Calendar event resources → RFC 5545 text, so the shared engine judges them exactly like
 * any other calendar (oauth-provider.ts, availability-semantics.md).
 *
 * Field mapping (https://developers.google.com/calendar/api/v3/reference/events#resource):
 * - UID: the series' iCalUID (else its id). Every VEVENT of one object shares it, so overrides
 *   match their master.
 * - `start`/`end`: `date` → `VALUE=DATE`; `dateTime` + `timeZone` → `TZID=<timeZone>` with the
 *   wall-clock time of that instant in that zone (IANA, or a Windows name the engine maps);
 *   `dateTime` alone → UTC from its offset; no offset and no zone → floating.
 * - `recurrence`: its RRULE / EXRULE / RDATE / EXDATE lines, verbatim (single lines only).
 * - `recurringEventId` + `originalStartTime` → `RECURRENCE-ID` in the same forms as `start`.
 * - `status` → STATUS (CANCELLED / TENTATIVE / CONFIRMED); `transparency: transparent` (and
 *   `eventType: workingLocation`, which only says where the owner works) → `TRANSP:TRANSPARENT`;
 *   `outOfOffice` / `focusTime` follow their own transparency (opaque = busy); the attendee with `self: true` → its own `ATTENDEE;PARTSTAT=…` line
 *   (other attendees are not kept: they do not decide busy time).
 * - `summary` → SUMMARY (owner-only data); `sequence` → SEQUENCE.
 */
import { instantToLocal, isValidIanaZone } from '@avail/shared/domain/zone-time.ts';
import { windowsZoneToIana } from '@avail/shared/ical/windows-zones.ts';

/** Google's EventDateTime (https://developers.google.com/calendar/api/v3/reference/events). */
export interface GoogleDateTime {
  /** All-day: `yyyy-mm-dd`. */
  date?: string;
  /** RFC 3339 with an offset unless `timeZone` is given. */
  dateTime?: string;
  /** IANA name (Google's convention). */
  timeZone?: string;
}

/** The fields of a Google event resource that decide busy time (what the adapter keeps). */
export interface GoogleEvent {
  id: string;
  status?: string;
  summary?: string;
  start?: GoogleDateTime;
  end?: GoogleDateTime;
  recurrence?: string[];
  recurringEventId?: string;
  originalStartTime?: GoogleDateTime;
  transparency?: string;
  /** 'default', 'outOfOffice', 'focusTime', 'workingLocation', 'birthday', 'fromGmail'. */
  eventType?: string;
  iCalUID?: string;
  sequence?: number;
  /** Only the attendee with `self: true` is kept. */
  attendees?: Array<{ email?: string; self?: boolean; responseStatus?: string }>;
}

/** Keeps only the fields {@link seriesToIcs} reads (drops descriptions, other attendees, links …). */
export function compactEvent(raw: Record<string, unknown>): GoogleEvent {
  const e = raw as Partial<GoogleEvent> & { id: string };
  const pickTime = (t: unknown): GoogleDateTime | undefined => {
    if (!t || typeof t !== 'object') return undefined;
    const o = t as GoogleDateTime;
    const out: GoogleDateTime = {};
    if (typeof o.date === 'string') out.date = o.date;
    if (typeof o.dateTime === 'string') out.dateTime = o.dateTime;
    if (typeof o.timeZone === 'string') out.timeZone = o.timeZone;
    return out.date || out.dateTime ? out : undefined;
  };
  const out: GoogleEvent = { id: String(e.id) };
  if (typeof e.status === 'string') out.status = e.status;
  if (typeof e.summary === 'string') out.summary = e.summary;
  const start = pickTime(e.start);
  if (start) out.start = start;
  const end = pickTime(e.end);
  if (end) out.end = end;
  if (Array.isArray(e.recurrence)) out.recurrence = e.recurrence.filter((l): l is string => typeof l === 'string');
  if (typeof e.recurringEventId === 'string') out.recurringEventId = e.recurringEventId;
  const ost = pickTime(e.originalStartTime);
  if (ost) out.originalStartTime = ost;
  if (typeof e.transparency === 'string') out.transparency = e.transparency;
  if (typeof e.eventType === 'string' && e.eventType !== 'default') out.eventType = e.eventType;
  if (typeof e.iCalUID === 'string') out.iCalUID = e.iCalUID;
  if (typeof e.sequence === 'number') out.sequence = e.sequence;
  const self = Array.isArray(e.attendees) ? e.attendees.find((a) => a && a.self === true && typeof a.email === 'string') : undefined;
  if (self) out.attendees = [{ email: self.email, self: true, ...(self.responseStatus ? { responseStatus: self.responseStatus } : {}) }];
  return out;
}

/** The e-mail of the attendee marked `self`, lower-cased, if any. */
export function selfEmailOf(e: GoogleEvent): string | null {
  const a = e.attendees?.find((x) => x.self && x.email);
  return a?.email ? a.email.trim().toLowerCase() : null;
}

function escapeText(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r\n|\r|\n/g, '\\n');
}

/** Folds a content line at 75 octets (RFC 5545 §3.1), never inside a UTF-8 sequence. */
function fold(line: string): string {
  if (Buffer.byteLength(line, 'utf8') <= 75) return line;
  const parts: string[] = [];
  let cur = '';
  let bytes = 0;
  let limit = 75;
  for (const ch of line) {
    const b = Buffer.byteLength(ch, 'utf8');
    if (bytes + b > limit) {
      parts.push(cur);
      cur = '';
      bytes = 0;
      limit = 74; // continuation lines start with a space
    }
    cur += ch;
    bytes += b;
  }
  parts.push(cur);
  return parts.join('\r\n ');
}

/** Safe TZID parameter value (quoted when it holds `:`, `;` or `,`). */
function tzParam(tz: string): string {
  const clean = tz.replace(/["\r\n]/g, '');
  return /[:;,]/.test(clean) ? `"${clean}"` : clean;
}

function pad(n: number, w = 2): string {
  return String(n).padStart(w, '0');
}

function resolveZone(name: string): string | null {
  if (isValidIanaZone(name)) return name;
  return windowsZoneToIana(name);
}

/**
 * One time property (`DTSTART`, `DTEND`, `RECURRENCE-ID`) for a Google EventDateTime, or null when
 * it holds no usable value.
 */
export function timeProperty(name: string, t: GoogleDateTime | undefined): string | null {
  if (!t) return null;
  if (t.date) {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t.date);
    return m ? `${name};VALUE=DATE:${m[1]}${m[2]}${m[3]}` : null;
  }
  if (!t.dateTime) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/i.exec(t.dateTime.trim());
  if (!m) return null;
  const wallText = `${m[1]}${m[2]}${m[3]}T${m[4]}${m[5]}${m[6]}`;
  const hasOffset = m[8] !== undefined;
  const zone = t.timeZone ? resolveZone(t.timeZone) : null;
  if (!hasOffset) {
    // Google always sends an offset unless timeZone is given; then the value is that zone's wall time.
    return t.timeZone ? `${name};TZID=${tzParam(t.timeZone)}:${wallText}` : `${name}:${wallText}`;
  }
  const instant = Date.parse(t.dateTime);
  if (!Number.isFinite(instant)) return null;
  if (t.timeZone && zone) {
    const l = instantToLocal(zone, instant);
    return `${name};TZID=${tzParam(t.timeZone)}:${pad(l.y, 4)}${pad(l.m)}${pad(l.d)}T${pad(l.h)}${pad(l.mi)}${pad(l.s)}`;
  }
  const d = new Date(instant);
  return (
    `${name}:${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`
  );
}

const PARTSTAT: Record<string, string> = {
  needsAction: 'NEEDS-ACTION',
  declined: 'DECLINED',
  tentative: 'TENTATIVE',
  accepted: 'ACCEPTED',
};

function veventLines(e: GoogleEvent, uid: string, asOverride: boolean): string[] | null {
  const lines = ['BEGIN:VEVENT', `UID:${escapeText(uid)}`];
  if (asOverride) {
    const rid = timeProperty('RECURRENCE-ID', e.originalStartTime);
    if (!rid) return null;
    lines.push(rid);
  }
  // A cancelled exception may carry only id, recurringEventId and originalStartTime.
  const dtstart = timeProperty('DTSTART', e.start) ?? (asOverride ? timeProperty('DTSTART', e.originalStartTime) : null);
  if (!dtstart) return null;
  lines.push(dtstart);
  const dtend = e.start ? timeProperty('DTEND', e.end) : null;
  if (dtend) lines.push(dtend);
  if (!asOverride) {
    for (const raw of e.recurrence ?? []) {
      if (/[\r\n]/.test(raw)) continue;
      const line = raw.trim();
      if (/^(RRULE|EXRULE|RDATE|EXDATE)[;:]/i.test(line)) lines.push(line);
    }
  }
  if (e.sequence !== undefined && Number.isInteger(e.sequence)) lines.push(`SEQUENCE:${e.sequence}`);
  const status = e.status === 'cancelled' ? 'CANCELLED' : e.status === 'tentative' ? 'TENTATIVE' : 'CONFIRMED';
  lines.push(`STATUS:${status}`);
  // A working location ("Office today") says where, not that the owner is occupied.
  if (e.transparency === 'transparent' || e.eventType === 'workingLocation') lines.push('TRANSP:TRANSPARENT');
  const email = selfEmailOf(e);
  if (email && !/[\r\n:;"]/.test(email)) {
    const partstat = PARTSTAT[e.attendees?.find((a) => a.self)?.responseStatus ?? ''] ?? 'NEEDS-ACTION';
    lines.push(`ATTENDEE;PARTSTAT=${partstat}:mailto:${email}`);
  }
  if (e.summary) lines.push(`SUMMARY:${escapeText(e.summary)}`);
  lines.push('END:VEVENT');
  return lines;
}

/**
 * One VCALENDAR for a Google series (master + its exception instances) or a single event.
 * `master` null = exceptions whose master this calendar does not show (e.g. an invitation to one
 * instance): they count on their own times. Returns null when nothing is left to store (no
 * master and only cancelled or unreadable exceptions, or an unreadable master).
 */
export function seriesToIcs(master: GoogleEvent | null, overrides: readonly GoogleEvent[]): string | null {
  const uid = master?.iCalUID ?? master?.id ?? overrides.find((o) => o.iCalUID)?.iCalUID ?? overrides[0]?.recurringEventId;
  if (!uid) return null;
  const body: string[] = [];
  if (master) {
    const lines = veventLines(master, uid, false);
    if (!lines) return null;
    body.push(...lines);
  } else if (!overrides.some((o) => o.status !== 'cancelled')) {
    return null;
  }
  const ordered = [...overrides].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const o of ordered) {
    const lines = veventLines(o, uid, true);
    if (lines) body.push(...lines);
  }
  if (body.length === 0) return null;
  const all = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Avail//Google Calendar//EN', 'CALSCALE:GREGORIAN', ...body, 'END:VCALENDAR'];
  return all.map(fold).join('\r\n') + '\r\n';
}
