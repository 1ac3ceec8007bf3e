/**
 * The visitor's language and clock on the public page (issue 22 item 3): the i18next instance
 * (react-i18next's provider, so components call `useTranslation()`), the `Intl` formats of the
 * visitor's locale (`useFormats()`), and the language menu's and 12/24 h switch's choices, kept in
 * a cookie (the server's render reads it) and localStorage. Only the chosen language's texts are
 * ever loaded (`loadMessages`: one chunk).
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { CLOCK_COOKIE, LANGUAGE_COOKIE, cookieValue, isLanguage, pickLocale, type Language, type LocalePreferences } from '@avail/shared/i18n/languages.ts';
import { createFormats, type Formats } from '@avail/shared/i18n/formats.ts';
import { createVisitorI18n, loadMessages } from '@avail/shared/i18n/visitor-i18n.ts';
import type { Messages } from '@avail/shared/i18n/messages/en.ts';

/** What the page reads in: the language of its texts, the locale of its dates, and the clock. */
export interface PublicLocalePreferences extends LocalePreferences {
  /** The visitor's 12/24 h choice; undefined: the locale's own clock. */
  hour12?: boolean;
}

/** The visitor's stored choices (cookie first, then localStorage); empty on the server. */
function storedChoices(): { language?: Language; hour12?: boolean } {
  if (typeof document === 'undefined') return {};
  let lang: string | undefined = cookieValue(document.cookie, LANGUAGE_COOKIE);
  let clock: string | undefined = cookieValue(document.cookie, CLOCK_COOKIE);
  try {
    lang ??= localStorage.getItem(LANGUAGE_COOKIE) ?? undefined;
    clock ??= localStorage.getItem(CLOCK_COOKIE) ?? undefined;
  } catch {
    /* storage blocked (a framed page): the choice lasts this visit */
  }
  return { ...(isLanguage(lang) ? { language: lang } : {}), ...(clock === '12' || clock === '24' ? { hour12: clock === '12' } : {}) };
}

/** The browser's locale preferences: the stored choices over `navigator.languages`. */
export function browserLocale(): PublicLocalePreferences {
  const stored = storedChoices();
  const tags = typeof navigator !== 'undefined' ? (navigator.languages?.length ? navigator.languages : [navigator.language]) : [];
  return { ...pickLocale(tags, stored.language), ...(stored.hour12 !== undefined ? { hour12: stored.hour12 } : {}) };
}

function remember(name: string, value: string): void {
  document.cookie = `${name}=${value}; Path=/; Max-Age=31536000; SameSite=Lax`;
  try {
    localStorage.setItem(name, value);
  } catch {
    /* storage blocked: the cookie (or this visit) keeps it */
  }
}

interface LocaleControls {
  localePrefs: PublicLocalePreferences;
  formats: Formats;
  /** Loads `language`'s texts, switches to them and remembers the choice. */
  setLanguage(language: Language): void;
  /** Switches the clock and remembers the choice. */
  setHour12(hour12: boolean): void;
}

const LocaleContext = createContext<LocaleControls | null>(null);

/** The locale preferences, their formats and the visitor's switches (inside `PublicI18n`). */
export function useLocalePreferences(): LocaleControls {
  const c = useContext(LocaleContext);
  if (!c) throw new Error('useLocalePreferences outside PublicI18n');
  return c;
}

/** The `Intl` formats of the visitor's locale preferences (inside `PublicI18n`). */
export function useFormats(): Formats {
  return useLocalePreferences().formats;
}

/** Provides the texts (`useTranslation`) and formats (`useFormats`) of `initial` with its loaded `messages`. */
export function PublicI18n({ initial, messages, children }: { initial: PublicLocalePreferences; messages: Messages; children: ReactNode }) {
  const [localePrefs, setLocalePrefs] = useState(initial);
  const [texts, setTexts] = useState(() => ({ language: initial.language, i18n: createVisitorI18n(initial.language, messages) }));
  const formats = useMemo(() => createFormats({ locale: localePrefs.locale, hour12: localePrefs.hour12 }), [localePrefs.locale, localePrefs.hour12]);

  useEffect(() => {
    document.documentElement.lang = texts.language;
  }, [texts.language]);

  const setLanguage = useCallback((language: Language) => {
    remember(LANGUAGE_COOKIE, language);
    const tags = navigator.languages?.length ? navigator.languages : [navigator.language];
    void loadMessages(language).then((m) => {
      setTexts({ language, i18n: createVisitorI18n(language, m) });
      setLocalePrefs((r) => ({ ...pickLocale(tags, language), ...(r.hour12 !== undefined ? { hour12: r.hour12 } : {}) }));
    });
  }, []);
  const setHour12 = useCallback((hour12: boolean) => {
    remember(CLOCK_COOKIE, hour12 ? '12' : '24');
    setLocalePrefs((r) => ({ ...r, hour12 }));
  }, []);

  const controls = useMemo(() => ({ localePrefs, formats, setLanguage, setHour12 }), [localePrefs, formats, setLanguage, setHour12]);
  return (
    <LocaleContext.Provider value={controls}>
      <I18nextProvider i18n={texts.i18n}>{children}</I18nextProvider>
    </LocaleContext.Provider>
  );
}
