/**
 * The languages visitors can read Avail in (issue 22 item 3) and how one is chosen: from the
 * visitor's choice (a cookie the language menu sets), else `Accept-Language` on the server
 * (RFC 9110 §12.5.4) or `navigator.languages` in the browser, else English. Texts come from
 * `messages/{language}.ts`; dates and times use the visitor's full locale through `Intl`
 * (formats.ts), so `ja-JP` reads English texts with Japanese dates.
 */

/** Languages with a full set of visitor texts; the first is the fallback. */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'nl', 'pt'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Each language's own name, for the language menu. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  nl: 'Nederlands',
  pt: 'Português',
};

/** Cookie (and localStorage key) of the visitor's language choice: a `Language`. */
export const LANGUAGE_COOKIE = 'avail_lang';
/** Cookie (and localStorage key) of the visitor's clock choice: `'12'` or `'24'`. */
export const CLOCK_COOKIE = 'avail_clock';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The language tags of an `Accept-Language` header (RFC 9110 §12.5.4), best first: sorted by
 * q-value (stable for ties), `q=0` and `*` dropped, malformed entries skipped. Never throws.
 * `'de-DE,de;q=0.9,en;q=0.8'` → `['de-DE', 'de', 'en']`.
 */
export function parseAcceptLanguage(header: string | undefined | null): string[] {
  if (!header) return [];
  const out: Array<{ tag: string; q: number; i: number }> = [];
  const parts = header.slice(0, 1000).split(',');
  for (let i = 0; i < parts.length && i < 30; i++) {
    const [rawTag, ...params] = parts[i].trim().split(';');
    const tag = rawTag.trim();
    if (!/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(tag)) continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/.exec(p);
      if (m) q = Number(m[1]);
    }
    if (q > 0) out.push({ tag, q, i });
  }
  return out.sort((a, b) => b.q - a.q || a.i - b.i).map((x) => x.tag);
}

/** A locale tag `Intl` accepts (canonicalised), or null. */
export function canonicalLocale(tag: string): string | null {
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    return null;
  }
}

/** The visitor's locale preferences: the language of the texts and the locale of dates and times. */
export interface LocalePreferences {
  language: Language;
  /** BCP 47 locale for `Intl` (e.g. 'de-DE', 'ja-JP'); the language itself when nothing better is known. */
  locale: string;
}

/**
 * The locale preferences for `tags` (best first: `Accept-Language` parsed, or
 * `navigator.languages`) and the visitor's own `choice` (the language menu's cookie), if any. Texts: the choice, else the first
 * tag whose primary subtag has texts, else English. Formats: the first tag when it is of the
 * chosen language or has no texts of its own (ja-JP → English texts, Japanese dates), else the first
 * tag of the chosen language, else the language itself.
 */
export function pickLocale(tags: readonly string[], choice?: unknown): LocalePreferences {
  const locales = tags.map(canonicalLocale).filter((t): t is string => t !== null);
  const primary = (t: string) => t.split('-')[0].toLowerCase();
  const language: Language = isLanguage(choice) ? choice : ((locales.map(primary).find(isLanguage) as Language | undefined) ?? 'en');
  const first = locales[0];
  if (first && (primary(first) === language || (!isLanguage(primary(first)) && !isLanguage(choice)))) return { language, locale: first };
  const own = locales.find((t) => primary(t) === language);
  if (own) return { language, locale: own };
  // The chosen language with the visitor's region (de-DE choosing English reads en-DE: 24-hour, Monday).
  const region = first ? regionOf(first) : undefined;
  return { language, locale: (region && canonicalLocale(`${language}-${region}`)) || language };
}

function regionOf(tag: string): string | undefined {
  try {
    return new Intl.Locale(tag).region;
  } catch {
    return undefined;
  }
}

/** The value of cookie `name` in a `Cookie` header (RFC 6265 §5.4), or undefined. */
export function cookieValue(header: string | undefined | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}
