/**
 * Writes an owner's free windows as iCalendar (RFC 5545) for calendar apps to subscribe to:
 *
 * - `freebusy` (default): one VCALENDAR (METHOD:PUBLISH) with one VFREEBUSY (§3.6.4) over the range,
 *   whose FREEBUSY properties (§3.8.2.6, PERIOD values in UTC, §3.3.9) say FBTYPE=FREE for each free
 *   window and FBTYPE=BUSY-UNAVAILABLE for the rest of the range — exactly the public page's answer;
 * - `events`: the free windows as VEVENTs titled "Free" (TRANSP:TRANSPARENT), which Google Calendar
 *   and Apple Calendar subscriptions display (they ignore VFREEBUSY).
 *
 * Refresh hints: REFRESH-INTERVAL;VALUE=DURATION:PT15M (RFC 7986 §5.7) and X-PUBLISHED-TTL:PT15M.
 * Lines end in CRLF and are folded at 75 octets (§3.1). Nothing but times is written: no titles,
 * no attendees, no locations — the windows are all this module receives.
 */

/** A free window `[start, end)` in UTC epoch ms. */
interface Window {
  start: number;
  end: number;
}

export interface FreeBusyInput {
  /** Free windows inside [rangeStart, rangeEnd), sorted and disjoint (the engine's output). */
  windows: readonly Window[];
  /** The published range (UTC epoch ms). */
  rangeStart: number;
  rangeEnd: number;
  /** DTSTAMP (UTC epoch ms). */
  now: number;
  /** Stable id of the feed (e.g. the owner's slug); UIDs are derived from it. */
  feedId: string;
  /** Calendar name (X-WR-CALNAME); the owner's display name. */
  name: string;
  /**
   * The feed's human-readable texts in the reader's language: the calendar's name from the owner's
   * `name`, and the SUMMARY of a free event. Default: English ('{name} — free times', 'Free').
   */
  texts?: { calendarName(name: string): string; free: string };
  format?: 'freebusy' | 'events';
}

/** `YYYYMMDDTHHMMSSZ` (RFC 5545 §3.3.5, form 2: UTC) of an epoch ms instant, to the second. */
function icsUtc(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
}

/** TEXT value escaping (§3.3.11). */
function escapeText(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

/** Folds a content line at 75 octets (UTF-8), continuation lines starting with one space (§3.1). */
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function foldLine(line: string): string {
  const bytes = encoder.encode(line);
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let i = 0;
  let limit = 75;
  while (i < bytes.length) {
    let end = Math.min(bytes.length, i + limit);
    // never split a UTF-8 sequence: back off to a lead byte
    while (end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end--;
    parts.push(decoder.decode(bytes.subarray(i, end)));
    i = end;
    limit = 74; // the leading space counts
  }
  return parts.join('\r\n ');
}

/** The busy rest of the range: the complement of `windows` inside [start, end). */
function complementOf(windows: readonly Window[], start: number, end: number): Window[] {
  const out: Window[] = [];
  let cursor = start;
  for (const w of windows) {
    if (w.start > cursor) out.push({ start: cursor, end: Math.min(w.start, end) });
    cursor = Math.max(cursor, w.end);
  }
  if (cursor < end) out.push({ start: cursor, end });
  return out.filter((w) => w.end > w.start);
}

/** The iCalendar text (see the module comment). */
export function formatFreeBusy(input: FreeBusyInput): string {
  const { windows, rangeStart, rangeEnd, now, feedId, name } = input;
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Avail//Free-busy 1.0//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(input.texts ? input.texts.calendarName(name) : `${name} — free times`)}`,
    'REFRESH-INTERVAL;VALUE=DURATION:PT15M',
    'X-PUBLISHED-TTL:PT15M',
  ];
  if (input.format === 'events') {
    for (const w of windows) {
      lines.push(
        'BEGIN:VEVENT',
        `UID:free-${w.start}-${w.end}@${feedId}.avail`,
        `DTSTAMP:${icsUtc(now)}`,
        `DTSTART:${icsUtc(w.start)}`,
        `DTEND:${icsUtc(w.end)}`,
        `SUMMARY:${escapeText(input.texts?.free ?? 'Free')}`,
        'TRANSP:TRANSPARENT',
        'END:VEVENT',
      );
    }
  } else {
    lines.push('BEGIN:VFREEBUSY', `UID:free-busy@${feedId}.avail`, `DTSTAMP:${icsUtc(now)}`, `DTSTART:${icsUtc(rangeStart)}`, `DTEND:${icsUtc(rangeEnd)}`);
    const periods = [
      ...windows.map((w) => ({ ...w, type: 'FREE' })),
      ...complementOf(windows, rangeStart, rangeEnd).map((w) => ({ ...w, type: 'BUSY-UNAVAILABLE' })),
    ].sort((a, b) => a.start - b.start);
    for (const p of periods) lines.push(`FREEBUSY;FBTYPE=${p.type}:${icsUtc(p.start)}/${icsUtc(p.end)}`);
    lines.push('END:VFREEBUSY');
  }
  lines.push('END:VCALENDAR');
  return lines.map(foldLine).join('\r\n') + '\r\n';
}
