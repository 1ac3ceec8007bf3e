/**
 * Server-side renderer of the visitor's public page (issue 11, P3), built by `npm run build -w web`
 * as its own SSR bundle (dist/ssr/public-ssr.js, React bundled in) and loaded by the server
 * (server/src/modules/public/public-page.render.ts). The server never imports web source: it
 * passes the public API's answer in and gets markup out — the same component tree the browser
 * entry (public-entry.tsx) hydrates.
 */
// Preact's renderer directly: this module is only ever built with the public build's Preact aliases
// (vite.config.ts), so the page's React-typed elements are Preact VNodes here.
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import PublicPage from './features/public/public-page.tsx';
import { serializeBoot, type PublicBoot } from './features/public/public-boot.ts';

export { PUBLIC_BOOT_ID } from './features/public/public-boot.ts';

/** Markup of the page for `boot` (owner's zone, server clock) and the escaped JSON to embed for hydration. */
export function renderPublicPage(boot: PublicBoot): { html: string; json: string; title: string } {
  const html = renderToString((<PublicPage slug={boot.slug} linkKey={boot.key} embed={boot.embed} initial={boot} />) as unknown as VNode);
  return { html, json: serializeBoot(boot), title: `${boot.data.user_name}'s Availability · Avail` };
}
