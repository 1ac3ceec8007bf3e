/**
 * Microsoft Graph event instance → one RFC 5545 VCALENDAR holding one VEVENT.
 *
 * The Microsoft adapter reads `calendarView/delta`, which returns EXPANDED instances (single
 * instances, occurrences and exceptions of a series; never the series master —
 * https://learn.microsoft.com/graph/delta-query-events). Each instance is therefore stored as its
 * own source object: UID = the instance's Graph `id` (not `iCalUId`, and no RECURRENCE-ID), so
 * the shared engine never merges instances as overrides of one another and never expands
 * anything — recurrence has already been applied by Exchange.
 *
 * Field mapping (availability-semantics.md "Busy events", details 7 and 13;
 * https://learn.microsoft.com/graph/api/resources/event):
 * - start/end: requested with `Prefer: outlook.timezone="UTC"`, so `timeZone` is `UTC` and the
 *   value is written `…Z` (exact). Any other `timeZone` (the Prefer header ignored) is written as
 *   `TZID=<name>` — the engine resolves IANA and Windows names.
 * - isAllDay: Graph returns all-day events midnight-to-midnight whatever the Prefer zone (a
 *   documented behaviour confirmed by Microsoft in microsoftgraph/microsoft-graph-docs#1802), so
 *   the DATE part is the event's date: written `VALUE=DATE`, and the engine places it from 00:00
 *   to 00:00 in the OWNER's zone, as the semantics doc requires for all-day events. Should a
 *   non-midnight time ever arrive (a zone-shifted midnight), the value is rounded to the nearest
 *   date, which is right for any offset under 12 h.
 * - showAs: `free` → TRANSP:TRANSPARENT + X-MICROSOFT-CDO-BUSYSTATUS:FREE (not busy);
 *   `tentative`, `busy`, `oof`, `workingElsewhere` → TRANSP:OPAQUE + the matching BUSYSTATUS
 *   (busy); `unknown`/absent → TRANSP:OPAQUE without BUSYSTATUS (RFC default: busy).
 * - isCancelled → STATUS:CANCELLED (not busy).
 * - responseStatus.response is the OWNER's own answer (Graph's "self"); it becomes the owner's
 *   ATTENDEE line (`declined` → PARTSTAT=DECLINED → not busy; accepted / tentativelyAccepted /
 *   notResponded → busy). `none` and `organizer` add no ATTENDEE.
 * - subject → SUMMARY (owner-only data; never logged, never public).
 */

/** Graph `dateTimeTimeZone` (https://learn.microsoft.com/graph/api/resources/datetimetimezone). */
interface GraphDateTimeTimeZone {
  /** Local wall-clock `YYYY-MM-DDTHH:MM:SS[.fffffff]` (no offset). */
  dateTime: string;
  /** `UTC`, a Windows zone name or an IANA name. */
  timeZone?: string;
}

/** The event fields the adapter reads (a delta item; `@removed` items carry only `id`). */
export interface GraphEvent {
  id: string;
  '@removed'?: { reason?: string };
  '@odata.etag'?: string;
  changeKey?: string;
  iCalUId?: string;
  seriesMasterId?: string | null;
  type?: 'singleInstance' | 'occurrence' | 'exception' | 'seriesMaster' | string;
  subject?: string | null;
  start?: GraphDateTimeTimeZone | null;
  end?: GraphDateTimeTimeZone | null;
  isAllDay?: boolean;
  showAs?: 'free' | 'tentative' | 'busy' | 'oof' | 'workingElsewhere' | 'unknown' | string;
  isCancelled?: boolean;
  responseStatus?: { response?: string; time?: string } | null;
  lastModifiedDateTime?: string;
}

const DAY_MS = 86_400_000;

const BUSY_STATUS: Record<string, string> = {
  free: 'FREE',
  tentative: 'TENTATIVE',
  busy: 'BUSY',
  oof: 'OOF',
  workingelsewhere: 'WORKINGELSEWHERE',
};

const PARTSTAT: Record<string, string> = {
  declined: 'DECLINED',
  accepted: 'ACCEPTED',
  tentativelyaccepted: 'TENTATIVE',
  notresponded: 'NEEDS-ACTION',
};

const UTC_NAMES = new Set(['utc', 'etc/utc', 'coordinated universal time', 'tzone://microsoft/utc', 'gmt', 'etc/gmt', 'z']);

/** RFC 5545 §3.3.11 TEXT escaping. */
function escapeText(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r\n|\r|\n/g, '\\n');
}

