/**
 * The Content-Security-Policy of the desktop renderer, sent with every `app://avail` response
 * (https://www.electronjs.org/docs/latest/tutorial/security#7-define-a-content-security-policy).
 * Pure; exported so a browser test can serve the web build under the same policy.
 */
import { normaliseServerOrigin } from './desktop-bridge.ts';

/**
 * The policy for a renderer that talks to `serverOrigin` (e.g. `https://avail.example.com`):
 *
 * `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:;
 * connect-src 'self' <serverOrigin>; font-src 'self'; object-src 'none'; base-uri 'none';
 * form-action 'none'; frame-ancestors 'none'`
 *
 * - Scripts: only the bundle's own files (Vite emits no inline script; no `eval`).
 * - `style-src 'unsafe-inline'` — the one exception, styles only: radix-ui's Dialog locks the page
 *   scroll through react-remove-scroll, which inserts a `<style>` element at runtime
 *   (react-style-singleton) whose text varies with the scrollbar width, so neither a hash nor
 *   (without a web-side `setNonce`) a nonce can allow it; under `style-src 'self'` the lock is
 *   blocked and the page behind every dialog scrolls. React's `style={…}` props are set through
 *   the CSSOM and would be allowed either way.
 * - `img-src data:`: the favicon in index.html is a `data:` SVG.
 * - `connect-src`: the app's files plus the Avail server (REST, replication and its
 *   Server-Sent Events stream).
 *
 * @param serverOrigin an http(s) origin; anything else is normalised with `normaliseServerOrigin`.
 * @throws Error when `serverOrigin` is not an http(s) address (a policy must never contain a
 *   caller's free text).
 */
export function desktopCsp(serverOrigin: string): string {
  const origin = normaliseServerOrigin(serverOrigin);
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    `connect-src 'self' ${origin}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
