/**
 * Microsoft (Outlook Calendar / Microsoft 365) adapter of the OAuth provider interface
 * (../oauth-provider.ts): Microsoft identity platform v2.0 + Microsoft Graph.
 *
 * HTTP: plain `fetch` (Node 20's global fetch), not `@microsoft/microsoft-graph-client`. The SDK
 * (3.0.7) was checked and does not fit cleanly: `GraphRequest.parsePath` only recognises absolute
 * URLs that start with `https://`, so following `@odata.nextLink` / `@odata.deltaLink` breaks for
 * any non-https Graph base (our local fakes, a proxy) and its host/version split cannot hold a
 * MICROSOFT_GRAPH_BASE_URL with a path prefix; its default middleware chain retries 429/503 itself
 * (sleeping up to Retry-After inside a sync) whereas this interface must surface
 * ProviderRateLimitError to the scheduler; and it does not cover the token endpoint anyway.
 * Replacing its chain would mean re-writing its HTTP handler — the ~100 lines below are simpler.
 *
 * Sign-in (https://learn.microsoft.com/entra/identity-platform/v2-oauth2-auth-code-flow):
 * authorization code flow with PKCE (S256) as a confidential client (client secret), at
 * `${MICROSOFT_LOGIN_BASE_URL}/${MICROSOFT_TENANT}/oauth2/v2.0/{authorize,token}`, scope
 * `openid email offline_access Calendars.Read`. The account e-mail comes from the id_token
 * (received directly from the token endpoint over TLS, so its signature need not be checked —
 * OpenID Connect Core §3.1.3.7); no User.Read / GET /me. The e-mail is kept in the token JSON
 * (`account`) and in the sync state.
 *
 * Tokens: refreshed when they expire within 60 s, or once after a Graph 401. Rotated refresh
 * tokens are returned as `newSecret`. `invalid_grant` / `interaction_required` → ProviderAuthError
 * with the spec-style text. When a call fails AFTER a refresh, the thrown error carries the
 * refreshed JSON as `newSecret` too (see {@link secretOfError}) so the caller can still keep it.
 *
 * Sync (https://learn.microsoft.com/graph/delta-query-events): every calendar of GET /me/calendars
 * (all included) is read with `GET /me/calendars/{id}/calendarView/delta?startDateTime&endDateTime`
 * over [now − SYNC_HORIZON_PAST_DAYS, now + SYNC_HORIZON_FUTURE_DAYS), `Prefer:
 * outlook.timezone="UTC", odata.maxpagesize=…`, following `@odata.nextLink` to the final
 * `@odata.deltaLink`, which is kept per calendar with its window. Later syncs follow the
 * deltaLink (only changes; `@removed` items → removals). 410 Gone / syncStateNotFound → a full
 * round of that calendar, removing what it no longer returns. A window older than one day is
 * restarted (full round) so the horizon moves. Each instance is one source object (calendarUrl =
 * calendar id, href = instance id): see graph-event-ical.ts.
 *
 * Push (https://learn.microsoft.com/graph/api/subscription-post-subscriptions): one subscription
 * per calendar on `me/calendars/{id}/events`, renewed by PATCH, deleted by DELETE.
 *
 * Never logs anything; error messages never contain tokens, subjects or e-mails.
 */
import { randomBytes } from 'node:crypto';
import { CALENDAR_FETCH_TIMEOUT_MS, SYNC_HORIZON_FUTURE_DAYS, SYNC_HORIZON_PAST_DAYS } from '@avail/shared/constants.ts';
import type { Config } from '../../config.ts';
import {
  ProviderRateLimitError,
  parseTokenSecret,
  retryAfterMs,
  type OAuthCalendarProvider,
  type OAuthSyncResult,
  type OAuthTokens,
  type PushChannel,
} from '../oauth-provider.ts';
import { ProviderAuthError, ProviderError, type ProviderSyncInput, type SourceUpsert } from '../provider.ts';
import { graphEventToIcs, type GraphEvent } from './graph-event-ical.ts';

