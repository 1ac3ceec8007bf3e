import { describe, expect, it } from 'vitest';
import { createOwnerFormats, ownerFormatPrefs } from './use-owner-formats.ts';

const NOV_30_0900_UTC = Date.UTC(2026, 10, 30, 9, 0);

describe("the owner's format preferences (fallbacks)", () => {
  it('all automatic: the browser language, its own clock, Monday first (spec Z-11)', () => {
    expect(ownerFormatPrefs({ format_locale: null, hour12: null, week_start: null }, 'en-US')).toEqual({ locale: 'en-US', weekStart: 1 });
    expect(ownerFormatPrefs(undefined, 'de-DE')).toEqual({ locale: 'de-DE', weekStart: 1 });
    // A cached user from before the fields existed.
    expect(ownerFormatPrefs({}, 'en-GB')).toEqual({ locale: 'en-GB', weekStart: 1 });
  });

  it('no usable browser language: en-GB', () => {
    expect(ownerFormatPrefs(null, undefined).locale).toBe('en-GB');
    expect(ownerFormatPrefs(null, 'not a locale!').locale).toBe('en-GB');
  });

  it("the owner's choice wins over the browser, field by field", () => {
    expect(ownerFormatPrefs({ format_locale: 'ja-JP', hour12: false, week_start: 0 }, 'en-US')).toEqual({ locale: 'ja-JP', hour12: false, weekStart: 0 });
    expect(ownerFormatPrefs({ hour12: true }, 'de-DE')).toEqual({ locale: 'de-DE', hour12: true, weekStart: 1 });
    expect(ownerFormatPrefs({ week_start: 6 }, 'en-GB')).toEqual({ locale: 'en-GB', weekStart: 6 });
  });

  it('a malformed stored value counts as unset', () => {
    expect(ownerFormatPrefs({ format_locale: '??', week_start: 7 }, 'fr-FR')).toEqual({ locale: 'fr-FR', weekStart: 1 });
    expect(ownerFormatPrefs({ week_start: 1.5 }, 'fr-FR').weekStart).toBe(1);
  });
});

describe("the owner's formats", () => {
  it('en-GB automatic keeps the screens as they read before (24-hour, day before month)', () => {
    const f = createOwnerFormats(null, 'en-GB');
    expect(f.hour12).toBe(false);
    expect(f.plainTimeSpan('09:00', '17:00')).toBe('09:00–17:00');
    expect(f.hourLabel(8)).toBe('08:00');
    expect(f.timeSpan(NOV_30_0900_UTC, NOV_30_0900_UTC + 3_600_000, 'UTC')).toBe('09:00–10:00');
    expect(f.dateWithWeekday('2026-11-30')).toBe('Mon, 30 Nov 2026');
    expect(f.dateWithWeekday('2026-11-30', false)).toBe('Mon, 30 Nov');
    expect(f.instantRange(NOV_30_0900_UTC, NOV_30_0900_UTC + 3_600_000, 'UTC')).toBe('Mon 30 Nov, 09:00–10:00');
  });

  it('English (US) + 12-hour: the example line reads Mon, Nov 30, 9:00 AM', () => {
    const f = createOwnerFormats({ format_locale: 'en-US', hour12: true, week_start: 0 }, 'de-DE');
    expect(f.dateTime(NOV_30_0900_UTC, 'UTC')).toBe('Mon, Nov 30, 9:00 AM');
    expect(f.hourLabel(13)).toBe('1:00 PM');
    expect(f.dateWithWeekday('2026-11-30')).toBe('Mon, Nov 30, 2026');
    expect(f.weekStart).toBe(0);
  });

  it('Deutsch + 24-hour: German day names, 24-hour times', () => {
    const f = createOwnerFormats({ format_locale: 'de-DE', hour12: false }, 'en-US');
    expect(f.weekdayShort('2026-11-30')).toBe('Mo');
    expect(f.plainTime('21:30')).toBe('21:30');
    expect(f.hour12).toBe(false);
  });

  it('en-US browser without a choice: its 12-hour clock', () => {
    expect(createOwnerFormats(null, 'en-US').plainTime('13:05')).toBe('1:05 PM');
  });
});
