/**
 * SSRF-safe fetch for user-given calendar URLs (ICS feeds, CalDAV servers).
 *
 * - Resolves the host itself and refuses loopback, private, link-local, unique-local, CGNAT,
 *   multicast, unspecified, reserved addresses and IPv4-mapped forms of those (only ipaddr.js's
 *   plain `unicast` range passes) unless `allowPrivate` is set (ALLOW_PRIVATE_CALENDAR_HOSTS=true).
 * - Connects to the vetted address (node:http `lookup` hook), so there is no DNS-rebinding window
 *   between the check and the connection; TLS still verifies the certificate for the host name.
 * - Follows at most 5 redirects and vets every hop; drops credentials on a cross-origin hop.
 * - One total deadline (20 s) across redirects, one body cap (10 MB, counted after decompression,
 *   streamed and aborted when exceeded).
 *
 * Returns a WHATWG `Response`, so it doubles as tsdav's `fetch` override.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import ipaddr from 'ipaddr.js';
import { CALENDAR_FETCH_TIMEOUT_MS, CALENDAR_MAX_BYTES } from '@avail/shared/constants.ts';

export type SafeFetchErrorCode =
  | 'address_not_allowed'
  | 'too_large'
  | 'timeout'
  | 'too_many_redirects'
  | 'invalid_url'
  | 'host_not_found'
  | 'unreachable';

/** A fetch failure whose message is safe to show to the owner (no secrets, no internals). */
export class SafeFetchError extends Error {
  readonly code: SafeFetchErrorCode;
  constructor(code: SafeFetchErrorCode, message: string) {
    super(message);
    this.name = 'SafeFetchError';
    this.code = code;
  }
}

export interface SafeFetchOptions {
  /** Allow private/loopback targets (ALLOW_PRIVATE_CALENDAR_HOSTS=true; local tests). */
  allowPrivate?: boolean;
  /** Total time for the request including redirects and body; default 20 s. */
  timeoutMs?: number;
  /** Body cap in bytes after decompression; default 10 MB. */
  maxBytes?: number;
  maxRedirects?: number;
  /** Address policy; default isPublicAddress (ignored when allowPrivate). Injectable for tests. */
  isAllowedAddress?: (address: string) => boolean;
  /** DNS resolution, injectable for tests. */
  resolve?: (host: string) => Promise<Array<{ address: string; family: number }>>;
  /** Called once per HTTP request actually sent (tests count requests with it). */
  onRequest?: (info: { method: string; url: string }) => void;
}

export type SafeFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** True when the address is a plain public unicast address (IPv4-mapped IPv6 judged as IPv4). */
export function isPublicAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return false;
  }
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() === 'unicast';
}

