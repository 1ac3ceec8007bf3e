/**
 * Every language's visitor texts at once, for the server (server-rendered pages, feeds, e-mails).
 * The browser never imports this module: it loads one language with `loadMessages`.
 */
import type { Language } from '../languages.ts';
import { de } from './de.ts';
import { en, type Messages } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { nl } from './nl.ts';
import { pt } from './pt.ts';

export const ALL_MESSAGES: Record<Language, Messages> = { en, de, fr, es, nl, pt };
