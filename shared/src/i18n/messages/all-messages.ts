/**
 * Every language's visitor texts at once, for the server (server-rendered pages, feeds, e-mails).
 * The browser never imports this module: it loads one language with `loadMessages`.
 */
import type { TFunction } from 'i18next';
import type { Language } from '../languages.ts';
import { createVisitorI18n } from '../visitor-i18n.ts';
import { de } from './de.ts';
import { en, type Messages } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { nl } from './nl.ts';
import { pt } from './pt.ts';

export const ALL_MESSAGES: Record<Language, Messages> = { en, de, fr, es, nl, pt };

const instances = new Map<Language, TFunction>();

/** A translate function of `language` (English as fallback), made once per language and kept: for server texts (feeds, pages). */
export function serverT(language: Language): TFunction {
  let t = instances.get(language);
  if (!t) instances.set(language, (t = createVisitorI18n(language, ALL_MESSAGES[language], en).t));
  return t;
}