const DAY_MS = 86_400_000;
/** Delegated scopes: read-only calendars, a refresh token, and the account e-mail in the id_token. */
export const MICROSOFT_SCOPE = 'openid email offline_access Calendars.Read';
export const MICROSOFT_AUTH_ERROR = 'Microsoft refused the saved authorization. Please reconnect Outlook Calendar.';
/** Same wording as oauth-registry's notConfiguredReason('microsoft'). */
export const MICROSOFT_NOT_CONFIGURED = 'Microsoft Outlook Calendar is not configured on this server.';
const MICROSOFT_SIGNIN_FAILED = 'Microsoft did not accept the sign-in. Please try connecting Outlook Calendar again.';
const MICROSOFT_APP_REFUSED = 'Microsoft refused this server’s Outlook Calendar app credentials. Please contact the server administrator.';
const MICROSOFT_UNREACHABLE = 'Could not reach Microsoft. Sync will retry later.';
/** Refresh when the access token expires within this margin. */
const REFRESH_MARGIN_MS = 60_000;
/** Restart a calendar's delta round (fresh window) when its window is older than this. */
const WINDOW_MAX_AGE_MS = DAY_MS;
/** Page size asked of calendarView/delta (`Prefer: odata.maxpagesize`). */
export const DELTA_PAGE_SIZE = 100;
/** Subscription lifetime asked for: under Graph's 4230-minute maximum for Outlook events. */
export const SUBSCRIPTION_MINUTES = 4200;
/**
 * Address used as the owner's ATTENDEE when the account e-mail is unknown (no e-mail in the
 * id_token). `.invalid` (RFC 2606) can never be a real attendee, so it matches only our own lines.
 */
export const MICROSOFT_SELF_ADDRESS = 'self@microsoft-account.invalid';

/** The token JSON kept (encrypted) for a Microsoft connection: OAuthTokens + the account e-mail. */
export interface MicrosoftTokens extends OAuthTokens {
  /** The account's e-mail from the id_token (lower-cased), when Microsoft gave one. */
  account?: string | null;
}

interface CalendarDeltaState {
  /** The `@odata.deltaLink` of the last completed round. */
  deltaLink: string;
  /** The round's window, UTC epoch ms. */
  windowStart: number;
  windowEnd: number;
  /** When the window was chosen (UTC epoch ms); restarted after one day. */
  windowSetAt: number;
}

/** `newState` of a Microsoft sync (JSON; delta links are state tokens, not credentials). */
export interface MicrosoftSyncState {
  v: 1;
  account: string | null;
  /** Every calendar listed by the last sync (also empty ones): the calendars push channels watch. */
  calendarIds: string[];
  calendars: Record<string, CalendarDeltaState>;
}

export interface MicrosoftProviderOptions {
  /** Clock (UTC epoch ms); tests move it. */
  now?: () => number;
  /** fetch implementation (default: global fetch). */
  fetch?: typeof fetch;
  /** Per-request timeout (default CALENDAR_FETCH_TIMEOUT_MS). */
  timeoutMs?: number;
  /** `Prefer: odata.maxpagesize` of delta requests (default DELTA_PAGE_SIZE). */
  pageSize?: number;
}

export { secretOfError } from '../oauth-provider.ts';

/** Signals an expired/invalid delta token (410 Gone, syncStateNotFound …): restart the round. */
class DeltaResyncNeeded extends Error {}

/** A Graph call failed with a status the callers may handle (404 …). Message is safe. */
class GraphStatusError extends ProviderError {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
  ) {
    super(`Microsoft Graph answered HTTP ${status}${code ? ` (${code})` : ''}. Sync will retry later.`);
    this.name = 'GraphStatusError';
  }
}

const RESYNC_CODES = new Set(['syncstatenotfound', 'syncstateinvalid', 'resyncrequired', 'errorinvalidsyncstatedata']);

function errorCodeOf(body: unknown): string | undefined {
  const e = (body as { error?: unknown } | null)?.error;
  if (typeof e === 'string') return e;
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function base64url(buf: Buffer): string {
  return buf.toString('base64url');
}

/** Decodes the payload of a JWT without verifying it (see the file header for why that is fine here). */
function jwtPayload(token: unknown): Record<string, unknown> | null {
  if (typeof token !== 'string') return null;
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const json = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return json && typeof json === 'object' ? (json as Record<string, unknown>) : null;
  } catch {
    return null; // the id_token only names the account; without it the connection is unlabelled
  }
}

