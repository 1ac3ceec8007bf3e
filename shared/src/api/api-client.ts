/**
 * Typed API client (product spec §7). One fetch wrapper with the spec's "Handling of answers"
 * rules and one typed function per call. Browser-safe and light: it imports constants only
 * (no zod), so the visitor's public page can use it without pulling in the schemas.
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

// ---- shapes --------------------------------------------------------------------------------

export interface User {
  id: string | number;
  name: string;
  email: string;
  timezone: string | null;
  username: string | null;
  slug: string | null;
  can_change_username: boolean;
  days_until_change: number;
  email_verified_at: string | null;
  /** The public link visitors use (`PUBLIC_BASE_URL/username`), null without a username. Absent from older servers. */
  public_url?: string | null;
  /** The owner's date and time format (issue 22 item 3): BCP 47 locale, null = the browser's own. Absent from older servers. */
  format_locale?: string | null;
  /** true = 12-hour clock, false = 24-hour, null = the locale's own. Absent from older servers. */
  hour12?: boolean | null;
  /** First day of the week, 0 = Sunday … 6 = Saturday, null = automatic (Monday, spec Z-11). Absent from older servers. */
  week_start?: number | null;
  /** Two-factor sign-in (TOTP) is on (docs/account-security.md, issue 26). Absent from older servers. */
  two_factor_enabled?: boolean;
}
/** POST /me/two-factor/setup answer: the pending secret, as text, as an otpauth:// URL and as a QR code (SVG markup). */
export interface TwoFactorSetup {
  /** Base32 secret (RFC 4648), 30-second steps, 6 digits, SHA-1 (RFC 6238). */
  secret: string;
  otpauth_url: string;
  /** The QR code of `otpauth_url` as SVG markup (shown as an image, never inserted into the page). */
  qr_svg: string;
}
export interface AuthResponse {
  user?: User | null;
  token?: string | null;
  requires_verification?: boolean;
  message?: string;
  email?: string;
}
export interface VerifyResponse {
  success?: boolean;
  message?: string;
  user?: User;
  token?: string;
}
export interface Profile {
  username: string | null;
  can_change_username: boolean;
  days_until_change: number;
  timezone?: string | null;
  /** One-line introduction on the public page (≤ 160 characters), null = none (issue 22). Absent from older servers. */
  intro?: string | null;
  /** The picture's public, versioned path (`/api/public/{username}/avatar.webp?v=…`), null without a picture or username. */
  avatar_url?: string | null;
  /** The picture's version, null without a picture (the owner's own copy: `api.ownAvatar()`). */
  avatar_version?: string | null;
  /** The owner's date and time format (as on User; null = automatic). Absent from older servers. */
  format_locale?: string | null;
  hour12?: boolean | null;
  week_start?: number | null;
}
/** PUT /me/avatar answer. */
export interface AvatarUpload {
  /** Public, versioned path of the new picture; null until the owner has a username. */
  avatar_url: string | null;
  avatar_version: string;
}
/** The host shown once on the public page (issue 22). */
export interface PublicHost {
  /** One-line introduction, null = none. */
  intro: string | null;
  /**
   * Root-relative, versioned path of the picture (`/api/public/{username}/avatar.webp?v=…`, on the API's
   * origin), null = none (show initials). A visitor who came through a personal link adds `&key=…`.
   */
  avatar_url: string | null;
}
export interface AvailabilityRule {
  id?: string | number;
  weekday: number;
  start_time_local: string;
  end_time_local: string;
}
export interface AvailabilityException {
  id: string | number;
  date?: string;
  start_time_local?: string | null;
  end_time_local?: string | null;
}
export interface DashboardStats extends Partial<ViewsChange> {
  total_views: number;
  has_availability: boolean;
  this_week_events: number;
  user_slug: string;
}
export type CalendarProvider = 'ics' | 'caldav' | 'apple' | 'google' | 'microsoft';
export interface CalendarConnection {
  id: string | number;
  provider: CalendarProvider;
  name: string | null;
  status: string;
  connected_at: string | null;
  calendars_count: number;
  included_calendars_count: number;
  last_synced_at: string | null;
  last_error: string | null;
  warnings?: string[] | null;
  /** The connection's busy rules (REST only; the device's copy of a connection has none). */
  busy_rules?: BusyRules;
}
/** One connection's outcome of Sync Now. */
export interface SyncNowResult {
  connection_id: string;
  name: string;
  provider: CalendarProvider;
  ok: boolean;
  /** Owner-facing reason of a failure; null when it synced. */
  error: string | null;
}
export interface SyncNowResponse {
  success: boolean;
  message: string;
  connections: CalendarConnection[];
  /** Absent from older servers. */
  results?: SyncNowResult[];
}
export interface CalendarEvent {
  id: string | number;
  title: string;
  start: string;
  end: string;
  all_day: boolean;
  provider: string;
}
export interface FreeWindow {
  start: string;
  end: string;
}
export interface PublicAvailability {
  user_name: string;
  user_timezone: string;
  /** Oldest last good sync of the owner's calendars (ISO `Z`), null without any (older servers: absent). */
  as_of?: string | null;
  /** True when the busy time may be out of date (a calendar failing, expired or not synced for 30 min). */
  stale?: boolean;
  /** Clock changes of the owner's zone and the visitor's inside the range (offsets in minutes east of UTC). */
  zone_changes?: Array<{ at: string; zone: string; offset_before: number; offset_after: number }>;
  /** The host: introduction and picture (issue 22). Absent from older servers. */
  host?: PublicHost;
  /**
   * When the range holds no free time from now on: the start (ISO `Z`) of the first free window
   * after it within the public horizon, or null when there is none (issue 22: free time first).
   * Absent when the range has free time.
   */
  next_free?: string | null;
  availability: { windows: FreeWindow[]; range?: { start: string; end: string } };
}

