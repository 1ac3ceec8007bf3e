/**
 * The API client's transport (product spec §7): one fetch wrapper with the spec's "Handling of
 * answers" rules (ApiError, `checkAnswer`), the bearer token store (spec §9), the server origin
 * and the 401 listener. Browser-safe and light: it imports constants only (no zod). The typed
 * calls built on it are in the `*-calls.ts` files; `api-client.ts` is the front door.
 */
import { API_BASE_PATH, AUTH_TOKEN_STORAGE_KEY, GENERIC_ERROR_MESSAGE } from '../constants.ts';

/** An API failure: the server's message (default 'Something went wrong'), HTTP status and body. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(message: string, status: number, body: unknown) {
    super(message || GENERIC_ERROR_MESSAGE);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
  /** Field errors `{ field: message }` of a 422/400 answer, when the server sent some. */
  get fieldErrors(): Record<string, string> | undefined {
    const b = this.body as { errors?: unknown } | null;
    if (b && typeof b === 'object' && b.errors && typeof b.errors === 'object') return b.errors as Record<string, string>;
    return undefined;
  }
  get code(): string | undefined {
    const b = this.body as { code?: unknown } | null;
    return b && typeof b === 'object' && typeof b.code === 'string' ? b.code : undefined;
  }
}

/**
 * The server's own message of a failed call: the body's `error`, else its `message` — or
 * `undefined` when the server sent none (a bare 500 `{}`, an empty 401, a network failure, any
 * non-ApiError). Screens follow it with their own spec §8 fallback; `ApiError.message` keeps the
 * §7 client default 'Something went wrong' for callers that want one string.
 */
export function serverMessage(err: unknown): string | undefined {
  if (!(err instanceof ApiError)) return undefined;
  const b = err.body;
  if (!b || typeof b !== 'object') return undefined;
  const { error, message } = b as { error?: unknown; message?: unknown };
  if (typeof error === 'string' && error.trim()) return error;
  if (typeof message === 'string' && message.trim()) return message;
  return undefined;
}

// ---- token storage and server origin ---------------------------------------------------------

/** Where the bearer token lives. Default: localStorage under `auth_token` (spec §9). */
export interface TokenStore {
  get(): string | null;
  set(token: string): void;
  clear(): void;
}

function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined; // storage blocked (privacy settings, sandboxed frame): no saved session
  }
}

/** The browser's store: localStorage `auth_token`, read on every call so tabs agree. */
export const localStorageTokenStore: TokenStore = {
  get: () => storage()?.getItem(AUTH_TOKEN_STORAGE_KEY) ?? null,
  set: (token) => storage()?.setItem(AUTH_TOKEN_STORAGE_KEY, token),
  clear: () => storage()?.removeItem(AUTH_TOKEN_STORAGE_KEY),
};

let tokenStore: TokenStore = localStorageTokenStore;
let serverOrigin = '';

/**
 * Points the client at a server and a token store (the desktop app: its configured server origin
 * and the OS-encrypted token behind the platform bridge). `origin` '' = the page's own origin.
 * Called once at start-up, before the first request.
 */
export function configureApiClient(opts: { origin?: string; tokenStore?: TokenStore }): void {
  if (opts.origin !== undefined) serverOrigin = opts.origin.replace(/\/$/, '');
  if (opts.tokenStore) tokenStore = opts.tokenStore;
}

/** The server origin requests go to ('' = same origin). */
export function apiOrigin(): string {
  return serverOrigin;
}

export function getToken(): string | null {
  return tokenStore.get();
}
export function setToken(token: string): void {
  tokenStore.set(token);
}
export function clearToken(): void {
  tokenStore.clear();
}

let unauthorizedListener: ((err: ApiError) => void) | null = null;

/**
 * Registers what runs when the server answers 401 to a call that carried the token still stored
 * (the session expired — code `session_expired` — or was ended elsewhere; issue 26): the web app's
 * session signs out. Calls without a token (sign-in, public pages) and answers for a token that has
 * since been replaced never reach it. `null` removes it.
 */
export function setUnauthorizedListener(fn: ((err: ApiError) => void) | null): void {
  unauthorizedListener = fn;
}

/** The answer check of an authenticated call: a 401 for the token still stored tells the listener. */
function checkAuthenticated<T>(status: number, ok: boolean, body: unknown, sentToken: string | null): T {
  try {
    return checkAnswer<T>(status, ok, body);
  } catch (e) {
    if (status === 401 && sentToken && e instanceof ApiError && getToken() === sentToken) unauthorizedListener?.(e);
    throw e;
  }
}

// ---- the wrapper ---------------------------------------------------------------------------

export interface RequestOptions {
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Bytes sent as they are (instead of JSON `body`), with the Blob's type as Content-Type (an uploaded picture). */
  rawBody?: Blob;
  /** Public calls send no Authorization header even when a token exists. */
  auth?: boolean;
  signal?: AbortSignal;
}

/** Applies the spec's answer rules to a parsed body; returns it or throws ApiError. */
export function checkAnswer<T>(status: number, ok: boolean, body: unknown): T {
  const b = (body && typeof body === 'object' ? body : {}) as { error?: unknown; message?: unknown };
  const hasError = b.error !== undefined && b.error !== null && b.error !== false && b.error !== '';
  if (!ok || hasError || b.message === GENERIC_ERROR_MESSAGE) {
    const message =
      (typeof b.error === 'string' && b.error.trim() && b.error) ||
      (typeof b.message === 'string' && b.message.trim() && b.message) ||
      GENERIC_ERROR_MESSAGE;
    throw new ApiError(message, status, body);
  }
  return body as T;
}

export async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  let url = serverOrigin + API_BASE_PATH + path;
  if (opts.query) {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.query)) if (v !== undefined) qs.set(k, String(v));
    const s = qs.toString();
    if (s) url += (url.includes('?') ? '&' : '?') + s;
  }
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (opts.rawBody !== undefined) headers['Content-Type'] = opts.rawBody.type || 'application/octet-stream';
  else if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  const token = opts.auth === false ? null : getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(url, {
    method,
    headers,
    body: opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)),
    // Spec §6: credentials included on the page's own origin. A desktop app's server is another
    // origin: bearer token only, no cookies (its CORS allows no credentials).
    credentials: serverOrigin ? 'omit' : 'include',
    signal: opts.signal,
  });
  let body: unknown = null;
  const text = await res.text();
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = { message: text }; // not JSON (a proxy's error page): kept as the message, checkAnswer maps the status
    }
  }
  return checkAuthenticated<T>(res.status, res.ok, body, token);
}

export const get = <T>(path: string, opts?: RequestOptions) => request<T>('GET', path, opts);
export const post = <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('POST', path, { ...opts, body });
export const put = <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PUT', path, { ...opts, body });
export const del = <T>(path: string, opts?: RequestOptions) => request<T>('DELETE', path, opts);

/**
 * GET of a binary answer with the signed-in token (an `<img>` cannot send it): the body as a Blob,
 * null on 404; other failures throw ApiError like `request`.
 */
export async function getBytes(path: string): Promise<Blob | null> {
  const token = getToken();
  const res = await fetch(serverOrigin + API_BASE_PATH + path, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    credentials: serverOrigin ? 'omit' : 'include',
  });
  if (res.status === 404) return null;
  if (!res.ok) {
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = { message: text };
    }
    return checkAuthenticated<never>(res.status, false, body, token);
  }
  return res.blob();
}