const EMAIL_RE = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** The account e-mail of an id_token: `email`, else `preferred_username` when it is an e-mail. */
function accountOfIdToken(idToken: unknown): string | null {
  const p = jwtPayload(idToken);
  if (!p) return null;
  for (const claim of ['email', 'preferred_username', 'upn']) {
    const v = p[claim];
    if (typeof v === 'string' && EMAIL_RE.test(v.trim())) return v.trim().toLowerCase();
  }
  return null;
}

function parseTokens(secret: string | null): MicrosoftTokens {
  return parseTokenSecret<MicrosoftTokens>(secret, MICROSOFT_AUTH_ERROR);
}

function readState(state: unknown): MicrosoftSyncState | null {
  const s = state as MicrosoftSyncState | null;
  if (!s || typeof s !== 'object' || s.v !== 1 || !s.calendars || typeof s.calendars !== 'object') return null;
  return s;
}

function loginUrl(config: Config, endpoint: 'authorize' | 'token'): string {
  return `${config.MICROSOFT_LOGIN_BASE_URL}/${encodeURIComponent(config.MICROSOFT_TENANT)}/oauth2/v2.0/${endpoint}`;
}

/** fetch with the per-request timeout; network failures and timeouts → ProviderError. Never follows redirects. */
async function timedFetch(opts: Required<MicrosoftProviderOptions>, url: string, init: RequestInit): Promise<Response> {
  try {
    return await opts.fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(opts.timeoutMs) });
  } catch {
    throw new ProviderError(MICROSOFT_UNREACHABLE);
  }
}

function randomToken(): string {
  return base64url(randomBytes(32));
}

/** Per-call HTTP context: fetch with timeout, clock, and the connection's tokens. */
class MicrosoftSession {
  tokens: MicrosoftTokens;
  changed = false;

  constructor(
    readonly config: Config,
    readonly opts: Required<MicrosoftProviderOptions>,
    tokens: MicrosoftTokens,
  ) {
    this.tokens = tokens;
  }

  now(): number {
    return this.opts.now();
  }

  /** The refreshed JSON when the tokens changed. */
  newSecret(): string | undefined {
    return this.changed ? JSON.stringify(this.tokens) : undefined;
  }

  /** Attaches `newSecret` to an error thrown after a refresh, then returns it for rethrowing. */
  decorate(err: unknown): unknown {
    const s = this.newSecret();
    if (s && err && typeof err === 'object') Object.defineProperty(err, 'newSecret', { value: s, enumerable: false, configurable: true });
    return err;
  }

  fetch(url: string, init: RequestInit): Promise<Response> {
    return timedFetch(this.opts, url, init);
  }

  /** A valid access token, refreshing first when it expires within 60 s (or when `force`). */
  async accessToken(force = false): Promise<string> {
    if (force || this.tokens.expires_at - this.now() < REFRESH_MARGIN_MS) await this.refresh();
    return this.tokens.access_token;
  }

  /** refresh_token grant (https://learn.microsoft.com/entra/identity-platform/v2-oauth2-auth-code-flow#refresh-the-access-token). */
  async refresh(): Promise<void> {
    if (!this.tokens.refresh_token) throw new ProviderAuthError(MICROSOFT_AUTH_ERROR);
    const body = await tokenRequest(this, {
      grant_type: 'refresh_token',
      refresh_token: this.tokens.refresh_token,
      scope: MICROSOFT_SCOPE,
    }, 'refresh');
    const account = accountOfIdToken(body.id_token) ?? this.tokens.account ?? null;
    this.tokens = {
      access_token: body.access_token,
      refresh_token: typeof body.refresh_token === 'string' && body.refresh_token ? body.refresh_token : this.tokens.refresh_token,
      expires_at: this.now() + body.expires_in * 1000,
      ...(typeof body.scope === 'string' ? { scope: body.scope } : this.tokens.scope ? { scope: this.tokens.scope } : {}),
      account,
    };
    this.changed = true;
  }

