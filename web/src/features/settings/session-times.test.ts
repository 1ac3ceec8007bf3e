/** Settings → sessions: the sign-in date and the last-active text in the owner's formats (issue 26). */
import { describe, expect, it } from 'vitest';
import { createOwnerFormats } from '../../data/use-owner-formats.ts';
import { lastActiveText, signedInText } from './session-times.ts';

const now = Date.UTC(2026, 10, 27, 9, 30);
const gb = createOwnerFormats({ format_locale: 'en-GB' });
const us = createOwnerFormats({ format_locale: 'en-US' });
const de = createOwnerFormats({ format_locale: 'de-DE' });

describe('signedInText', () => {
  it('writes the date as the owner reads dates, in their zone', () => {
    expect(signedInText('2026-11-20T23:30:00Z', gb, 'Europe/Brussels')).toBe('21 Nov 2026');
    expect(signedInText('2026-11-20T23:30:00Z', us, 'America/New_York')).toBe('Nov 20, 2026');
    expect(signedInText('2026-11-20T23:30:00Z', de, 'Europe/Berlin')).toBe('21. Nov. 2026');
  });
  it('is empty for an unreadable instant', () => {
    expect(signedInText('not a date', gb, 'UTC')).toBe('');
  });
});

describe('lastActiveText', () => {
  const at = (msAgo: number) => new Date(now - msAgo).toISOString();
  it('says just now under a minute, and for a time slightly ahead', () => {
    expect(lastActiveText(at(59_000), now, gb, 'UTC')).toBe('just now');
    expect(lastActiveText(at(-5_000), now, gb, 'UTC')).toBe('just now');
  });
  it('counts minutes, then hours, under a day', () => {
    expect(lastActiveText(at(60_000), now, gb, 'UTC')).toBe('1 minute ago');
    expect(lastActiveText(at(59 * 60_000), now, gb, 'UTC')).toBe('59 minutes ago');
    expect(lastActiveText(at(3 * 3_600_000 + 10), now, de, 'UTC')).toBe('3 hours ago');
  });
  it('gives the date and time on the owner’s clock from a day on', () => {
    expect(lastActiveText(at(2 * 86_400_000), now, gb, 'Europe/Brussels')).toBe('Wed 25 Nov, 10:30');
    expect(lastActiveText(at(2 * 86_400_000), now, us, 'Europe/Brussels')).toBe('Wed, Nov 25, 10:30 AM');
  });
});
