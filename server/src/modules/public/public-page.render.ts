/**
 * The public page's HTML (issue 11, P3): the built template (WEB_DIST_DIR/public.html) with the
 * server-rendered markup and the hydration data put in. The markup comes from the web build's own
 * SSR module (WEB_DIST_DIR/ssr/public-ssr.js, built by `npm run build -w web` from
 * web/src/public-ssr.tsx): the server imports the build's output, never web source, the way it
 * already serves the build's files. Both files are read once per build (their mtime is checked).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import type { Messages } from '@avail/shared/i18n/messages/en.ts';
import type { LocalePreferences } from '@avail/shared/i18n/languages.ts';

/** The period the address names (`?view=&date=`; web/src/features/public/public-view.ts). */
export interface PublicPlace {
  view: 'week' | 'month';
  /** A plain date YYYY-MM-DD, or null. */
  date: string | null;
}

/** The visitor's locale preferences: language of the texts, locale of the dates, and the 12/24 h choice if any. */
export interface PublicLocaleBoot extends LocalePreferences {
  hour12?: boolean;
}

/** What the public page hydrates from: the public API's answer, rendered in the owner's zone at `now`. */
export interface PublicBoot {
  slug: string;
  tz: string;
  now: number;
  data: {
    user_name: string;
    user_timezone: string;
    next_free?: string | null;
    availability: { windows: Array<{ start: string; end: string }>; range?: { start: string; end: string } };
  };
  /** A personal link's token the page was opened with. */
  key?: string;
  /** The compact layout of `/embed/:slug`. */
  embed?: boolean;
  place: PublicPlace;
  localePrefs: PublicLocaleBoot;
}

/** A rendered page: markup, the boot JSON (already safe inside <script>: `<`, `>`, `&`, U+2028/9 escaped), title and language. */
export interface RenderedPage {
  html: string;
  json: string;
  title: string;
  lang: string;
}

/** The web build's SSR module (web/src/public-ssr.tsx). */
export interface PublicSsrModule {
  PUBLIC_BOOT_ID: string;
  /** The page of `boot` with `messages` (the texts of `boot.localePrefs.language`). */
  renderPublicPage(boot: PublicBoot, messages: Messages): RenderedPage;
  /** The "link not found" page (`json` empty: nothing to hydrate). */
  renderNotFound(localePrefs: PublicLocaleBoot, messages: Messages, embed: boolean): RenderedPage;
}

const OUTLET = '<!--ssr-outlet-->';
const DATA = '<!--ssr-data-->';

/** Text escaped for HTML content. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The template with `rendered` in: markup in the root, the data as `<script type="application/json">`
 * (not executable; a strict CSP can forbid inline scripts; none when `json` is empty), the owner's
 * name in <title>, the visitor's language in `<html lang>`.
 * Without `rendered`: the empty shell (the page renders in the browser and asks the API).
 */
export function fillPublicTemplate(template: string, rendered?: RenderedPage & { bootId: string }): string {
  if (!rendered) return template.replace(OUTLET, '').replace(DATA, '');
  return template
    .replace(/<html lang="[^"]*"/, () => `<html lang="${escapeHtml(rendered.lang)}"`)
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(rendered.title)}</title>`)
    .replace(OUTLET, () => rendered.html)
    .replace(DATA, () => (rendered.json ? `<script type="application/json" id="${rendered.bootId}">${rendered.json}</script>` : ''));
}

interface Loaded {
  mtimeMs: number;
  value: unknown;
}
const templates = new Map<string, Loaded>();
const modules = new Map<string, Loaded>();

/** The public page template of a web build, or null when the build has none (an older build). */
export function publicTemplate(dist: string): string | null {
  const file = path.join(dist, 'public.html');
  if (!existsSync(file)) return null;
  const mtimeMs = statSync(file).mtimeMs;
  const hit = templates.get(file);
  if (hit && hit.mtimeMs === mtimeMs) return hit.value as string;
  const html = readFileSync(file, 'utf8');
  templates.set(file, { mtimeMs, value: html });
  return html;
}

/** The build's SSR module, or null when absent (the page then renders in the browser only). */
export async function publicSsrModule(dist: string): Promise<PublicSsrModule | null> {
  const file = path.join(dist, 'ssr', 'public-ssr.js');
  if (!existsSync(file)) return null;
  const mtimeMs = statSync(file).mtimeMs;
  const hit = modules.get(file);
  if (hit && hit.mtimeMs === mtimeMs) return (await hit.value) as PublicSsrModule;
  const loading = import(`${pathToFileURL(file).href}?v=${mtimeMs}`) as Promise<PublicSsrModule>;
  modules.set(file, { mtimeMs, value: loading });
  try {
    return await loading;
  } catch (err) {
    modules.delete(file);
    throw err;
  }
}
