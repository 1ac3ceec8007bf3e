/**
 * Dates and times as a reader of `locale` writes them (issue 22 item 3), all through `Intl`
 * (ECMA-402): 12- or 24-hour clock (the locale's own, or the reader's choice), weekday and month
 * names, date ranges (`Intl.DateTimeFormat#formatRange`), and the first day of the week (CLDR's
 * `firstDay` by region, as a table so the server's render and the browser's agree). Plain dates are
 * 'YYYY-MM-DD' strings; instants are UTC epoch ms shown in an IANA zone. Formatters are costly to
 * create, so each (locale, options) pair is made once and kept.
 */

/** 0 = Sunday … 6 = Saturday. */
export type Weekday = 0 | 1 | 2 | 3 | 4 | 5 | 6;

/** How one reader wants dates and times. */
export interface FormatPrefs {
  /** BCP 47 locale ('en-US', 'de-DE', 'ja-JP'). */
  locale: string;
  /** true: 12-hour clock; false: 24-hour; undefined: the locale's own. */
  hour12?: boolean;
  /** First day of the week; undefined: the locale's own. */
  weekStart?: Weekday;
}

/** The formatting functions of one reader (see `createFormats`). */
export interface Formats {
  readonly locale: string;
  readonly hour12: boolean;
  readonly weekStart: Weekday;
  /** '9:30 AM' / '09:30' of an instant in `tz`. */
  time(ms: number, tz: string): string;
  /** A grid's hour mark of an instant in `tz`: '9 AM' on a 12-hour clock, '09:00' on a 24-hour one. */
  hourMark(ms: number, tz: string): string;
  /** 'Mon' / 'Mo.' of a plain date. */
  weekdayShort(date: string): string;
  /** Narrow-to-short weekday names in week order starting at `weekStart` (for month grids). */
  weekdayHeads(): string[];
  /** 'Mon, Nov 24' / 'Mo., 24. Nov.' of a plain date. */
  dayShort(date: string): string;
  /** 'Monday, November 24' / 'Montag, 24. November' of a plain date. */
  dayLong(date: string): string;
  /** 'November 2026' of a plain date's month. */
  monthLabel(date: string): string;
  /** 'Nov 23 – 29, 2026' of a first and last plain date. */
  dateRange(first: string, last: string): string;
  /** '9:00 – 12:00 AM' style range of two instants on one day in `tz` (formatRange). */
  timeRange(startMs: number, endMs: number, tz: string): string;
  /** 'Mon, Nov 24, 9:00 – 9:30 AM' of two instants in `tz`, across days when they differ. */
  instantRange(startMs: number, endMs: number, tz: string): string;
  /** 'Mon, Nov 24, 9:30 AM' of an instant in `tz`. */
  dateTime(ms: number, tz: string): string;
}

// CLDR supplemental weekData firstDay: territories starting on Sunday or Saturday (others: Monday).
const SUNDAY_FIRST = new Set(
  'AG AS BD BR BS BT BW BZ CA CN CO DM DO ET GT GU HK HN ID IL IN JM JP KE KH KR LA MH MM MO MT MX MZ NI NP PA PE PH PK PR PT PY SA SG SV TH TT TW UM US VE VI WS YE ZA ZW'.split(' '),
);
const SATURDAY_FIRST = new Set('AE AF BH DJ DZ EG IQ IR JO KW LY OM QA SD SY'.split(' '));

function regionOf(locale: string): string | undefined {
  try {
    return new Intl.Locale(locale).maximize().region;
  } catch {
    return undefined;
  }
}

/** The first day of the week in `locale`'s region (CLDR firstDay; unknown region: Monday). */
export function localeWeekStart(locale: string): Weekday {
  const region = regionOf(locale);
  if (region && SUNDAY_FIRST.has(region)) return 0;
  if (region && SATURDAY_FIRST.has(region)) return 6;
  return 1;
}

/** True when `locale` writes times on a 12-hour clock (its default hour cycle is h11 or h12). */
export function localeUses12h(locale: string): boolean {
  try {
    const hc = new Intl.DateTimeFormat(locale, { hour: 'numeric' }).resolvedOptions().hourCycle;
    return hc === 'h11' || hc === 'h12';
  } catch {
    return false;
  }
}

/** `locale` if `Intl` knows it, else 'en'. */
function safeLocale(locale: string): string {
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([locale]).length ? locale : 'en';
  } catch {
    return 'en';
  }
}

const cache = new Map<string, Intl.DateTimeFormat>();
function dtf(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, options);
    if (cache.size > 500) cache.clear();
    cache.set(key, f);
  }
  return f;
}

/** Noon UTC of a plain date: a Date that is that date in the 'UTC' zone. */
function plain(date: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d, 12));
}

function dayInZone(ms: number, tz: string): string {
  return dtf('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms));
}

/** The formatting functions for `prefs` (see `Formats`). */
export function createFormats(prefs: FormatPrefs): Formats {
  const locale = safeLocale(prefs.locale);
  const hour12 = prefs.hour12 ?? localeUses12h(locale);
  const weekStart = prefs.weekStart ?? localeWeekStart(locale);
  // hourCycle rather than hour12: 'ja-JP' with hour12 false would otherwise print 0:00 as 24:00.
  const clock: Intl.DateTimeFormatOptions = { hourCycle: hour12 ? 'h12' : 'h23' };
  const timeOpts = (tz: string): Intl.DateTimeFormatOptions => ({ timeZone: tz, hour: hour12 ? 'numeric' : '2-digit', minute: '2-digit', ...clock });
  const dayShortOpts: Intl.DateTimeFormatOptions = { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric' };
  const f: Formats = {
    locale,
    hour12,
    weekStart,
    time: (ms, tz) => dtf(locale, timeOpts(tz)).format(new Date(ms)),
    hourMark: (ms, tz) => (hour12 ? dtf(locale, { timeZone: tz, hour: 'numeric', ...clock }).format(new Date(ms)) : dtf(locale, timeOpts(tz)).format(new Date(ms))),
    weekdayShort: (date) => dtf(locale, { timeZone: 'UTC', weekday: 'short' }).format(plain(date)),
    weekdayHeads: () => Array.from({ length: 7 }, (_, i) => dtf(locale, { timeZone: 'UTC', weekday: 'short' }).format(new Date(Date.UTC(2023, 0, 1 + ((weekStart + i) % 7), 12)))),
    dayShort: (date) => dtf(locale, dayShortOpts).format(plain(date)),
    dayLong: (date) => dtf(locale, { timeZone: 'UTC', weekday: 'long', month: 'long', day: 'numeric' }).format(plain(date)),
    monthLabel: (date) => dtf(locale, { timeZone: 'UTC', month: 'long', year: 'numeric' }).format(plain(date)),
    dateRange: (first, last) => dtf(locale, { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' }).formatRange(plain(first), plain(last)),
    timeRange: (startMs, endMs, tz) => dtf(locale, timeOpts(tz)).formatRange(new Date(startMs), new Date(endMs)),
    instantRange(startMs, endMs, tz) {
      const opts: Intl.DateTimeFormatOptions = { ...timeOpts(tz), weekday: 'short', month: 'short', day: 'numeric' };
      return dtf(locale, opts).formatRange(new Date(startMs), new Date(endMs));
    },
    dateTime: (ms, tz) => dtf(locale, { ...timeOpts(tz), weekday: 'short', month: 'short', day: 'numeric' }).format(new Date(ms)),
  };
  return f;
}

/** The plain date 'YYYY-MM-DD' of an instant in `tz`. */
export function plainDateIn(ms: number, tz: string): string {
  return dayInZone(ms, tz);
}
