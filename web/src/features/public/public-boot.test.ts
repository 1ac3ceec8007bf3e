import { describe, expect, it } from 'vitest';
import { serializeBoot, type PublicBoot } from './public-boot.ts';

describe('public page boot data', () => {
  it('is JSON that cannot close its <script> element or start markup', () => {
    const boot: PublicBoot = {
      slug: 'x',
      tz: 'Europe/Brussels',
      now: 1,
      data: { user_name: '</script><script>alert(1)</script>&\u2028', user_timezone: 'Europe/Brussels', availability: { windows: [] } },
      place: { view: 'week', date: null },
      localePrefs: { language: 'en', locale: 'en-US' },
    };
    const json = serializeBoot(boot);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(boot);
  });
});
