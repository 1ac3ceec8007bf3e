/**
 * What the server hands the public page for hydration (issue 11, P3): the answer of the public
 * availability API it rendered from, the zone it rendered in (the owner's) and its clock. Shared
 * by the server renderer (public-ssr.tsx), the browser entry (public-entry.tsx) and the page, so
 * server markup and the first client render are computed from the same inputs.
 */
import type { PublicAvailability } from '@avail/shared/api/api-client.ts';
import type { PublicLocalePreferences } from './public-i18n.tsx';
import type { PublicPlace } from './public-view.ts';

/** id of the `<script type="application/json">` that carries a PublicBoot. */
export const PUBLIC_BOOT_ID = 'avail-public-data';

export interface PublicBoot {
  slug: string;
  /** The zone the server rendered in: the owner's (the visitor's zone is unknown to the server). */
  tz: string;
  /** The server's clock at render (UTC ms): the first client render uses it, then its own. */
  now: number;
  /** The public API's answer (free windows from now on, never a title). */
  data: PublicAvailability;
  /** A personal link's token (`?key=`) the page was opened with; passed on to every public API call. */
  key?: string;
  /** True on `/embed/:slug`: the compact layout for an iframe on another site (embed.js). */
  embed?: boolean;
  /** The place the address named (`?view=&date=`, public-view.ts). */
  place: PublicPlace;
  /** The visitor's locale preferences the server chose (language menu cookie, else Accept-Language). */
  localePrefs: PublicLocalePreferences;
}

/** True for the embed route `/embed/:slug` (the page other sites frame through embed.js). */
export function isEmbedPath(pathname: string): boolean {
  return /^\/embed\/[^/]+\/?$/.test(pathname);
}

/** What the embedded page tells the page that frames it (embed.js sizes the iframe from it). */
export interface EmbedHeightMessage {
  type: 'avail:height';
  /** CSS pixels the page needs to show without scrolling. */
  height: number;
}

/** The personal link's token of a page address's query (`?key=…`), or undefined. */
export function keyFromSearch(search: string): string | undefined {
  return new URLSearchParams(search).get('key') || undefined;
}

/** JSON safe inside a `<script>` element: `<`, `>`, `&` and the JS line separators escaped. */
export function serializeBoot(boot: PublicBoot): string {
  return JSON.stringify(boot).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
