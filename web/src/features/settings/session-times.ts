/**
 * The times of a signed-in session as Settings → Privacy & Security shows them (issue 26), in the
 * owner's formats (use-owner-formats.ts: their locale and clock) and zone:
 *  - "Signed in": the date ('27 Nov 2026' / 'Nov 27, 2026');
 *  - "Last active": 'just now' under a minute, then '5 minutes ago' / '3 hours ago' under a day — words,
 *    so English like every text of the owner's screens — else the date and time in the owner's format
 *    ('Fri 27 Nov, 09:30' / 'Fri, Nov 27, 9:30 AM').
 * Instants are the server's ISO 8601 strings; `now` is UTC epoch ms.
 */
import type { OwnerFormats } from '../../data/use-owner-formats.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

function ms(iso: string): number | null {
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
}

/** The sign-in date of a session ('27 Nov 2026'); '' for an unreadable instant. */
export function signedInText(iso: string, formats: Pick<OwnerFormats, 'locale'>, zone: string): string {
  const t = ms(iso);
  if (t === null) return '';
  return new Intl.DateTimeFormat(formats.locale, { timeZone: zone, day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(t));
}

/**
 * When the session was last used, relative under a day ('just now', '5 minutes ago', '3 hours ago'),
 * else its date and time. A time slightly ahead of `now` (clocks differ) counts as just now.
 */
export function lastActiveText(iso: string, now: number, formats: Pick<OwnerFormats, 'dateTime'>, zone: string): string {
  const t = ms(iso);
  if (t === null) return '';
  const ago = now - t;
  if (ago < MINUTE_MS) return 'just now';
  if (ago < DAY_MS) {
    const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'always' });
    return ago < HOUR_MS ? rtf.format(-Math.floor(ago / MINUTE_MS), 'minute') : rtf.format(-Math.floor(ago / HOUR_MS), 'hour');
  }
  return formats.dateTime(t, zone);
}