function formatLimit(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`;
}

function timeoutError(ms: number): SafeFetchError {
  const seconds = Math.round(ms / 1000);
  return new SafeFetchError('timeout', `Calendar server did not answer within ${seconds} ${seconds === 1 ? 'second' : 'seconds'}`);
}

async function defaultResolve(host: string) {
  return dnsLookup(host, { all: true, verbatim: true });
}

/** Resolves and vets a host; returns the address to connect to. */
async function vetHost(
  hostname: string,
  isAllowed: (address: string) => boolean,
  resolve: NonNullable<SafeFetchOptions['resolve']>,
): Promise<{ address: string; family: number }> {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  let candidates: Array<{ address: string; family: number }>;
  if (ipaddr.isValid(bare)) {
    candidates = [{ address: bare, family: bare.includes(':') ? 6 : 4 }];
  } else {
    try {
      candidates = await resolve(bare);
    } catch {
      throw new SafeFetchError('host_not_found', `Calendar server not found: ${bare}`);
    }
    if (candidates.length === 0) throw new SafeFetchError('host_not_found', `Calendar server not found: ${bare}`);
  }
  const allowed = candidates.find((c) => isAllowed(c.address));
  if (!allowed) throw new SafeFetchError('address_not_allowed', 'Address not allowed: private network');
  return allowed;
}

function toHeaderRecord(headers: ConstructorParameters<typeof Headers>[0]): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(headers ?? {}).forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

function bodyToBuffer(body: unknown): Buffer | undefined {
  if (body == null) return undefined;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (body instanceof URLSearchParams) return Buffer.from(body.toString(), 'utf8');
  throw new TypeError('safeFetch supports string and byte bodies only');
}

interface RawResponse {
  status: number;
  statusText: string;
  headers: Headers;
  body: Buffer | null;
}

/** Creates a fetch-compatible function with the guard's settings. */
export function createSafeFetch(options: SafeFetchOptions = {}): SafeFetch {
  const allowPrivate = options.allowPrivate ?? false;
  const timeoutMs = options.timeoutMs ?? CALENDAR_FETCH_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? CALENDAR_MAX_BYTES;
  const maxRedirects = options.maxRedirects ?? 5;
  const resolve = options.resolve ?? defaultResolve;
  const isAllowed = allowPrivate ? () => true : (options.isAllowedAddress ?? isPublicAddress);

  return async function safeFetch(input, init = {}) {
    const startUrl = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    let url: URL;
    try {
      url = new URL(startUrl);
    } catch {
      throw new SafeFetchError('invalid_url', 'Calendar URL is not valid');
    }
    let method = (init.method ?? 'GET').toUpperCase();
    let headers = toHeaderRecord(init.headers);
    let body = bodyToBuffer(init.body);
    const manual = init.redirect === 'manual';
    const deadline = Date.now() + timeoutMs;
    const outerSignal = init.signal ?? undefined;

    for (let hop = 0; ; hop++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new SafeFetchError('invalid_url', 'Only http and https calendar URLs are supported');
      }
      if (Date.now() >= deadline) throw timeoutError(timeoutMs);
      const target = await withDeadline(vetHost(url.hostname, isAllowed, resolve), deadline, timeoutMs);
      options.onRequest?.({ method, url: url.href });
      const raw = await sendOnce(url, method, headers, body, target, deadline, timeoutMs, maxBytes, outerSignal);

      const location = raw.headers.get('location');
      if (!manual && raw.status >= 300 && raw.status < 400 && raw.status !== 304 && location) {
        if (hop >= maxRedirects) throw new SafeFetchError('too_many_redirects', 'Calendar server redirected too many times');
        const next = new URL(location, url);
        if (next.origin !== url.origin) {
          delete headers.authorization;
          delete headers.cookie;
        }
        if (raw.status === 303 || ((raw.status === 301 || raw.status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
          delete headers['content-type'];
          delete headers['content-length'];
        }
        url = next;
        continue;
      }
      const response = new Response(NULL_BODY_STATUSES.has(raw.status) ? null : raw.body, {
        status: raw.status,
        statusText: raw.statusText,
        headers: raw.headers,
      });
      Object.defineProperty(response, 'url', { value: url.href });
      Object.defineProperty(response, 'redirected', { value: hop > 0 });
      return response;
    }
  };
}

function withDeadline<T>(promise: Promise<T>, deadline: number, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(timeoutError(timeoutMs)), Math.max(0, deadline - Date.now()));
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolvePromise(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

function sendOnce(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  target: { address: string; family: number },
  deadline: number,
  timeoutMs: number,
  maxBytes: number,
  signal: AbortSignal | undefined,
): Promise<RawResponse> {
  return new Promise<RawResponse>((resolvePromise, reject) => {
    let settled = false;
    const finish = (err: Error | null, value?: RawResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (err) {
        req.destroy();
        reject(err);
      } else resolvePromise(value!);
    };
    const lookup: LookupFunction = (_hostname, opts, cb) => {
      if ((opts as { all?: boolean }).all) {
        (cb as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [target]);
      } else cb(null, target.address, target.family);
    };
    const reqHeaders: Record<string, string> = {
      'accept-encoding': 'gzip, deflate, br',
      'user-agent': 'Avail calendar sync',
      ...headers,
    };
    if (body) reqHeaders['content-length'] = String(body.length);
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request({
      protocol: url.protocol,
      hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method,
      headers: reqHeaders,
      lookup,
      agent: false,
    });
    const timer = setTimeout(() => finish(timeoutError(timeoutMs)), Math.max(0, deadline - Date.now()));
    const onAbort = () => finish(new DOMException('The operation was aborted.', 'AbortError'));
    if (signal?.aborted) {
      onAbort();
      return;
    }
    signal?.addEventListener('abort', onAbort);

    req.on('error', (err: NodeJS.ErrnoException) => {
      if (settled) return;
      const code = err.code ?? '';
      if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') finish(new SafeFetchError('host_not_found', `Calendar server not found: ${url.hostname}`));
      else finish(new SafeFetchError('unreachable', `Calendar server could not be reached (${code || 'connection failed'})`));
    });
    req.on('response', (res) => {
      const tooLarge = () => new SafeFetchError('too_large', `Calendar feed is larger than ${formatLimit(maxBytes)}`);
      const declared = Number(res.headers['content-length']);
      const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase().trim();
      if (!encoding && Number.isFinite(declared) && declared > maxBytes) {
        finish(tooLarge());
        return;
      }
      let stream: Readable = res;
      if (encoding === 'gzip' || encoding === 'x-gzip') stream = res.pipe(zlib.createGunzip());
      else if (encoding === 'deflate') stream = res.pipe(zlib.createInflate());
      else if (encoding === 'br') stream = res.pipe(zlib.createBrotliDecompress());
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          finish(tooLarge());
          res.destroy();
          return;
        }
        chunks.push(chunk);
      });
      stream.on('error', () => finish(new SafeFetchError('unreachable', 'Calendar server sent an unreadable response')));
      res.on('aborted', () => finish(new SafeFetchError('unreachable', 'Calendar server closed the connection early')));
      stream.on('end', () => {
        const outHeaders = new Headers();
        for (const [key, value] of Object.entries(res.headers)) {
          if (value === undefined) continue;
          if (encoding && (key === 'content-encoding' || key === 'content-length')) continue;
          if (Array.isArray(value)) for (const v of value) outHeaders.append(key, v);
          else outHeaders.set(key, value);
        }
        finish(null, {
          status: res.statusCode ?? 502,
          statusText: res.statusMessage ?? '',
          headers: outHeaders,
          body: Buffer.concat(chunks),
        });
      });
    });
    req.end(body);
  });
}
