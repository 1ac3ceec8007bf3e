/**
 * The auth half of the CalDAV adapter (caldav.provider.ts composes it with caldav-discovery.ts and
 * caldav-sync.ts; caldav-writer.ts uses it too): the Basic `authorization` header, the guarded
 * fetch handed to tsdav, the error mapping of one sync, and the readers of tsdav's parsed answers.
 *
 * All requests go through the SSRF-guarded fetch. Credentials are only in the Authorization header.
 * Never logs: this module has no logger; error messages carry no password, title or address.
 */
import type { DAVResponse } from 'tsdav';
import { SafeFetchError, type SafeFetch } from '../../lib/safe-fetch.ts';
import { ProviderAuthError, ProviderError } from '../provider.ts';

/** The auth error of 'caldav' connections (sync and writer). */
export const CALDAV_INVALID_CREDENTIALS = 'Invalid credentials. Please check your CalDAV username and password.';

/** The Basic `authorization` header (RFC 7617, UTF-8) of a CalDAV account; used by sync and the writer. */
export function basicAuth(username: string, password: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}` };
}

/**
 * Wraps the guarded fetch for tsdav: turns network errors (SafeFetchError) into owner-facing
 * ProviderErrors and notes whether any answer was 401 (`seen.unauthorized`); used by sync and the writer.
 */
export function trackingFetch(base: SafeFetch) {
  const seen = { unauthorized: false };
  const f: typeof fetch = async (input, init) => {
    try {
      const res = await base(input as string, init);
      if (res.status === 401) seen.unauthorized = true;
      return res;
    } catch (err) {
      if (err instanceof SafeFetchError) throw new ProviderError(err.message);
      throw err;
    }
  };
  return { fetch: f, seen };
}

/** One sync's requests: Basic auth, the tracking fetch, and the error mapping of every tsdav call. */
export interface CaldavSession {
  /** The Basic `authorization` header. */
  headers: Record<string, string>;
  /** The guarded fetch (trackingFetch) to hand to tsdav. */
  fetch: typeof fetch;
  /** `unauthorized` turns true once any answer was 401. */
  seen: { unauthorized: boolean };
  /** The ProviderAuthError of this connection's kind (the adapter's `authErrorMessage`). */
  authFailed(): ProviderAuthError;
  /**
   * Runs a tsdav call: a 401 seen meanwhile → authFailed(); a ProviderError passes as is; any other
   * error → ProviderError('Could not read calendars from the CalDAV server (…)').
   */
  wrap<T>(fn: () => Promise<T>): Promise<T>;
}

/** The session of one sync of the account `username` with password `secret` over `base` (ctx.fetch). */
export function openCaldavSession(username: string, secret: string, base: SafeFetch, authErrorMessage: string): CaldavSession {
  const headers = basicAuth(username, secret);
  const { fetch, seen } = trackingFetch(base);
  const authFailed = () => new ProviderAuthError(authErrorMessage);
  const wrap = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      if (seen.unauthorized) throw authFailed();
      if (err instanceof ProviderError) throw err;
      throw new ProviderError(`Could not read calendars from the CalDAV server (${(err as Error).message})`);
    }
  };
  return { headers, fetch, seen, authFailed, wrap };
}

// ---------------------------------------------------------------------------------------------
// Reading tsdav's parsed answers
// ---------------------------------------------------------------------------------------------

/** A property value as tsdav parses it (string, number, `{ _cdata }` or `{ _text }`) as a string; undefined otherwise. */
export function asString(v: unknown): string | undefined {
  if (v == null) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  if (typeof v === 'object' && v && '_cdata' in v) return String((v as { _cdata: unknown })._cdata);
  if (typeof v === 'object' && v && '_text' in v) return String((v as { _text: unknown })._text);
  return undefined;
}

/** The error entry tsdav returns when the whole request failed (no multistatus): it has no props. */
export function transportFailure(res: DAVResponse[]): DAVResponse | undefined {
  return res.find((r) => !r.ok && r.props === undefined);
}

/** Whether two hrefs name the same resource: decoded paths compared without trailing slashes. */
export function sameUrl(a: string, b: string): boolean {
  const norm = (u: string) => decodeURIComponent(new URL(u).pathname).replace(/\/+$/, '');
  try {
    return norm(a) === norm(b);
  } catch {
    return a === b; // not both URLs (or bad %-escapes): compare as written
  }
}
