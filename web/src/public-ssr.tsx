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
import type { Messages } from '@avail/shared/i18n/messages/en.ts';
import { createVisitorI18n } from '@avail/shared/i18n/visitor-i18n.ts';
import PublicPage, { PublicNotFound } from './features/public/public-page.tsx';
import { PublicI18n, type PublicLocalePreferences } from './features/public/public-i18n.tsx';
import { serializeBoot, type PublicBoot } from './features/public/public-boot.ts';

export { PUBLIC_BOOT_ID } from './features/public/public-boot.ts';

/**
 * Markup of the page for `boot` (owner's zone, server clock, the address's place, the visitor's
 * locale preferences) with `messages` (the texts of `boot.localePrefs.language`, which the server holds), the
 * escaped JSON to embed for hydration, the document's title and its `lang`.
 */
export function renderPublicPage(boot: PublicBoot, messages: Messages): { html: string; json: string; title: string; lang: string } {
  const html = renderToString(
    (
      <PublicI18n initial={boot.localePrefs} messages={messages}>
        <PublicPage slug={boot.slug} linkKey={boot.key} embed={boot.embed} initial={boot} />
      </PublicI18n>
    ) as unknown as VNode,
  );
  const title = createVisitorI18n(boot.localePrefs.language, messages).t('page.docTitle', { name: boot.data.user_name });
  return { html, json: serializeBoot(boot), title, lang: boot.localePrefs.language };
}

/** The "link not found" page in the visitor's language (`json` empty: there is nothing to hydrate; the browser renders it anew). */
export function renderNotFound(localePrefs: PublicLocalePreferences, messages: Messages, embed: boolean): { html: string; json: string; title: string; lang: string } {
  const html = renderToString(
    (
      <PublicI18n initial={localePrefs} messages={messages}>
        <PublicNotFound embed={embed} />
      </PublicI18n>
    ) as unknown as VNode,
  );
  const t = createVisitorI18n(localePrefs.language, messages).t;
  return { html, json: '', title: `${t('states.notFoundTitle')} · Avail`, lang: localePrefs.language };
}
