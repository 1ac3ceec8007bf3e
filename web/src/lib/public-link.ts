/**
 * The owner's public link as visitors use it. The server knows the public origin
 * (`PUBLIC_BASE_URL`) and sends the link as the user's `public_url`; a desktop app's own origin
 * (`app://avail`) or the server address it talks to may differ from it, so screens never build the
 * link from `window.location`. Without a `public_url` (an older server, or no username yet) the
 * origin of the server the app talks to stands in.
 */
import { apiOrigin, type User } from '@avail/shared/api/api-client.ts';

/** `https://host` part of public links (no trailing slash). */
export function publicLinkBase(user: Pick<User, 'public_url'> | null | undefined): string {
  const url = user?.public_url;
  if (url) return url.slice(0, url.lastIndexOf('/'));
  return apiOrigin() || window.location.origin;
}

/** The absolute public link of `slug` (default the user's username). */
export function publicLinkOf(user: Pick<User, 'public_url' | 'username'> | null | undefined, slug: string | null | undefined = user?.username): string {
  if (user?.public_url && slug === user.username) return user.public_url;
  return `${publicLinkBase(user)}/${slug ?? ''}`;
}

/** The link without its scheme, for display: `host/slug`. */
export function displayLink(link: string): string {
  return link.replace(/^[a-z]+:\/\//i, '');
}

/**
 * The owner's calendar feeds (GET /api/public/{slug}/free-busy.ics on the public origin `base`):
 * `freeBusy` (VFREEBUSY) and `events` (the free windows as "Free" events, `format=events`). `key`:
 * a personal link's token (issue 14), needed when the plain link is off.
 */
export function freeBusyFeedsOf(base: string, slug: string, key?: string | null): { freeBusy: string; events: string } {
  const path = `${base}/api/public/${encodeURIComponent(slug)}/free-busy.ics`;
  const k = key ? `key=${encodeURIComponent(key)}` : '';
  return { freeBusy: k ? `${path}?${k}` : path, events: `${path}?${k ? `${k}&` : ''}format=events` };
}

/** The snippet that embeds `slug`'s free times on another site (issue 14 item 7; web/public/embed.js), with a personal link's `key` as `data-key`. */
export function embedSnippetOf(base: string, slug: string, key?: string | null): string {
  const clean = (v: string) => v.replace(/[&"<>]/g, '');
  return `<script src="${base}/embed.js" data-avail="${clean(slug)}"${key ? ` data-key="${clean(key)}"` : ''}></script>`;
}

/** The token of a personal link's address (`…/{username}?key=…`), or null. */
export function keyOfShareUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).searchParams.get('key');
  } catch {
    return null;
  }
}