  /**
   * One Graph request with the bearer token: refreshes once on 401; 429/503 →
   * ProviderRateLimitError; 401 again / 403 → ProviderAuthError. Returns the response for any
   * other status (callers check it). Only URLs on the Graph origin are ever sent the token.
   */
  async graph(method: string, url: string, p: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Response> {
    let sameOrigin = false;
    try {
      sameOrigin = new URL(url).origin === new URL(this.config.MICROSOFT_GRAPH_BASE_URL).origin;
    } catch {
      sameOrigin = false;
    }
    if (!sameOrigin) throw new ProviderError('Microsoft Graph returned a link this server does not follow; sync stopped.');
    for (let attempt = 0; ; attempt++) {
      const token = await this.accessToken(attempt > 0);
      const res = await this.fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          ...(p.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...p.headers,
        },
        body: p.body !== undefined ? JSON.stringify(p.body) : undefined,
      });
      if (res.status === 401 && attempt === 0) {
        await res.body?.cancel();
        continue;
      }
      if (res.status === 401 || res.status === 403) {
        await res.body?.cancel();
        throw new ProviderAuthError(MICROSOFT_AUTH_ERROR);
      }
      if (res.status === 429 || res.status === 503) {
        await res.body?.cancel();
        throw new ProviderRateLimitError(retryAfterMs(res.headers.get('retry-after'), this.now()));
      }
      return res;
    }
  }

  /** GET a Graph JSON document; non-2xx → GraphStatusError (410/sync-state errors → DeltaResyncNeeded). */
  async getJson<T>(url: string, headers?: Record<string, string>): Promise<T> {
    const res = await this.graph('GET', url, { headers });
    const body = (await res.json().catch(() => null)) as unknown;
    if (res.ok && body && typeof body === 'object') return body as T;
    const code = errorCodeOf(body);
    if (res.status === 410 || (code && RESYNC_CODES.has(code.toLowerCase()))) throw new DeltaResyncNeeded();
    throw new GraphStatusError(res.status, code);
  }
}

interface TokenResponse {
  access_token: string;
  refresh_token?: string;
  expires_in: number;
  scope?: string;
  id_token?: string;
}

/**
 * POST to the v2.0 token endpoint (form-encoded, client_id + client_secret).
 * @throws ProviderAuthError (invalid_grant / interaction_required on refresh), ProviderError
 *   (code exchange refused, app credentials refused, bad answer), ProviderRateLimitError (429/503).
 */
async function tokenRequest(
  s: Pick<MicrosoftSession, 'config' | 'fetch' | 'now'>,
  params: Record<string, string>,
  kind: 'code' | 'refresh',
): Promise<TokenResponse> {
  const { config } = s;
  if (!config.MICROSOFT_CLIENT_ID || !config.MICROSOFT_CLIENT_SECRET) throw new ProviderError(MICROSOFT_NOT_CONFIGURED);
  const res = await s.fetch(loginUrl(config, 'token'), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ client_id: config.MICROSOFT_CLIENT_ID, client_secret: config.MICROSOFT_CLIENT_SECRET, ...params }).toString(),
  });
  if (res.status === 429 || res.status === 503) {
    await res.body?.cancel();
    throw new ProviderRateLimitError(retryAfterMs(res.headers.get('retry-after'), s.now()));
  }
  const body = (await res.json().catch(() => null)) as (Partial<TokenResponse> & { error?: string }) | null;
  if (!res.ok || !body || typeof body.access_token !== 'string') {
    const error = typeof body?.error === 'string' ? body.error : '';
    if (error === 'invalid_client' || error === 'unauthorized_client') throw new ProviderError(MICROSOFT_APP_REFUSED);
    if (kind === 'refresh' && (error === 'invalid_grant' || error === 'interaction_required' || error === 'consent_required')) {
      throw new ProviderAuthError(MICROSOFT_AUTH_ERROR);
    }
    if (kind === 'refresh' && res.status >= 500) throw new ProviderError(MICROSOFT_UNREACHABLE);
    throw new ProviderError(kind === 'code' ? MICROSOFT_SIGNIN_FAILED : MICROSOFT_AUTH_ERROR);
  }
  const expiresIn = Number(body.expires_in);
  return {
    access_token: body.access_token,
    refresh_token: typeof body.refresh_token === 'string' ? body.refresh_token : undefined,
    expires_in: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : 3600,
    scope: typeof body.scope === 'string' ? body.scope : undefined,
    id_token: typeof body.id_token === 'string' ? body.id_token : undefined,
  };
}

