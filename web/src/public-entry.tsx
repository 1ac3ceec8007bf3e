/**
 * Browser entry of the visitor's public page (public.html; issue 11, P3): no router, no session,
 * no device database — only React, the page and its API client. With the server's markup and
 * boot data it hydrates (the first render reuses the server's inputs, so the DOM matches); without
 * them (an unknown link, or a server without the SSR module) it renders from scratch and fetches.
 */
import { StrictMode } from 'react';
// Preact's own render/hydrate: this entry is only built with the public build's Preact aliases
// (vite.config.ts), so the React-typed tree below is a Preact VNode.
import { hydrate, render, type VNode } from 'preact';
import { loadMessages } from '@avail/shared/i18n/visitor-i18n.ts';
import PublicPage from './features/public/public-page.tsx';
import { PublicI18n, browserLocale } from './features/public/public-i18n.tsx';
import { slugOfPublicPath } from '@avail/shared/domain/public-path.ts';
import { PUBLIC_BOOT_ID, isEmbedPath, keyFromSearch, type EmbedHeightMessage, type PublicBoot } from './features/public/public-boot.ts';
import './styles/base.css';

function readBoot(): PublicBoot | null {
  const el = document.getElementById(PUBLIC_BOOT_ID);
  if (!el?.textContent) return null;
  try {
    return JSON.parse(el.textContent) as PublicBoot;
  } catch {
    return null;
  }
}

const root = document.getElementById('root')!;
const boot = readBoot();
const slug = boot?.slug ?? slugOfPublicPath(location.pathname) ?? '';
const linkKey = boot ? boot.key : keyFromSearch(location.search);
const embed = boot?.embed ?? isEmbedPath(location.pathname);
// The server's locale preferences (its render's language and clock) so hydration matches; else the browser's.
const localePrefs = boot?.localePrefs ?? browserLocale();
// Only the visitor's language is loaded (one small chunk), before the first render.
void loadMessages(localePrefs.language).then((messages) => {
  const page = (
    <StrictMode>
      <PublicI18n initial={localePrefs} messages={messages}>
        <PublicPage slug={slug} linkKey={linkKey} embed={embed} initial={boot ?? undefined} />
      </PublicI18n>
    </StrictMode>
  );
  if (boot && root.firstElementChild) hydrate(page as unknown as VNode, root);
  else render(page as unknown as VNode, root);
});

// Embedded in another site (embed.js): tell the framing page how tall the content is, whenever it
// changes, so the iframe fits it without a scrollbar. The message carries the height only.
if (embed && window.parent !== window) {
  let last = 0;
  const post = () => {
    const height = Math.ceil(root.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: 'avail:height', height } satisfies EmbedHeightMessage, '*');
  };
  new ResizeObserver(post).observe(root);
  post();
}