/** Folds a content line at 75 octets (RFC 5545 §3.1), never inside a UTF-8 sequence. */
function fold(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const n = Buffer.byteLength(ch, 'utf8');
    const limit = parts.length === 0 ? 75 : 74; // continuation lines start with one space
    if (octets + n > limit) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += ch;
    octets += n;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

/** A parameter value, quoted when it holds `:`, `;` or `,` (RFC 5545 §3.2). */
function paramValue(v: string): string {
  const clean = v.replace(/"/g, '');
  return /[:;,]/.test(clean) ? `"${clean}"` : clean;
}

const DT_RE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

interface Wall {
  y: string;
  mo: string;
  d: string;
  h: string;
  mi: string;
  s: string;
  offset?: string;
}

function parseWall(v: string | undefined): Wall | null {
  const m = DT_RE.exec((v ?? '').trim());
  if (!m) return null;
  return { y: m[1]!, mo: m[2]!, d: m[3]!, h: m[4] ?? '00', mi: m[5] ?? '00', s: m[6] ?? '00', offset: m[7] };
}

const basic = (w: Wall) => `${w.y}${w.mo}${w.d}T${w.h}${w.mi}${w.s}`;

/** Epoch ms of a wall value read as UTC (with its own offset, if any). */
function wallAsUtcMs(w: Wall): number {
  let ms = Date.UTC(+w.y, +w.mo - 1, +w.d, +w.h, +w.mi, +w.s);
  if (w.offset && w.offset !== 'Z') {
    const sign = w.offset.startsWith('-') ? -1 : 1;
    const digits = w.offset.replace(/[^0-9]/g, '');
    ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4))) * 60_000;
  }
  return ms;
}

function dateOfMs(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10).replace(/-/g, '');
}

/** The all-day date of a Graph midnight value: its date part, rounded to the nearest date if the time is not 00:00. */
function allDayDate(w: Wall): { date: string; ms: number } {
  const ms = Date.UTC(+w.y, +w.mo - 1, +w.d, +w.h, +w.mi, +w.s);
  const day = Math.round(ms / DAY_MS) * DAY_MS;
  return { date: dateOfMs(day), ms: day };
}

/** `DTSTART…` / `DTEND…` property text of a timed value. */
function timedProp(name: string, v: GraphDateTimeTimeZone, w: Wall): string {
  if (w.offset) return `${name}:${dateTimeUtc(wallAsUtcMs(w))}`;
  const zone = (v.timeZone ?? 'UTC').trim();
  if (!zone || UTC_NAMES.has(zone.toLowerCase())) return `${name}:${basic(w)}Z`;
  return `${name};TZID=${paramValue(zone)}:${basic(w)}`;
}

function dateTimeUtc(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

/**
 * Converts one Graph event instance to iCalendar text (CRLF lines, folded).
 *
 * @param ev a delta item that is not `@removed` (single instance, occurrence or exception).
 * @param opts.ownerEmail the account's e-mail, written as the owner's ATTENDEE address so the
 *   engine (given the same address in `ownerEmails`) applies Graph's `responseStatus`.
 * @returns the VCALENDAR text, or null when the item cannot be an instance (a series master,
 *   which calendarView never returns, or an item without readable start).
 */
export function graphEventToIcs(ev: GraphEvent, opts: { ownerEmail: string }): string | null {
  if (ev.type === 'seriesMaster') return null;
  const sw = parseWall(ev.start?.dateTime);
  if (!ev.start || !sw) return null;
  const ew = ev.end ? parseWall(ev.end.dateTime) : null;

  const lines: string[] = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Avail//Microsoft Graph//EN', 'CALSCALE:GREGORIAN', 'BEGIN:VEVENT'];
  lines.push(`UID:${escapeText(ev.id)}`);
  const stamp = ev.lastModifiedDateTime ? Date.parse(ev.lastModifiedDateTime) : NaN;
  lines.push(`DTSTAMP:${Number.isFinite(stamp) ? dateTimeUtc(stamp) : '19700101T000000Z'}`);

  if (ev.isAllDay) {
    const start = allDayDate(sw);
    let end = ew ? allDayDate(ew) : null;
    if (!end || end.ms <= start.ms) end = { date: dateOfMs(start.ms + DAY_MS), ms: start.ms + DAY_MS };
    lines.push(`DTSTART;VALUE=DATE:${start.date}`, `DTEND;VALUE=DATE:${end.date}`);
  } else {
    lines.push(timedProp('DTSTART', ev.start, sw));
    // No end → zero-length (RFC 5545 §3.6.1): blocks nothing, which is what Graph would mean.
    if (ev.end && ew) lines.push(timedProp('DTEND', ev.end, ew));
  }

  if (ev.subject) lines.push(`SUMMARY:${escapeText(ev.subject)}`);
  if (ev.isCancelled) lines.push('STATUS:CANCELLED');
  const showAs = (ev.showAs ?? '').toLowerCase();
  lines.push(`TRANSP:${showAs === 'free' ? 'TRANSPARENT' : 'OPAQUE'}`);
  const busyStatus = BUSY_STATUS[showAs];
  if (busyStatus) lines.push(`X-MICROSOFT-CDO-BUSYSTATUS:${busyStatus}`);
  const partstat = PARTSTAT[(ev.responseStatus?.response ?? '').toLowerCase()];
  if (partstat && opts.ownerEmail) lines.push(`ATTENDEE;PARTSTAT=${partstat}:mailto:${opts.ownerEmail}`);
  if (ev.seriesMasterId) lines.push(`X-AVAIL-GRAPH-SERIES-ID:${escapeText(ev.seriesMasterId)}`);
  if (ev.type) lines.push(`X-AVAIL-GRAPH-TYPE:${escapeText(ev.type)}`);
  lines.push('END:VEVENT', 'END:VCALENDAR');
  return lines.map(fold).join('\r\n') + '\r\n';
}
