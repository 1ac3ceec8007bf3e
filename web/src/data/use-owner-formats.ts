/**
 * How dates and times read on the owner's own screens (issue 22 item 3). The texts stay the spec's
 * English; only the formats follow the owner's choice in Settings → Profile, stored on the account
 * (`format_locale`, `hour12`, `week_start` of the User JSON, so it follows them to every device and
 * survives an offline reload with the cached user), each falling back when unset:
 *  - locale: the choice, else the browser's language (`navigator.languages[0]`), else 'en-GB';
 *  - clock: the choice, else the locale's own (en-GB 24 h, en-US 12 h);
 *  - first day of the week: the choice, else Monday (the spec's business constant Z-11, whatever
 *    the locale, so the dashboard keeps "Monday first" until the owner picks another day).
 * Time ENTRY fields stay 24-hour HH:MM (spec §5), and screens whose text the spec prescribes (the
 * availability list's '9:30 AM - 5:30 PM') keep it; they do not use these formats.
 */
import { useMemo } from 'react';
import { createFormats, type FormatPrefs, type Formats, type Weekday } from '@avail/shared/i18n/formats.ts';
import { isKnownLocale } from '@avail/shared/schemas/profile.schema.ts';
import { useSession } from './session.tsx';

/** The week's first day when the owner has not chosen one: Monday (spec Z-11). */
const OWNER_DEFAULT_WEEK_START: Weekday = 1;
/** The locale when neither the owner nor the browser gives a usable one. */
const OWNER_FALLBACK_LOCALE = 'en-GB';

/** The owner's stored choice (User JSON fields; undefined or null = automatic). */
export interface OwnerFormatChoice {
  format_locale?: string | null;
  hour12?: boolean | null;
  week_start?: number | null;
}

/** The owner's formats: the shared `Formats` plus the owner screens' own shapes. */
export interface OwnerFormats extends Formats {
  /** A plain wall-clock time 'HH:MM' (24-hour, as stored) on the owner's clock: '09:30' / '9:30 AM'. */
  plainTime(hhmm: string): string;
  /** The grid's label of hour `h` (0–24): '08:00' / '8:00 AM'. */
  hourLabel(h: number): string;
  /** Two plain times joined by an en dash: '09:00–17:00' / '9:00 AM–5:00 PM'. */
  plainTimeSpan(start: string, end: string): string;
  /** Two instants' times in `tz` joined by an en dash (no date): '11:00–12:00' / '11:00 AM–12:00 PM'. */
  timeSpan(startMs: number, endMs: number, tz: string): string;
  /** A plain date with its weekday: 'Mon, 30 Nov 2026' (en-GB) / 'Mon, Nov 30, 2026' (en-US); `withYear` false drops the year. */
  dateWithWeekday(date: string, withYear?: boolean): string;
}

/** The browser's preferred language ('en-GB'), or undefined outside a browser. */
export function browserLocale(): string | undefined {
  if (typeof navigator === 'undefined') return undefined;
  return navigator.languages?.[0] || navigator.language || undefined;
}

/**
 * The format preferences for `choice` (see the module comment for the fallbacks): an unknown or
 * malformed stored locale falls back like an unset one; a week_start outside 0–6 counts as unset.
 */
export function ownerFormatPrefs(choice: OwnerFormatChoice | null | undefined, browser: string | undefined = browserLocale()): Required<Pick<FormatPrefs, 'locale' | 'weekStart'>> & Pick<FormatPrefs, 'hour12'> {
  const chosen = choice?.format_locale;
  const locale = chosen && isKnownLocale(chosen) ? chosen : browser && isKnownLocale(browser) ? browser : OWNER_FALLBACK_LOCALE;
  const ws = choice?.week_start;
  const weekStart = typeof ws === 'number' && Number.isInteger(ws) && ws >= 0 && ws <= 6 ? (ws as Weekday) : OWNER_DEFAULT_WEEK_START;
  const hour12 = typeof choice?.hour12 === 'boolean' ? choice.hour12 : undefined;
  return { locale, weekStart, ...(hour12 === undefined ? {} : { hour12 }) };
}

const pad2 = (n: number) => String(n).padStart(2, '0');
/** Epoch ms of the wall-clock time 'HH:MM' on 2000-01-03 in UTC (a plain time to format in 'UTC'); '24:00' → the next midnight. */
function plainTimeMs(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return Date.UTC(2000, 0, 3, h || 0, m || 0);
}

/** The owner's formats for `choice` (pure; the hook memoises it). */
export function createOwnerFormats(choice: OwnerFormatChoice | null | undefined, browser: string | undefined = browserLocale()): OwnerFormats {
  const f = createFormats(ownerFormatPrefs(choice, browser));
  const dayMonthYear = new Intl.DateTimeFormat(f.locale, { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' });
  const dayMonth = new Intl.DateTimeFormat(f.locale, { timeZone: 'UTC', day: 'numeric', month: 'short' });
  const plainTime = (hhmm: string) => f.time(plainTimeMs(hhmm), 'UTC');
  return {
    ...f,
    plainTime,
    hourLabel: (h) => plainTime(`${pad2(h)}:00`),
    plainTimeSpan: (start, end) => `${plainTime(start)}–${plainTime(end)}`,
    timeSpan: (startMs, endMs, tz) => `${f.time(startMs, tz)}–${f.time(endMs, tz)}`,
    dateWithWeekday(date, withYear = true) {
      const [y, m, d] = date.split('-').map(Number);
      const noon = new Date(Date.UTC(y, m - 1, d, 12));
      return `${f.weekdayShort(date)}, ${(withYear ? dayMonthYear : dayMonth).format(noon)}`;
    },
  };
}

/** The signed-in owner's formats (re-made when their stored choice or the browser's language changes). */
export function useOwnerFormats(): OwnerFormats {
  const { user } = useSession();
  const locale = user?.format_locale ?? null;
  const hour12 = user?.hour12 ?? null;
  const weekStart = user?.week_start ?? null;
  const browser = browserLocale();
  return useMemo(() => createOwnerFormats({ format_locale: locale, hour12, week_start: weekStart }, browser), [locale, hour12, weekStart, browser]);
}
