/** Shared test data and helpers: the ICS feed, captured mail, unique accounts. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const OWNER_ZONE = 'Europe/Brussels';
export const SECRET_TITLE = 'Secret Board Meeting';

function pad(n: number) {
  return String(n).padStart(2, '0');
}

/** Today's date in a zone as 'YYYY-MM-DD'. */
export function todayIn(zone: string, now = Date.now()): string {
  const p = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(now));
  return p;
}

/** Wednesday of next week (Monday-first weeks) in the zone. */
export function nextWeekWednesday(zone: string): string {
  const [y, m, d] = todayIn(zone).split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d));
  const mondayOffset = (t.getUTCDay() + 6) % 7;
  t.setUTCDate(t.getUTCDate() - mondayOffset + 7 + 2);
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

/** Monday of next week (Monday-first weeks) in the zone. */
export function nextWeekMonday(zone: string): string {
  const [y, m, d] = nextWeekWednesday(zone).split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d - 2));
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

/** 'YYYY-MM-DDTHH:MM:00+01:00': a wall time on `date` in `zone` with the zone's UTC offset then (RFC 3339). */
export function zonedDateTime(date: string, hhmm: string, zone: string): string {
  const [y, m, d] = date.split('-').map(Number);
  const [hh, mm] = hhmm.split(':').map(Number);
  // The offset at (roughly) that instant; fine away from a DST switch hour.
  const guess = new Date(Date.UTC(y, m - 1, d, hh, mm));
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(guess).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const off = name === 'GMT' ? '+00:00' : name.replace('GMT', '');
  return `${date}T${pad(hh)}:${pad(mm)}:00${off}`;
}

/** An ICS feed with one busy event on `date` 11:00–12:00 Europe/Brussels, with a guest and details. */
export function buildIcsFeed(date: string): string {
  const d = date.replace(/-/g, '');
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Avail e2e//EN',
    'CALSCALE:GREGORIAN',
    'BEGIN:VTIMEZONE',
    'TZID:Europe/Brussels',
    'BEGIN:DAYLIGHT',
    'TZOFFSETFROM:+0100',
    'TZOFFSETTO:+0200',
    'TZNAME:CEST',
    'DTSTART:19700329T020000',
    'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
    'END:DAYLIGHT',
    'BEGIN:STANDARD',
    'TZOFFSETFROM:+0200',
    'TZOFFSETTO:+0100',
    'TZNAME:CET',
    'DTSTART:19701025T030000',
    'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
    'END:STANDARD',
    'END:VTIMEZONE',
    'BEGIN:VEVENT',
    'UID:secret-board-meeting@avail.e2e',
    `DTSTAMP:${stamp}`,
    `DTSTART;TZID=Europe/Brussels:${d}T110000`,
    `DTEND;TZID=Europe/Brussels:${d}T120000`,
    `SUMMARY:${SECRET_TITLE}`,
    'DESCRIPTION:Acquisition of Initech - confidential',
    'LOCATION:Boardroom 7',
    'ATTENDEE;CN=Guest Person:mailto:guest.person@example.com',
    'TRANSP:OPAQUE',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

/** Waits for a captured mail to `to` and returns its 6-digit verification code. */
export async function waitForVerificationCode(to: string, timeoutMs = 20_000): Promise<string> {
  const dir = process.env.E2E_MAIL_DIR;
  if (!dir) throw new Error('E2E_MAIL_DIR not set (global setup did not run)');
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    const files = readdirSync(dir).sort().reverse();
    for (const f of files) {
      const raw = readFileSync(path.join(dir, f), 'utf8');
      if (!raw.toLowerCase().includes(to.toLowerCase())) continue;
      const m = /verification code:\s*(\d{6})/i.exec(raw) ?? /\b(\d{6})\b/.exec(raw);
      if (m) return m[1];
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`No verification mail for ${to} within ${timeoutMs} ms`);
}

let n = 0;
/**
 * A unique e-mail and username for this run: the clock, a counter and random digits, so two
 * Playwright workers (separate processes, each counting from 0) never pick the same one.
 */
export function uniqueAccount(prefix = 'owner') {
  const random = Math.floor(Math.random() * 36 ** 3).toString(36).padStart(3, '0');
  const id = `${Date.now().toString(36).slice(-4)}${(n++ % 36).toString(36)}${random}`;
  return { email: `${prefix}.${id}@example.com`, username: `${prefix.slice(0, 4)}-${id}`.slice(0, 15), name: 'Olivia Owner' };
}

/** One captured e-mail: its file, subject and decoded text parts (text/plain and text/html). */
export interface CapturedMail {
  file: string;
  subject: string;
  text: string;
}

/** Decodes quoted-printable (soft line breaks and =XX bytes) as UTF-8. */
function decodeQuotedPrintable(s: string): string {
  const soft = s.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const hex = soft.slice(i + 1, i + 3);
    if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(soft[i], 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** A header's value (unfolded), or ''. */
function mailHeader(head: string, name: string): string {
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const m = new RegExp(`^${name}:[ \\t]*(.*)$`, 'im').exec(unfolded);
  return m ? m[1].trim() : '';
}

/** The decoded bodies of a MIME entity (recursing into multipart parts). */
function mailBodies(entity: string): string[] {
  const split = /\r?\n\r?\n/.exec(entity);
  const head = split ? entity.slice(0, split.index) : entity;
  const body = split ? entity.slice(split.index + split[0].length) : '';
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(mailHeader(head, 'Content-Type'))?.[1];
  if (boundary) {
    return body
      .split(`--${boundary}`)
      .slice(1)
      .filter((part) => !part.startsWith('--'))
      .flatMap((part) => mailBodies(part.replace(/^\r?\n/, '')));
  }
  const encoding = mailHeader(head, 'Content-Transfer-Encoding').toLowerCase();
  if (encoding === 'base64') return [Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')];
  if (encoding === 'quoted-printable') return [decodeQuotedPrintable(body)];
  return [body];
}

/**
 * Waits for the newest captured mail to `to` whose subject matches `subject`, written at or after
 * `since` (ms since the epoch; the capture names files `<Date.now()>-<n>.eml`), and returns it decoded.
 */
export async function waitForMail(to: string, subject: RegExp, { since = 0, timeoutMs = 20_000 }: { since?: number; timeoutMs?: number } = {}): Promise<CapturedMail> {
  const dir = process.env.E2E_MAIL_DIR;
  if (!dir) throw new Error('E2E_MAIL_DIR not set (global setup did not run)');
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    const files = readdirSync(dir)
      .filter((f) => Number(f.split('-')[0]) >= since)
      .sort((a, b) => Number(b.split('-')[0]) - Number(a.split('-')[0]) || b.localeCompare(a));
    for (const file of files) {
      const raw = readFileSync(path.join(dir, file), 'utf8');
      const head = raw.slice(0, /\r?\n\r?\n/.exec(raw)?.index ?? raw.length);
      if (!mailHeader(head, 'To').toLowerCase().includes(to.toLowerCase())) continue;
      const mailSubject = mailHeader(head, 'Subject');
      if (!subject.test(mailSubject)) continue;
      return { file, subject: mailSubject, text: mailBodies(raw).join('\n') };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`No mail to ${to} matching ${subject} within ${timeoutMs} ms`);
}
