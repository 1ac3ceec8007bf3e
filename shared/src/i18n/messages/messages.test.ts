import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../languages.ts';
import { createVisitorI18n } from '../visitor-i18n.ts';
import { ALL_MESSAGES } from './all-messages.ts';

/** key path → text, for every leaf. */
function leaves(obj: Record<string, unknown>, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(obj)) {
    if (typeof v === 'string') out.set(prefix + k, v);
    else for (const [kk, vv] of leaves(v as Record<string, unknown>, `${prefix}${k}.`)) out.set(kk, vv);
  }
  return out;
}
const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}|<(\/?\w+)>/g)].map((m) => m[0]).sort();

describe('visitor texts', () => {
  const en = leaves(ALL_MESSAGES.en);
  for (const lang of LANGUAGES) {
    it(`${lang}: the same keys and placeholders as English, and translated`, () => {
      const own = leaves(ALL_MESSAGES[lang]);
      expect([...own.keys()].sort()).toEqual([...en.keys()].sort());
      for (const [k, v] of own) {
        expect(v.trim(), k).not.toBe('');
        expect(placeholders(v), `${lang} ${k}`).toEqual(placeholders(en.get(k)!));
      }
      if (lang !== 'en') {
        // Not an untranslated copy: most texts differ from English.
        const same = [...own].filter(([k, v]) => v === en.get(k)).length;
        expect(same / own.size).toBeLessThan(0.15);
      }
    });
  }

  it('keeps the spec texts verbatim in English (spec §2, §8)', () => {
    const t = createVisitorI18n('en', ALL_MESSAGES.en).t;
    expect(t('page.title', { name: 'Jane Doe' })).toBe("Jane Doe's Availability");
    expect(t('free.tooltip')).toBe("Hey, I'm free here");
    expect(t('states.notFound')).toBe('This availability link could not be found.');
    expect(t('states.serverError')).toBe('Something went wrong on our end. Please try again later.');
    expect(t('states.networkError')).toBe('Unable to connect. Please check your internet connection and try again.');
    expect(t('nav.currentWeek')).toBe('Go to current week');
    expect(t('propose.nameRequired')).toBe('Name is required');
  });

  it('chooses plural forms by the language (CLDR rules through Intl.PluralRules)', () => {
    const en = createVisitorI18n('en', ALL_MESSAGES.en).t;
    const de = createVisitorI18n('de', ALL_MESSAGES.de).t;
    const fr = createVisitorI18n('fr', ALL_MESSAGES.fr).t;
    expect(en('free.hours', { count: 1 })).toBe('1 free hour');
    expect(en('free.hours', { count: 2.5 })).toBe('2.5 free hours');
    expect(de('free.hours', { count: 3 })).toBe('3 freie Stunden');
    // French: 0 and 1 are singular.
    expect(fr('free.times', { count: 0 })).toBe('0 créneau libre');
    expect(fr('free.times', { count: 2 })).toBe('2 créneaux libres');
  });
});
