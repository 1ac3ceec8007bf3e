import { describe, expect, it } from 'vitest';
import { createFormats, localeWeekStart, localeUses12h } from './formats.ts';
import { cookieValue, parseAcceptLanguage, pickLocale } from './languages.ts';

const BRUSSELS = 'Europe/Brussels';
const nine = Date.UTC(2026, 10, 30, 8); // Monday 30 Nov 2026, 09:00 Brussels
const five = Date.UTC(2026, 10, 30, 16);
/** Intl's thin and narrow no-break spaces as plain spaces, for readable expectations. */
const plain = (s: string) => s.replace(/[\u2009\u202f\u00a0]/g, ' ');

describe('formats: dates and times as the locale writes them', () => {
  it('uses the locale’s own clock and first day of the week (CLDR), or the reader’s choice', () => {
    expect([localeUses12h('en-US'), localeUses12h('en-GB'), localeUses12h('de-DE'), localeUses12h('ja-JP')]).toEqual([true, false, false, false]);
    expect([localeWeekStart('en-US'), localeWeekStart('de-DE'), localeWeekStart('fr'), localeWeekStart('pt'), localeWeekStart('ja-JP'), localeWeekStart('ar-EG')]).toEqual([0, 1, 1, 0, 0, 6]);
    const us = createFormats({ locale: 'en-US' });
    expect(us.timeRange(nine, five, BRUSSELS)).toMatch(/^9:00\sAM\s–\s5:00\sPM$/);
    expect(us.weekdayHeads()[0]).toBe('Sun');
    const us24 = createFormats({ locale: 'en-US', hour12: false, weekStart: 1 });
    expect(plain(us24.timeRange(nine, five, BRUSSELS))).toBe('09:00 – 17:00');
    expect(us24.weekdayHeads()[0]).toBe('Mon');
  });

  it('writes German, French and Japanese dates in their own words and order', () => {
    const de = createFormats({ locale: 'de-DE' });
    expect(de.dayLong('2026-11-30')).toBe('Montag, 30. November');
    expect(plain(de.dateRange('2026-11-30', '2026-12-06'))).toBe('30. Nov. – 6. Dez. 2026');
    expect(de.time(nine, BRUSSELS)).toBe('09:00');
    expect(createFormats({ locale: 'fr-FR' }).monthLabel('2026-11-03')).toBe('novembre 2026');
    const ja = createFormats({ locale: 'ja-JP' });
    expect(ja.monthLabel('2026-11-03')).toBe('2026年11月');
    expect(ja.weekdayShort('2026-11-30')).toBe('月');
  });

  it('marks grid hours short on a 12-hour clock, and keeps midnight 00:00 on a 24-hour one', () => {
    expect(createFormats({ locale: 'en-US' }).hourMark(nine, BRUSSELS)).toBe('9 AM');
    expect(createFormats({ locale: 'en-GB' }).hourMark(nine, BRUSSELS)).toBe('09:00');
    expect(createFormats({ locale: 'ja-JP', hour12: false }).time(Date.UTC(2026, 10, 29, 23), BRUSSELS)).toBe('00:00');
  });

  it('falls back to English for a locale Intl does not know', () => {
    expect(createFormats({ locale: 'zz-ZZ' }).monthLabel('2026-11-03')).toMatch(/November 2026/);
  });
});

describe('the locale preferences: language of the texts, locale of the formats', () => {
  it('parses Accept-Language by q-value (RFC 9110 §12.5.4), dropping q=0, * and junk', () => {
    expect(parseAcceptLanguage('fr;q=0.5, de-DE, en;q=0.8, es;q=0, *;q=0.1, ???')).toEqual(['de-DE', 'en', 'fr']);
    expect(parseAcceptLanguage(undefined)).toEqual([]);
  });
  it('picks texts by language and formats by the first tag; a choice wins', () => {
    expect(pickLocale(['de-AT', 'en'])).toEqual({ language: 'de', locale: 'de-AT' });
    expect(pickLocale(['ja-JP', 'fr'])).toEqual({ language: 'fr', locale: 'ja-JP' });
    expect(pickLocale(['ja-JP'])).toEqual({ language: 'en', locale: 'ja-JP' });
    expect(pickLocale(['en-GB'], 'nl')).toEqual({ language: 'nl', locale: 'nl-GB' });
    expect(pickLocale(['en-GB'], 'xx')).toEqual({ language: 'en', locale: 'en-GB' });
    expect(pickLocale([])).toEqual({ language: 'en', locale: 'en' });
  });
  it('reads one cookie of a Cookie header', () => {
    expect(cookieValue('a=1; avail_lang=de; b=2', 'avail_lang')).toBe('de');
    expect(cookieValue('xavail_lang=de', 'avail_lang')).toBeUndefined();
  });
});
