/**
 * Security headers for every response (helmet, https://helmetjs.github.io/):
 *
 * - Content-Security-Policy for the pages this server sends (the owner app's index.html and the
 *   server-rendered public page). Scripts only from this origin: no inline script anywhere (the
 *   public page's data travels in `<script type="application/json">`, which is data, never run),
 *   so a script injected into a page cannot run and read the session token in Web Storage.
 *   Styles allow 'unsafe-inline': React's `style=` attributes and the `<style>` element radix's
 *   scroll lock inserts need it; styles cannot read the token. `connect-src 'self'`: the app talks
 *   only to this server. `worker-src 'self'`: the app-shell service worker.
 * - `frame-ancestors 'none'` and `X-Frame-Options: DENY`: no site may frame any page — except the
 *   embed route `/embed/:username` (issue 14 item 7), whose responses get `allowFraming` below.
 * - Strict-Transport-Security (180 days, subdomains) only when PUBLIC_BASE_URL is https: sending
 *   it over plain http on a LAN or loopback install would do nothing useful and could lock a
 *   browser out of a later http setup.
 * - Cross-Origin-Opener-Policy is left off: Google/Microsoft consent opens in a popup that the app
 *   watches (`popup.closed`), and COOP would cut that link when the popup visits the provider.
 */
import { randomBytes } from 'node:crypto';
import helmet from 'helmet';
import type { RequestHandler, Response } from 'express';

/** HSTS max-age (s): 180 days. */
const HSTS_MAX_AGE_S = 180 * 24 * 3600;

/** The CSP directives (helmet's format). */
const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  workerSrc: ["'self'"],
  manifestSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
} as const;

/** The helmet middleware for `publicBaseUrl` (config PUBLIC_BASE_URL; HSTS only when https). */
export function securityHeaders(publicBaseUrl: string): RequestHandler {
  const https = /^https:\/\//i.test(publicBaseUrl);
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { ...CSP_DIRECTIVES } },
    strictTransportSecurity: https ? { maxAge: HSTS_MAX_AGE_S, includeSubDomains: true } : false,
    xFrameOptions: { action: 'deny' },
    crossOriginOpenerPolicy: false,
    // The desktop app (app://avail) calls /api with CORS; CORP only governs no-cors loads.
    crossOriginResourcePolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * Lets one small server-made page run its own inline script: a fresh nonce (128 bits, base64) is
 * added to this response's `script-src` (replacing the policy helmet set) and returned for the
 * page's `<script nonce="…">`. Used by the OAuth popup's last page (modules/oauth).
 */
export function allowInlineScriptOnce(res: Response): string {
  const nonce = randomBytes(16).toString('base64');
  const directives: Record<string, readonly string[]> = { ...CSP_DIRECTIVES, scriptSrc: [...CSP_DIRECTIVES.scriptSrc, `'nonce-${nonce}'`] };
  res.setHeader('Content-Security-Policy', Object.entries(directives).map(([k, v]) => `${kebab(k)} ${v.join(' ')}`).join(';'));
  return nonce;
}

/**
 * Lets other sites frame this response (the embed route `/embed/:username`, issue 14 item 7): the
 * same CSP with `frame-ancestors *` (any http/https/ws origin; RFC 6454 origins, CSP3 §7.7.2), no
 * X-Frame-Options, and `Cross-Origin-Resource-Policy: cross-origin`. Every other response keeps
 * `frame-ancestors 'none'` and `X-Frame-Options: DENY`.
 */
export function allowFraming(res: Response): void {
  const directives: Record<string, readonly string[]> = { ...CSP_DIRECTIVES, frameAncestors: ['*'] };
  res.setHeader('Content-Security-Policy', Object.entries(directives).map(([k, v]) => `${kebab(k)} ${v.join(' ')}`).join(';'));
  res.removeHeader('X-Frame-Options');
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
}
