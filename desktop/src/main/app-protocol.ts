/**
 * The `app://avail/…` protocol that serves the web build (`web/dist`) to the desktop renderer
 * (https://www.electronjs.org/docs/latest/api/protocol#protocolhandlescheme-handler).
 *
 * - `resolveAppRequest` is pure: URL → a file strictly inside the build folder, or 403/404.
 *   Traversal is refused in every spelling (`..`, `%2e%2e`, encoded slashes, backslashes, drive
 *   letters, empty segments), before any URL normalisation could hide it.
 * - Extension-less paths (`/app/dashboard`, `/`) fall back to `index.html` (the SPA's router
 *   decides); a missing file with an extension is a 404.
 * - Every response, errors included, carries the CSP from `shared/src/desktop/content-security-policy.ts`.
 */
import type { CustomScheme } from 'electron';
import { extname, isAbsolute, relative, resolve } from 'node:path';
import { DESKTOP_APP_ORIGIN } from '@avail/shared/desktop/desktop-bridge.ts';
import { isMissing } from './private-file.ts';

/** The renderer's scheme and host: `app://avail` (= `DESKTOP_APP_ORIGIN`). */
export const APP_SCHEME = 'app';
export const APP_HOST = 'avail';
/** The route the window opens at. */
export const APP_START_URL = `${DESKTOP_APP_ORIGIN}/app/dashboard`;

/**
 * `protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES])`, before the app's `ready`
 * (https://www.electronjs.org/docs/latest/api/protocol#protocolregisterschemesasprivilegedcustomschemes):
 * `standard` (relative URLs, origin `app://avail`, IndexedDB for the device database), `secure`
 * (a secure context), `supportFetchAPI` and `corsEnabled` (module scripts are CORS requests).
 * No `bypassCSP`, no `allowServiceWorkers` (the desktop app does not use the service worker).
 */
export const APP_SCHEME_PRIVILEGES: CustomScheme = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true },
};

/** Where an `app://` request leads. */
export type AppRequestResolution =
  /** Serve `file` (absolute, inside the build folder); `spaFallback` when it stands for an app route. */
  | { status: 200; file: string; spaFallback: boolean }
  /** 403: not our origin, or a path that tries to leave the build folder. 404: malformed. */
  | { status: 403 | 404 };

const FORBIDDEN: AppRequestResolution = { status: 403 };
const NOT_FOUND: AppRequestResolution = { status: 404 };

/**
 * Maps `requestUrl` (`app://avail/assets/index-abc.js?x#y`) to a file inside `distDir`.
 *
 * @param distDir absolute path of the web build (`…/web/dist`).
 * @param requestUrl the request's URL as Electron gives it.
 * @returns `{ status: 200, file, spaFallback }`, or `{ status: 403 }` for another scheme or host and
 *   for any path that is or encodes `..`/`.` segments, `%2f`, `%5c`, `%00`, backslashes, `:`,
 *   double encoding (`%25…`) or empty segments (`//`), or `{ status: 404 }` for undecodable escapes. Never throws.
 */
export function resolveAppRequest(distDir: string, requestUrl: string): AppRequestResolution {
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#\\]*)([^?#]*)/i.exec(String(requestUrl));
  if (!m) return FORBIDDEN;
  const [, scheme, host, rawPath] = m;
  if (scheme.toLowerCase() !== APP_SCHEME || host.toLowerCase() !== APP_HOST) return FORBIDDEN;
  if (rawPath !== '' && !rawPath.startsWith('/')) return FORBIDDEN;
  if (rawPath.includes('\\') || /%(2e|2f|5c|00)/i.test(rawPath)) return FORBIDDEN;

  const encoded = rawPath.split('/').slice(1);
  const segments: string[] = [];
  for (let i = 0; i < encoded.length; i++) {
    let seg: string;
    try {
      seg = decodeURIComponent(encoded[i]);
    } catch {
      return NOT_FOUND;
    }
    if (seg === '') {
      if (i === encoded.length - 1) continue; // trailing slash
      return FORBIDDEN; // `//` could make the rest absolute
    }
    if (seg === '.' || seg === '..' || /[\\/:%\0]/.test(seg)) return FORBIDDEN; // `%` left after decoding: double encoding
    segments.push(seg);
  }

  const root = resolve(distDir);
  const last = segments[segments.length - 1] ?? '';
  const spaFallback = segments.length === 0 || extname(last) === '' || rawPath.endsWith('/');
  const file = spaFallback ? resolve(root, 'index.html') : resolve(root, ...segments);
  const rel = relative(root, file);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return FORBIDDEN;
  return { status: 200, file, spaFallback };
}

/** `Content-Type` of the build's files; others are `application/octet-stream`. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

export interface AppProtocolHandlerDeps {
  /** Absolute path of the web build. */
  distDir: string;
  /** @throws an error with code ENOENT for a missing file. */
  readFile(file: string): Promise<Uint8Array>;
  /** The CSP for the current server origin (read per request: the owner may change the server). */
  csp(): string;
  log?: (message: string) => void;
}

/**
 * The handler for `protocol.handle('app', handler)`: resolves with {@link resolveAppRequest} and
 * answers a `Response` (200 with the file, 403, 404, or 500 when the build cannot be read) that
 * always has `Content-Security-Policy` and `X-Content-Type-Options: nosniff`. Only GET and HEAD
 * are served (405 otherwise). `index.html` is `Cache-Control: no-cache`.
 */
export function createAppProtocolHandler(deps: AppProtocolHandlerDeps): (request: { url: string; method?: string }) => Promise<Response> {
  const log = deps.log ?? (() => undefined);
  const headers = (extra: Record<string, string>): Headers =>
    new Headers({ 'Content-Security-Policy': deps.csp(), 'X-Content-Type-Options': 'nosniff', ...extra });
  const text = (status: number, body: string) => new Response(body, { status, headers: headers({ 'Content-Type': 'text/plain; charset=utf-8' }) });

  return async (request) => {
    const method = (request.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'HEAD') return text(405, 'Method Not Allowed');
    const resolved = resolveAppRequest(deps.distDir, request.url);
    if (resolved.status !== 200) return resolved.status === 403 ? text(403, 'Forbidden') : text(404, 'Not Found');
    let body: Uint8Array;
    try {
      body = await deps.readFile(resolved.file);
    } catch (e) {
      if (isMissing(e) || isDirectory(e)) return text(404, 'Not Found');
      log(`app protocol: could not read ${resolved.file}`);
      return text(500, 'Internal Server Error');
    }
    const type = CONTENT_TYPES[extname(resolved.file).toLowerCase()] ?? 'application/octet-stream';
    const extra: Record<string, string> = { 'Content-Type': type };
    if (resolved.file.endsWith('index.html')) extra['Cache-Control'] = 'no-cache';
    return new Response(method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers: headers(extra) });
  };
}

function isDirectory(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === 'EISDIR';
}
