/**
 * The one-click link of the owner's proposal e-mail (issue 24): pure helpers of its page. The
 * token travels in the address's fragment (`/proposal#t=<token>`), which browsers never send, so it
 * never reaches a server log; the page posts it.
 */
import { ApiError, serverMessage } from '@avail/shared/api/api-client.ts';

export const INVALID_LINK_MESSAGE = 'This link is not valid.';
export const NETWORK_MESSAGE = 'Unable to connect. Please check your internet connection and try again.';
const GENERIC_MESSAGE = 'Something went wrong. Please try again.';

/** The token of a fragment like `#t=abc` (also `t=abc&x=1`), or null when there is none. */
export function tokenFromHash(hash: string): string | null {
  const raw = hash.startsWith('#') ? hash.slice(1) : hash;
  const t = new URLSearchParams(raw).get('t');
  return t && t.trim() ? t.trim() : null;
}

/**
 * The page's text for a failed inspect or act: 404 → 'This link is not valid.'; 410 (expired,
 * used) and 409 (the time is no longer free, already decided) → the server's own words; no
 * answer → the connection message.
 */
export function linkErrorText(err: unknown): string {
  if (!(err instanceof ApiError)) return NETWORK_MESSAGE;
  if (err.status === 404) return INVALID_LINK_MESSAGE;
  return serverMessage(err) ?? (err.status === 410 ? INVALID_LINK_MESSAGE : GENERIC_MESSAGE);
}