/** A public link of the owner (GET /me/links). Today one per owner, derived from the username. */
export interface OwnerLink {
  id: string;
  slug: string;
  /** Absolute URL: APP_BASE_URL + '/' + slug. */
  url: string;
  created_at: string;
}
/** One day of public-page views (GET /me/analytics/links): distinct visitors that day, owner's zone. */
export interface LinkAnalyticsEntry {
  /** `${link_id}:${date}` */
  id: string;
  link_id: string;
  /** YYYY-MM-DD in the owner's zone. */
  date: string;
  views: number;
}
export interface LinkAnalytics {
  /** Every day of the range, oldest first, zeros included. */
  analytics: LinkAnalyticsEntry[];
  days: number;
  total: number;
  /** Views in the `days` days before the range. */
  previous_total: number;
}
/** Total Views card (dashboard): the last 7 days against the 7 before. */
export interface ViewsChange {
  views_last_7_days: number;
  views_previous_7_days: number;
  /** Rounded percent change; null when the previous period had no views. */
  views_change_percent: number | null;
}
/** POST /me/profile/generate-email-text answer (spec §7, §8). */
export interface GeneratedEmailText {
  success: boolean;
  text: string;
  /** True when `text` is the default template (generation failed or no free windows to list). */
  default: boolean;
  error?: string;
}
/** A visitor's proposed time as the owner sees it (issue 24: status, the meeting's UID, pending offline action). */
export type Proposal = OwnerProposal;
/** A manual busy block (issue 10) as GET /me/blocks returns it: `[start_ms, end_ms)` UTC epoch ms; the note is the owner's only. */
export interface BusyBlock {
  id: string;
  start_ms: number;
  end_ms: number;
  note: string | null;
}
export interface ProposalInput {
  start: string;
  end: string;
  name: string;
  email: string;
  note?: string;
  visitor_timezone: string;
  /** The page's language (en, de, fr, es, nl, pt): the visitor's later e-mails are written in it. */
  language?: string;
}
/** One signed-in session of the owner (GET /me/sessions, issue 26; docs/account-security.md "Sessions"). */
export interface AccountSession {
  id: string;
  /** 'Chrome on macOS', 'Avail desktop on Windows', 'Unknown device' (≤ 100 characters). */
  label: string;
  /** ISO 8601 UTC: when the session signed in. */
  created_at: string;
  /** ISO 8601 UTC: its last request (written at most once a minute). */
  last_used_at: string;
  /** true for the session making this request. */
  current: boolean;
}
/** A `{ success, message }` answer of an account change (password, e-mail). */
export interface AccountChangeResult {
  success: true;
  message: string;
}
/** POST /api/proposal-links/inspect answer: what the e-mail's one-click link does, asked once before it acts. */
export interface ProposalLinkInfo {
  action: 'confirm' | 'decline';
  owner_timezone: string;
  proposal: Pick<OwnerProposal, 'id' | 'start' | 'end' | 'name' | 'note' | 'visitor_timezone' | 'status'>;
}

