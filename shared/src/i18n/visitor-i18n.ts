/**
 * The visitor texts' i18next instances (issue 22 item 3). One instance per visitor's locale
 * preferences, created with its language's messages already loaded (initialised synchronously, so
 * the server's render and the browser's first render read the same texts). Plurals use i18next's `_one`/`_other` keys,
 * chosen by `Intl.PluralRules` of the language (CLDR plural rules). Missing keys fall back to
 * English only where the English messages were loaded too (the server loads every language).
 *
 * `loadMessages` imports one language's file on demand: the browser's public page fetches only the
 * visitor's language (one small chunk), never all six.
 */
import i18next, { type i18n as I18n } from 'i18next';
import type { Messages } from './messages/en.ts';
import type { Language } from './languages.ts';

/** The messages of `language`, loaded on demand (a separate chunk in the browser build). */
export async function loadMessages(language: Language): Promise<Messages> {
  switch (language) {
    case 'de':
      return (await import('./messages/de.ts')).de;
    case 'fr':
      return (await import('./messages/fr.ts')).fr;
    case 'es':
      return (await import('./messages/es.ts')).es;
    case 'nl':
      return (await import('./messages/nl.ts')).nl;
    case 'pt':
      return (await import('./messages/pt.ts')).pt;
    default:
      return (await import('./messages/en.ts')).en;
  }
}

/**
 * A ready i18next instance for `language` with `messages` (one namespace, 'translation'), and
 * English as fallback when `fallback` is given. Interpolated values are not HTML-escaped: React
 * escapes what it renders, and plain-text consumers (iCalendar, e-mail text) need them raw.
 */
export function createVisitorI18n(language: Language, messages: Messages, fallback?: Messages): I18n {
  const instance = i18next.createInstance();
  void instance.init({
    lng: language,
    fallbackLng: fallback ? 'en' : false,
    resources: { [language]: { translation: messages }, ...(fallback && language !== 'en' ? { en: { translation: fallback } } : {}) },
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return instance;
}