interface GraphPage<T> {
  value?: T[];
  '@odata.nextLink'?: string;
  '@odata.deltaLink'?: string;
}

/** GET /me/calendars, all pages (https://learn.microsoft.com/graph/api/user-list-calendars). */
async function listCalendars(s: MicrosoftSession): Promise<string[]> {
  const ids: string[] = [];
  let url: string | undefined = `${s.config.MICROSOFT_GRAPH_BASE_URL}/me/calendars?$select=id`;
  for (let pages = 0; url; pages++) {
    if (pages > 100) throw new ProviderError('Microsoft Graph returned too many calendar pages.');
    const page: GraphPage<{ id?: unknown }> = await s.getJson(url);
    for (const c of page.value ?? []) if (typeof c.id === 'string' && c.id) ids.push(c.id);
    url = page['@odata.nextLink'];
  }
  return [...new Set(ids)];
}


/**
 * One delta round from `url` (an initial calendarView/delta URL or a stored deltaLink): follows
 * `@odata.nextLink` pages to the `@odata.deltaLink`.
 * @returns the items by id (last one wins) and the new deltaLink.
 * @throws DeltaResyncNeeded on 410 / sync-state errors.
 */
async function deltaRound(s: MicrosoftSession, url: string): Promise<{ items: Map<string, GraphEvent>; deltaLink: string }> {
  const items = new Map<string, GraphEvent>();
  let next: string | undefined = url;
  for (let pages = 0; next; pages++) {
    if (pages > 5_000) throw new ProviderError('Microsoft Graph returned too many pages for one calendar.');
    const page: GraphPage<GraphEvent> = await s.getJson(next, { prefer: `outlook.timezone="UTC", odata.maxpagesize=${s.opts.pageSize}` });
    for (const ev of page.value ?? []) if (ev && typeof ev.id === 'string' && ev.id) items.set(ev.id, ev);
    if (page['@odata.nextLink']) {
      next = page['@odata.nextLink'];
      continue;
    }
    if (!page['@odata.deltaLink']) throw new ProviderError('Microsoft Graph ended a calendar sync without a delta link.');
    return { items, deltaLink: page['@odata.deltaLink'] };
  }
  throw new ProviderError('Microsoft Graph ended a calendar sync without a delta link.');
}

function initialDeltaUrl(config: Config, calendarId: string, windowStart: number, windowEnd: number): string {
  // Whole seconds, as in Microsoft's examples (`2016-12-01T00:00:00Z`).
  const at = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  const q = new URLSearchParams({ startDateTime: at(windowStart), endDateTime: at(windowEnd) });
  return `${config.MICROSOFT_GRAPH_BASE_URL}/me/calendars/${encodeURIComponent(calendarId)}/calendarView/delta?${q}`;
}

function subscriptionExpiry(now: number): string {
  return new Date(now + SUBSCRIPTION_MINUTES * 60_000).toISOString();
}

interface GraphSubscription {
  id?: string;
  expirationDateTime?: string;
}