export type { ReplacedVersion } from '../rx/replication-protocol.ts';
export type { BusyRules } from '../ical/busy-rules.ts';
export type { ShareLink, ShareLinks } from '../schemas/share-link.schema.ts';
export type { EventSource } from '../schemas/calendar.schema.ts';
import type { ShareLink, ShareLinks } from '../schemas/share-link.schema.ts';
import type { ConnectionCalendar, EventSource } from '../schemas/calendar.schema.ts';
import type { BusyRules } from '../ical/busy-rules.ts';
import type { CalendarTarget, OwnerProposal, ProposalSettings } from '../schemas/proposal.schema.ts';
export type { CalendarTarget, OwnerProposal, ProposalSettings, WritableCalendar, ProposalStatus, ProposalAction } from '../schemas/proposal.schema.ts';
import type { ReplacedVersion } from '../rx/replication-protocol.ts';

// ---- calls ---------------------------------------------------------------------------------

export const api = {
  register: (body: { name: string; email: string; password: string; password_confirmation: string }) =>
    post<AuthResponse>('/auth/register', body),
  /**
   * Login: an unverified account may answer 403 with `requires_verification` — the body wins.
   * An owner with two-factor sign-in on answers 401 `two_factor_required` without `two_factor_code`
   * and 401 `invalid_two_factor_code` for a wrong one (a TOTP code or a recovery code
   * `xxxxx-xxxxx`); both throw ApiError (docs/account-security.md). 429 while throttled.
   */
  login: async (body: { email: string; password: string; two_factor_code?: string }): Promise<AuthResponse> => {
    try {
      return await post<AuthResponse>('/auth/login', body);
    } catch (e) {
      const b = e instanceof ApiError ? (e.body as AuthResponse | null) : null;
      if (b && b.requires_verification === true) return b;
      throw e;
    }
  },
  logout: () => post<unknown>('/auth/logout'),
  verifyEmail: (body: { email: string; verification_code: string }) => post<VerifyResponse>('/auth/verify-email', body),
  resendVerification: (email: string) => post<{ success?: boolean; message?: string }>('/auth/resend-verification', { email }),

  /**
   * DELETE /me `{ password, two_factor_code? }`: deletes the account and everything it owns. 204; 422
   * with `errors.password` for a missing or wrong password, or `errors.two_factor_code` when
   * two-factor sign-in is on and the code (TOTP or recovery code) is missing or wrong (nothing
   * deleted); 429 while throttled.
   */
  deleteAccount: (password: string, twoFactorCode?: string) =>
    del<null>('/me', { body: twoFactorCode ? { password, two_factor_code: twoFactorCode } : { password } }),
  /**
   * POST /me/two-factor/setup: a new pending secret (replaces an earlier pending one). 409
   * `two_factor_enabled` when two-factor sign-in is already on.
   */
  twoFactorSetup: (password: string) => post<TwoFactorSetup>('/me/two-factor/setup', { password }),
  /**
   * POST /me/two-factor/enable `{ code }` (the 6-digit code of the pending secret): two-factor
   * sign-in is on; the 10 recovery codes (`xxxxx-xxxxx`, each works once) are returned this once.
   * 422 `invalid_two_factor_code`; 409 `two_factor_setup_required` without a pending setup.
   */
  twoFactorEnable: (code: string) => post<{ recovery_codes: string[]; ended_sessions?: number }>('/me/two-factor/enable', { code }),
  /**
   * DELETE /me/two-factor `{ password, code }` (a current TOTP code or a recovery code): off. 204;
   * 422 with `errors.password` / `errors.code`; 429 while throttled.
   */
  twoFactorDisable: (body: { password: string; code: string }) => del<null>('/me/two-factor', { body }),
  me: (bust = false) => get<{ user: User }>('/me', bust ? { query: { t: Date.now() } } : undefined),

  /** GET /me/sessions (issue 26): the owner's sessions, the current one first, then by last use, newest first. */
  sessions: () => get<{ sessions: AccountSession[] }>('/me/sessions'),
  /** DELETE /me/sessions/{id}: that session's token stops working (204; the current one too); 404 `not_found`. */
  endSession: (id: string) => del<null>(`/me/sessions/${encodeURIComponent(id)}`),
  /** DELETE /me/sessions: every session but the current one ends; 200 `{ ended }` (how many). */
  endOtherSessions: () => del<{ ended: number }>('/me/sessions'),
  /**
   * PUT /me/password: changes the password while signed in; every other session ends and this one goes
   * on under a new token. 200 `{ success, message, token }` (store `token`: the one sent stopped working);
   * 422 `validation_failed` with `errors.current_password` / `errors.password` / `errors.password_confirmation`;
   * with two-factor sign-in on, `two_factor_code` (TOTP or recovery code) is needed too: 422
   * `two_factor_required` / `invalid_two_factor_code` with `errors.two_factor_code`;
   * 429 while the login throttle or the second-factor throttle holds the account (`Retry-After`).
   */
  changePassword: (body: { current_password: string; password: string; password_confirmation: string; two_factor_code?: string }) =>
    put<AccountChangeResult & { token?: string }>('/me/password', body),
  /**
   * POST /me/email: sends a 6-digit code (15 min, 5 guesses) to the new address; the current one is told. 200
   * `{ success, message, email }`; 409 `email_taken` (`errors.email`); 422 `errors.password` / `errors.email`, or
   * with two-factor sign-in on `errors.two_factor_code` (`two_factor_required` / `invalid_two_factor_code`: a TOTP
   * or recovery code is needed); 429 more than 6 codes an hour or while throttled.
   */
  requestEmailChange: (body: { email: string; password: string; two_factor_code?: string }) => post<AccountChangeResult & { email: string }>('/me/email', body),
  /** POST /me/email/verify: the code moves the account to the new address. 200 `{ success, message, user }`; 422 `invalid_code`; 429. */
  verifyEmailChange: (code: string) => post<AccountChangeResult & { user: User }>('/me/email/verify', { code }),
  profile: () => get<{ profile: Profile }>('/me/profile'),
  updateTimezone: (timezone: string) => put<unknown>('/me/profile', { timezone }),
  /** The one-line introduction (trimmed by the server, ≤ 160; '' or null removes it). 422 with `errors.intro`. */
  updateIntro: (intro: string | null) => put<{ success: true; message: string; profile: Profile }>('/me/profile', { intro }),
  /**
   * The owner's date and time format (issue 22 item 3); only the given fields change, null = automatic.
   * `format_locale` BCP 47 (saved canonical), `week_start` 0 = Sunday … 6. 422 with `errors.format_locale` /
   * `errors.hour12` / `errors.week_start`.
   */
  updateFormatPrefs: (prefs: { format_locale?: string | null; hour12?: boolean | null; week_start?: number | null }) =>
    put<{ success: true; message: string; profile: Profile }>('/me/profile', prefs),
  /** A new picture (PNG, JPEG or WebP ≤ 2 MB; the Blob's type is sent as Content-Type). 422/413 with `errors.avatar`. */
  uploadAvatar: (file: Blob) => put<AvatarUpload>('/me/avatar', undefined, { rawBody: file }),
  removeAvatar: () => del<null>('/me/avatar'),
  /** The owner's own stored picture (256×256 WebP), null when there is none. */
  ownAvatar: () => getBytes('/me/avatar'),
  updateUsername: (username: string) => put<{ profile?: Profile }>('/me/profile/username', { username }),
  checkUsername: (username: string) => post<{ available: boolean }>('/me/profile/check-username', { username }),

  availabilityRules: () => get<{ rules: AvailabilityRule[] }>('/me/availability-rules'),
  replaceAvailabilityRules: (rules: Omit<AvailabilityRule, 'id'>[]) =>
    post<{ rules?: AvailabilityRule[] }>('/me/availability-rules', { rules }),
  exceptions: () => get<{ exceptions: AvailabilityException[] }>('/me/exceptions'),
  createException: (body: { date: string; start_time_local: string | null; end_time_local: string | null }) =>
    post<{ exception: AvailabilityException }>('/me/exceptions', body),
  deleteException: (id: string | number) => del<unknown>(`/me/exceptions/${encodeURIComponent(String(id))}`),

  dashboardStats: () => get<DashboardStats>('/me/dashboard/stats'),
  /** GET /me/conflicts: the owner's versions replaced by another device's in the last 30 days, newest first (≤ 50). */
  conflicts: () => get<{ conflicts: ReplacedVersion[] }>('/me/conflicts'),

  connections: () => get<{ connections: CalendarConnection[] }>('/me/calendar/connections'),
  /** GET /me/calendar/events/{id}/source: "why is this time blocked?" (owner-only); 404 when gone. */
  eventSource: (id: string | number) => get<EventSource>(`/me/calendar/events/${encodeURIComponent(String(id))}/source`),
  /** PUT /me/calendar/connections/{id}/busy-rules: 200 `{ connection }` re-derived; 422 `errors`; 404. */
  setBusyRules: (id: string, rules: BusyRules) => put<{ connection: CalendarConnection }>(`/me/calendar/connections/${encodeURIComponent(id)}/busy-rules`, rules),
  /** GET /me/calendar/connections/{id}/calendars: the connection's calendars with their busy switches (issue 23); 404. */
  connectionCalendars: (id: string | number) =>
    get<{ calendars: ConnectionCalendar[] }>(`/me/calendar/connections/${encodeURIComponent(String(id))}/calendars`),
  /** PUT /me/calendar/connections/{id}/calendars: 200 `{ calendars, connection }` re-derived (the public page follows at once); 422 `errors`; 404. */
  setConnectionCalendars: (id: string | number, calendars: Array<{ id: string; busy: boolean }>) =>
    put<{ calendars: ConnectionCalendar[]; connection: CalendarConnection }>(`/me/calendar/connections/${encodeURIComponent(String(id))}/calendars`, { calendars }),
  connectIcs: (url: string) => post<{ connection?: CalendarConnection }>('/me/calendar/ics/connect', { url }),
  connectCaldav: (body: { server_url: string; username: string; password: string }) =>
    post<{ connection?: CalendarConnection }>('/me/calendar/caldav/connect', body),
  connectApple: (body: { apple_id: string; app_specific_password: string }) =>
    post<{ connection?: CalendarConnection }>('/me/calendar/apple/connect', body),
  /** DELETE /me/calendar/connections/{id}: ICS feeds and CalDAV servers (several per owner). */
  disconnect: (id: string | number) => del<unknown>(`/me/calendar/connections/${encodeURIComponent(String(id))}`),
  /** DELETE /me/calendar/{google|microsoft|apple}/disconnect (spec §7; one connection per provider). */
  disconnectProvider: (provider: 'google' | 'microsoft' | 'apple') => del<unknown>(`/me/calendar/${provider}/disconnect`),
  /** POST /me/calendar/sync (Sync Now): `success` only when every connection synced; `results` name each failure and why. */
  sync: () => post<SyncNowResponse>('/me/calendar/sync'),
  events: (start_date: string, end_date: string) =>
    get<{ events: CalendarEvent[] }>('/me/calendar/events', { query: { start_date, end_date } }),
  /** GET /me/blocks?from=&to=: the owner's live manual busy blocks overlapping [from, to) (UTC epoch ms, each optional), by start; 400 `invalid_range`. */
  blocks: (from?: number, to?: number) => get<{ blocks: BusyBlock[] }>('/me/blocks', { query: { from, to } }),
  /** POST /me/blocks: 201 the new block; 422 `validation_failed` (end ≤ start, over 14 days, already over, note > 200). */
  addBlock: (body: { start_ms: number; end_ms: number; note?: string | null }) => post<{ block: BusyBlock }>('/me/blocks', body),
  /** DELETE /me/blocks/{id}: the time is free again (204); 404 when it is not one of the owner's live blocks. */
  deleteBlock: (id: string) => del<unknown>(`/me/blocks/${encodeURIComponent(id)}`),

  /** Public, no token. `range` = 'YYYY-MM-DD..YYYY-MM-DD'; `key`: a personal link's token, when the visitor came through one. */
  publicAvailability: (slug: string, range: string, tz: string, signal?: AbortSignal, key?: string) =>
    get<PublicAvailability>(`/public/${encodeURIComponent(slug)}/availability`, { query: { range, tz, ...(key ? { key } : {}) }, auth: false, signal }),
  /** Public, no token: relays a proposed time to the owner by e-mail. 201 `{ success, message }`; 404, 422, 429. `key` as above. */
  proposeTime: (slug: string, body: ProposalInput, key?: string) =>
    post<{ success: boolean; message: string }>(`/public/${encodeURIComponent(slug)}/proposals${key ? `?key=${encodeURIComponent(key)}` : ''}`, body, { auth: false }),

  /** Sends a reset code when the address has an account; always the same answer. */
  forgotPassword: (email: string) => post<{ success: boolean; message: string }>('/auth/forgot-password', { email }),
  resetPassword: (body: { email: string; code: string; password: string; password_confirmation: string }) =>
    post<{ success: boolean; message: string }>('/auth/reset-password', body),

  links: () => get<{ links: OwnerLink[] }>('/me/links'),
  /** GET /me/share-links: the owner's personal links, newest first, and whether the plain link is on. */
  shareLinks: () => get<ShareLinks>('/me/share-links'),
  /** POST /me/share-links: 201 the new link; 422 `errors.label` / `errors.expires_at`; 409 no_username / too_many_links. */
  createShareLink: (body: { label: string; expires_at?: string | null }) => post<ShareLink>('/me/share-links', body),
  /** DELETE /me/share-links/{id}: revoked at once (204); 404 when already gone. */
  revokeShareLink: (id: string) => del<unknown>(`/me/share-links/${encodeURIComponent(id)}`),
  /** PUT /me/share-links/plain-link: `enabled` false = only personal links open the page. */
  setPlainLink: (enabled: boolean) => put<{ plain_link_enabled: boolean }>('/me/share-links/plain-link', { enabled }),
  createLink: () => post<{ link: OwnerLink }>('/me/links', {}),
  linkAnalytics: (days: 7 | 30 | 90 = 30) => get<LinkAnalytics>('/me/analytics/links', { query: { days: String(days) } }),
  generateEmailText: (body: { context?: string; timezone?: string }) =>
    post<GeneratedEmailText>('/me/profile/generate-email-text', body),
  /** GET /me/proposals: the owner's proposals, newest first (pending, confirmed, declined, cancelled), at most 50. */
  proposals: () => get<{ proposals: Proposal[] }>('/me/proposals'),
  /** POST /me/proposals/{id}/confirm: the meeting goes into `target` (else the proposal settings' calendar); 409 `not_free` (with the reason) / `already_decided`. */
  confirmProposal: (id: string, target?: CalendarTarget | null) =>
    post<{ proposal: Proposal }>(`/me/proposals/${encodeURIComponent(id)}/confirm`, target ? { target } : {}),
  /** POST /me/proposals/{id}/decline: the visitor is told (with `message` and the next free times); 409 `already_decided`. */
  declineProposal: (id: string, message?: string) => post<{ proposal: Proposal }>(`/me/proposals/${encodeURIComponent(id)}/decline`, { message: message ?? '' }),
  /** POST /me/proposals/{id}/cancel (confirmed only): the event is removed and the visitor gets a cancellation; 409 `not_confirmed`. */
  cancelProposal: (id: string, message?: string) => post<{ proposal: Proposal }>(`/me/proposals/${encodeURIComponent(id)}/cancel`, { message: message ?? '' }),
  /** GET /me/proposal-settings: where confirmed meetings go, and the writable calendars to choose from. */
  proposalSettings: () => get<ProposalSettings>('/me/proposal-settings'),
  /** PUT /me/proposal-settings: `target` null = the default calendar; 422 `errors.target` for a calendar that cannot be written. */
  setProposalSettings: (target: CalendarTarget | null) => put<ProposalSettings>('/me/proposal-settings', { target }),
  /** POST /proposal-links/inspect (no sign-in): the one-click link's proposal; 404 forged or unknown, 410 `expired` / `used`. */
  inspectProposalLink: (token: string) => post<ProposalLinkInfo>('/proposal-links/inspect', { token }, { auth: false }),
  /** POST /proposal-links/act (no sign-in): carries the link's action out once; same errors, plus 409 as the owner's API. */
  actOnProposalLink: (token: string, message?: string) => post<{ proposal: ProposalLinkInfo['proposal'] }>('/proposal-links/act', { token, message: message ?? '' }, { auth: false }),
  /** DELETE /me/proposals/{id}: the owner dismisses a proposal. 204; 404 when it is not one of the owner's. */
  dismissProposal: (id: string) => del<unknown>(`/me/proposals/${encodeURIComponent(id)}`),
};
export type Api = typeof api;
