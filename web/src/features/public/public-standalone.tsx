/**
 * The public page inside the owner's app (the router's `/{slug}` and `/u/{slug}` routes, used when
 * the server has no public build — the dev server, the desktop renderer): the visitor's locale preferences
 * from the browser (public-i18n.tsx), its language's texts loaded, then the page. The server-
 * rendered entry (public-entry.tsx) does the same before hydrating.
 */
import { useEffect, useState } from 'react';
import type { Messages } from '@avail/shared/i18n/messages/en.ts';
import { loadMessages } from '@avail/shared/i18n/visitor-i18n.ts';
import PublicPage from './public-page.tsx';
import { PublicI18n, browserLocale } from './public-i18n.tsx';

/** The page of `slug` in the browser's locale preferences; nothing until its texts have loaded (one small chunk). */
export default function PublicStandalone({ slug, linkKey }: { slug: string; linkKey?: string }) {
  const [localePrefs] = useState(browserLocale);
  const [messages, setMessages] = useState<Messages | null>(null);
  useEffect(() => {
    let live = true;
    void loadMessages(localePrefs.language).then((m) => live && setMessages(m));
    return () => {
      live = false;
    };
  }, [localePrefs.language]);
  if (!messages) return null;
  return (
    <PublicI18n initial={localePrefs} messages={messages}>
      <PublicPage slug={slug} linkKey={linkKey} />
    </PublicI18n>
  );
}