/** POST /subscriptions for one calendar (Graph validates `notificationUrl` before answering). */
async function createSubscription(s: MicrosoftSession, webhookUrl: string, calendarId: string): Promise<PushChannel> {
  const clientState = randomToken();
  const requested = subscriptionExpiry(s.now());
  const res = await s.graph('POST', `${s.config.MICROSOFT_GRAPH_BASE_URL}/subscriptions`, {
    body: {
      changeType: 'created,updated,deleted',
      notificationUrl: webhookUrl,
      // Lifecycle events (reauthorizationRequired, subscriptionRemoved, missed) go to their own
      // endpoint: https://learn.microsoft.com/graph/change-notifications-lifecycle-events
      lifecycleNotificationUrl: `${webhookUrl}/lifecycle`,
      resource: `me/calendars/${calendarId}/events`,
      expirationDateTime: requested,
      clientState,
    },
  });
  const body = (await res.json().catch(() => null)) as GraphSubscription | null;
  if (!res.ok || !body || typeof body.id !== 'string') {
    const code = errorCodeOf(body);
    throw new ProviderError(
      `Microsoft could not start live updates for a calendar (HTTP ${res.status}${code ? `, ${code}` : ''}); the 15-minute sync continues.`,
    );
  }
  const expires = Date.parse(body.expirationDateTime ?? requested);
  return { channel_id: body.id, resource_id: null, calendar_id: calendarId, token: clientState, expires_at: Number.isFinite(expires) ? expires : Date.parse(requested) };
}

/**
 * Creates the Microsoft adapter. `microsoftProvider` is the instance the app uses; tests create
 * their own with a movable clock.
 */
export function createMicrosoftProvider(options: MicrosoftProviderOptions = {}): OAuthCalendarProvider {
  const opts: Required<MicrosoftProviderOptions> = {
    now: options.now ?? Date.now,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    timeoutMs: options.timeoutMs ?? CALENDAR_FETCH_TIMEOUT_MS,
    pageSize: options.pageSize ?? DELTA_PAGE_SIZE,
  };
  const session = (config: Config, secret: string | null) => new MicrosoftSession(config, opts, parseTokens(secret));

  /** Runs `fn` with a session; errors after a refresh carry the refreshed secret (`newSecret`). */
  const withSession = async <T>(config: Config, secret: string | null, fn: (s: MicrosoftSession) => Promise<T>): Promise<T> => {
    const s = session(config, secret);
    try {
      return await fn(s);
    } catch (err) {
      throw s.decorate(err);
    }
  };

  return {
    id: 'microsoft',

    /** null when MICROSOFT_CLIENT_ID and MICROSOFT_CLIENT_SECRET are set; else the UI's reason. */
    unavailableReason(config) {
      return config.MICROSOFT_CLIENT_ID && config.MICROSOFT_CLIENT_SECRET ? null : MICROSOFT_NOT_CONFIGURED;
    },

    /**
     * The v2.0 authorize URL (response_type=code, response_mode=query, PKCE S256, `state`).
     * https://learn.microsoft.com/entra/identity-platform/v2-oauth2-auth-code-flow#request-an-authorization-code
     */
    authorizationUrl(config, p) {
      if (!config.MICROSOFT_CLIENT_ID) throw new ProviderError(MICROSOFT_NOT_CONFIGURED);
      const q = new URLSearchParams({
        client_id: config.MICROSOFT_CLIENT_ID,
        response_type: 'code',
        redirect_uri: p.redirectUri,
        response_mode: 'query',
        scope: MICROSOFT_SCOPE,
        state: p.state,
        code_challenge: p.codeChallenge,
        code_challenge_method: 'S256',
      });
      return `${loginUrl(config, 'authorize')}?${q}`;
    },

    /**
     * Redeems the callback's code (grant_type=authorization_code with code_verifier and the client
     * secret). Returns tokens (`expires_at` UTC epoch ms; `account` included) and the account
     * e-mail from the id_token (null when Microsoft gave none).
     * @throws ProviderError with a safe message (refused code/verifier, app credentials, network); ProviderRateLimitError.
     */
    async exchangeCode(config, p) {
      const s = { config, now: opts.now, fetch: (url: string, init: RequestInit) => timedFetch(opts, url, init) };
      const body = await tokenRequest(s, {
        grant_type: 'authorization_code',
        code: p.code,
        redirect_uri: p.redirectUri,
        code_verifier: p.codeVerifier,
        scope: MICROSOFT_SCOPE,
      }, 'code');
      const account = accountOfIdToken(body.id_token);
      const tokens: MicrosoftTokens = {
        access_token: body.access_token,
        refresh_token: body.refresh_token ?? null,
        expires_at: opts.now() + body.expires_in * 1000,
        ...(body.scope ? { scope: body.scope } : {}),
        account,
      };
      return { tokens, account };
    },

    /**
     * Full or incremental sync of every calendar (see the file header). `input.state` is the
     * previous `newState` (MicrosoftSyncState) or null; `input.known` the objects held.
     * @throws ProviderAuthError (refused grant / 401 after refresh / 403), ProviderRateLimitError
     *   (429/503, Retry-After honoured), ProviderError (anything else, safe text). Errors thrown
     *   after a token refresh carry `newSecret`.
     */
    async sync(config, input: ProviderSyncInput<Record<string, unknown>>): Promise<OAuthSyncResult> {
      return withSession(config, input.secret, async (s) => {
        const prev = readState(input.state);
        const now = s.now();
        const account = (s.tokens.account ?? prev?.account ?? null) || null;
        const calendarIds = await listCalendars(s);
        const ownerAddress = () => s.tokens.account ?? account ?? MICROSOFT_SELF_ADDRESS;

        const knownByCalendar = new Map<string, Set<string>>();
        for (const k of input.known) {
          let set = knownByCalendar.get(k.calendarUrl);
          if (!set) knownByCalendar.set(k.calendarUrl, (set = new Set()));
          set.add(k.href);
        }

        const upserts: SourceUpsert[] = [];
        const removals: Array<{ calendarUrl: string; href: string }> = [];
        const nextCalendars: Record<string, CalendarDeltaState> = {};
        let changed = false;

        for (const calendarId of calendarIds) {
          const held = knownByCalendar.get(calendarId) ?? new Set<string>();
          const stored = prev?.calendars[calendarId];
          let round: { items: Map<string, GraphEvent>; deltaLink: string } | null = null;
          let full = true;
          let window = stored;
          if (stored && now - stored.windowSetAt <= WINDOW_MAX_AGE_MS) {
            try {
              round = await deltaRound(s, stored.deltaLink);
              full = false;
            } catch (err) {
              if (err instanceof GraphStatusError && err.status === 404) continue; // calendar deleted meanwhile
              if (!(err instanceof DeltaResyncNeeded)) throw err;
            }
          }
          if (!round) {
            const windowStart = now - SYNC_HORIZON_PAST_DAYS * DAY_MS;
            const windowEnd = now + SYNC_HORIZON_FUTURE_DAYS * DAY_MS;
            window = { deltaLink: '', windowStart, windowEnd, windowSetAt: now };
            try {
              round = await deltaRound(s, initialDeltaUrl(config, calendarId, windowStart, windowEnd));
            } catch (err) {
              if (err instanceof DeltaResyncNeeded) throw new ProviderError('Microsoft Graph refused to start a calendar sync. Sync will retry later.');
              if (err instanceof GraphStatusError && err.status === 404) continue; // calendar deleted meanwhile
              throw err;
            }
          }
          nextCalendars[calendarId] = { ...window!, deltaLink: round.deltaLink };
          if (full) changed = true;

          const seen = new Set<string>();
          for (const ev of round.items.values()) {
            const ics = ev['@removed'] ? null : graphEventToIcs(ev, { ownerEmail: ownerAddress() });
            if (ics === null) {
              if (!full && held.has(ev.id)) {
                removals.push({ calendarUrl: calendarId, href: ev.id });
                changed = true;
              }
              continue;
            }
            seen.add(ev.id);
            upserts.push({ calendarUrl: calendarId, href: ev.id, etag: ev.changeKey ?? ev['@odata.etag'] ?? null, icsText: ics });
            changed = true;
          }
          if (full) {
            for (const href of held) if (!seen.has(href)) removals.push({ calendarUrl: calendarId, href });
          }
        }

        const listed = new Set(Object.keys(nextCalendars));
        const removedCalendars = [
          ...new Set([...Object.keys(prev?.calendars ?? {}), ...knownByCalendar.keys()].filter((id) => !listed.has(id))),
        ];
        if (removedCalendars.length) changed = true;
        if (prev && Object.keys(prev.calendars).length !== listed.size) changed = true;

        const finalAccount = s.tokens.account ?? account;
        const newState: MicrosoftSyncState = { v: 1, account: finalAccount ?? null, calendarIds: [...listed], calendars: nextCalendars };
        return {
          notModified: !changed,
          upserts,
          removals,
          removedCalendars,
          calendarsCount: listed.size,
          calendarIds: [...listed],
          newState,
          ownerEmails: finalAccount ? [finalAccount, MICROSOFT_SELF_ADDRESS] : [MICROSOFT_SELF_ADDRESS],
          ...(s.newSecret() ? { newSecret: s.newSecret() } : {}),
        };
      });
    },

    /**
     * One subscription per calendar: POST /subscriptions { changeType 'created,updated,deleted',
     * notificationUrl = webhookUrl, resource `me/calendars/{id}/events`, expirationDateTime now +
     * 4200 min, clientState = 32 random bytes base64url }. Graph first POSTs `?validationToken=`
     * to webhookUrl, which must echo it (text/plain, 200, within 10 s).
     * If one calendar fails, the subscriptions already created are deleted and the error thrown.
     */
    async startPush(config, p) {
      return withSession(config, p.secret, async (s) => {
        const channels: PushChannel[] = [];
        try {
          for (const calendarId of p.calendarIds) channels.push(await createSubscription(s, p.webhookUrl, calendarId));
        } catch (err) {
          for (const c of channels) await deleteSubscription(s, c.channel_id).catch(() => undefined);
          throw err;
        }
        return { channels, ...(s.newSecret() ? { newSecret: s.newSecret() } : {}) };
      });
    },

    /**
     * PATCH /subscriptions/{id} { expirationDateTime: now + 4200 min }
     * (https://learn.microsoft.com/graph/api/subscription-update). A subscription Graph no longer
     * knows (404) is replaced by a new one for the same calendar (new id and clientState).
     */
    async renewPush(config, p) {
      return withSession(config, p.secret, async (s) => {
        const expirationDateTime = subscriptionExpiry(s.now());
        const res = await s.graph('PATCH', `${config.MICROSOFT_GRAPH_BASE_URL}/subscriptions/${encodeURIComponent(p.channel.channel_id)}`, {
          body: { expirationDateTime },
        });
        let channel: PushChannel;
        if (res.status === 404) {
          await res.body?.cancel();
          channel = await createSubscription(s, p.webhookUrl, p.channel.calendar_id);
        } else {
          const body = (await res.json().catch(() => null)) as GraphSubscription | null;
          if (!res.ok) throw new GraphStatusError(res.status, errorCodeOf(body));
          const expires = Date.parse(body?.expirationDateTime ?? expirationDateTime);
          channel = { ...p.channel, expires_at: Number.isFinite(expires) ? expires : Date.parse(expirationDateTime) };
        }
        return { channel, ...(s.newSecret() ? { newSecret: s.newSecret() } : {}) };
      });
    },

    /**
     * DELETE /subscriptions/{id} for each channel (https://learn.microsoft.com/graph/api/subscription-delete);
     * 404 (unknown/expired subscription) is ignored. Other failures throw.
     */
    async stopPush(config, p) {
      if (!p.channels.length) return;
      await withSession(config, p.secret, async (s) => {
        for (const c of p.channels) await deleteSubscription(s, c.channel_id);
      });
    },

    /**
     * No-op: the Microsoft identity platform has no token revocation endpoint for the auth-code
     * flow (a user removes the app's consent at https://myapps.microsoft.com / account.live.com;
     * an admin revokes sessions with Graph `revokeSignInSessions`, which needs User.ReadWrite).
     * Disconnecting deletes our stored tokens, which is all we can do.
     */
    async revoke() {
      // Nothing to call.
    },
  };
}

async function deleteSubscription(s: MicrosoftSession, id: string): Promise<void> {
  const res = await s.graph('DELETE', `${s.config.MICROSOFT_GRAPH_BASE_URL}/subscriptions/${encodeURIComponent(id)}`);
  await res.body?.cancel();
  if (res.ok || res.status === 404 || res.status === 410) return;
  throw new GraphStatusError(res.status, undefined);
}

/** The adapter the app registers for provider 'microsoft'. */
export const microsoftProvider: OAuthCalendarProvider = createMicrosoftProvider();
