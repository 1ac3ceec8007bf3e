/**
 * Google Calendar adapter (OAuthCalendarProvider 'google'): OAuth 2.0 web-server flow with PKCE,
 * read-only scope, incremental sync with per-calendar sync tokens, push channels.
 *
 * HTTP: plain `fetch`, not `@googleapis/calendar` + `google-auth-library`. Both accept custom
 * endpoints (`rootUrl`, OAuth2Client `endpoints`), but they would take over exactly the parts this
 * adapter must control: googleapis-common retries 429/5xx by itself (retry defaults to true),
 * OAuth2Client refreshes on its own schedule and reports new tokens through an event, and errors
 * come as GaxiosError shapes. The interface needs a refresh when the token expires within 60 s or
 * on a 401 (once), the refreshed token set returned as `newSecret`, `invalid_grant` →
 * ProviderAuthError, 429/503 (and 403 rateLimitExceeded) → ProviderRateLimitError with the
 * Retry-After delay and no hidden retries. Seven endpoints with documented JSON shapes are simpler
 * to get exactly right with fetch. Requests go to the configured endpoints only (GOOGLE_* settings),
 * never to user-supplied URLs, so the SSRF-guarded fetch is not needed; every call has a 20 s timeout.
 *
 * Sync (https://developers.google.com/calendar/api/guides/sync):
 * - calendarList.list (all pages): every listed calendar is included; calendarsCount = their number.
 *   Calendars we held data for that are no longer listed → removedCalendars.
 * - Per calendar, events.list with showDeleted=true and WITHOUT singleEvents: a series arrives as
 *   its master (with `recurrence`: RRULE/EXDATE/RDATE) plus its exceptions (recurringEventId +
 *   originalStartTime), so an incremental change touches only the objects that changed.
 *   With the previous nextSyncToken the same query returns only changes (deleted events as
 *   status 'cancelled'); 410 (fullSyncRequired) → a full listing of that calendar, and every
 *   object we hold for it that the listing does not return is removed.
 * - One stored object (SourceUpsert) per series or single event: calendarUrl = calendar id, href =
 *   series/event id, VCALENDAR with the master and RECURRENCE-ID overrides (google-event-ical.ts).
 * - Re-emitting a whole series when one instance changes needs the series' other parts, but the
 *   sync input only lists what we hold (href/etag). The adapter therefore keeps, in its sync
 *   state, the compact Google JSON (only the busy-deciding fields, google-event-ical.ts
 *   `compactEvent`) of every recurring master and exception, per calendar. This is exact (no
 *   extra requests, no guessing from instance lists); its cost is state size proportional to the
 *   number of recurring series + exceptions. Single events are not kept in the state.
 * - A single (non-recurring) event that ended more than SYNC_HORIZON_PAST_DAYS + 2 days ago is not
 *   stored (it can never give busy time again: the horizon only moves forward); a held copy of such
 *   an event is removed.
 * - calendarIds (result and newState): the readable calendars, for push channels.
 * - ownerEmails: the primary calendar's id (the account e-mail) and every `self` attendee address
 *   seen, so the engine finds the owner's own declined invitations.
 *
 * Push (https://developers.google.com/calendar/api/guides/push): one events.watch channel per
 * calendar (id = random UUID, token = 32 random bytes base64url, ttl 7 days); renewal = a new watch
 * then channels.stop of the old one.
 *
 * Never logs: this module has no logger; error messages carry no tokens, titles or e-mails.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { SYNC_HORIZON_PAST_DAYS } from '@avail/shared/constants.ts';
import type { Config } from '../../config.ts';
import {
  ProviderRateLimitError,
  retryAfterMs,
  type OAuthCalendarProvider,
  type OAuthSyncResult,
  type OAuthTokens,
  type PushChannel,
  parseTokenSecret,
  withSecret,
} from '../oauth-provider.ts';
import { ProviderAuthError, ProviderError, type ProviderSyncInput, type SourceUpsert } from '../provider.ts';
import { compactEvent, selfEmailOf, seriesToIcs, type GoogleEvent } from './google-event-ical.ts';

export const GOOGLE_CALENDAR_SCOPE = 'https://www.googleapis.com/auth/calendar.readonly';
export const GOOGLE_UNAVAILABLE = 'Google Calendar is not configured on this server.';
export const GOOGLE_REAUTH_MESSAGE = 'Google refused the saved authorization. Please reconnect Google Calendar.';
const GOOGLE_RATE_MESSAGE = 'Google Calendar asked us to slow down. Sync will retry shortly.';

const DAY_MS = 86_400_000;
const REFRESH_MARGIN_MS = 60_000;
const REQUEST_TIMEOUT_MS = 20_000;
const EVENTS_PAGE_SIZE = 2500;
const CALENDARS_PAGE_SIZE = 250;
/** Push channel lifetime requested from Google (seconds): 7 days. */
export const GOOGLE_CHANNEL_TTL_SEC = 7 * 24 * 3600;
/** Guard against a server that keeps returning page tokens. */
const MAX_PAGES = 1000;

// ---------------------------------------------------------------------------------------------
// Sync state
// ---------------------------------------------------------------------------------------------

interface SeriesState {
  /** The master (with `recurrence`); absent while only exceptions are known. */
  m?: GoogleEvent;
  /** Exceptions by instance id. */
  o: Record<string, GoogleEvent>;
}

interface CalendarSyncState {
  syncToken: string | null;
  series: Record<string, SeriesState>;
  selfEmails: string[];
}

/** What the adapter keeps between syncs (JSON, no secrets). */
export interface GoogleSyncState {
  v: 1;
  /** The account e-mail (primary calendar id), or null when no primary calendar was listed. */
  account: string | null;
  /** Calendars to watch with push channels: every listed calendar whose events we can read. */
  calendarIds: string[];
  calendars: Record<string, CalendarSyncState>;
}

function readState(state: unknown): GoogleSyncState | null {
  if (!state || typeof state !== 'object') return null;
  const s = state as GoogleSyncState;
  if (s.v !== 1 || !s.calendars || typeof s.calendars !== 'object') return null;
  return s;
}

// ---------------------------------------------------------------------------------------------
// HTTP
// ---------------------------------------------------------------------------------------------

interface GoogleErrorBody {
  error?: { code?: number; message?: string; errors?: Array<{ reason?: string; domain?: string }> } | string;
  error_description?: string;
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null; // not JSON (a proxy's HTML page): callers go by the status, which they report
  }
}

function reasonsOf(body: unknown): string[] {
  const e = (body as GoogleErrorBody | null)?.error;
  if (!e || typeof e !== 'object') return [];
  return (e.errors ?? []).map((x) => x.reason ?? '').filter(Boolean);
}

/** A Google API answer that is not 2xx (kept internal; turned into ProviderErrors by callers). */
class GoogleHttpError extends Error {
  constructor(
    readonly status: number,
    readonly reasons: string[],
  ) {
    super(`Google Calendar answered HTTP ${status}${reasons.length ? ` (${reasons.join(', ')})` : ''}`);
    this.name = 'GoogleHttpError';
  }
}

async function timedFetch(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch {
    throw new ProviderError('Could not reach Google Calendar. Sync will retry.');
  }
}

function rateLimited(res: Response, body: unknown): ProviderRateLimitError | null {
  const reasons = reasonsOf(body);
  const limited =
    res.status === 429 ||
    res.status === 503 ||
    (res.status === 403 && reasons.some((r) => r === 'rateLimitExceeded' || r === 'userRateLimitExceeded'));
  return limited ? new ProviderRateLimitError(retryAfterMs(res.headers.get('retry-after'), Date.now()), GOOGLE_RATE_MESSAGE) : null;
}

function clientOf(config: Config): { id: string; secret: string } {
  if (!config.GOOGLE_CLIENT_ID || !config.GOOGLE_CLIENT_SECRET) throw new ProviderError(GOOGLE_UNAVAILABLE);
  return { id: config.GOOGLE_CLIENT_ID, secret: config.GOOGLE_CLIENT_SECRET };
}

interface TokenResponse {
  access_token?: string;
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
  token_type?: string;
}

/**
 * POSTs a form to Google's token endpoint
 * (https://developers.google.com/identity/protocols/oauth2/web-server#exchange-authorization-code,
 * #offline). `invalid_grant` → `onInvalidGrant()`; 429/503 → ProviderRateLimitError.
 */
async function tokenRequest(config: Config, form: Record<string, string>, onInvalidGrant: () => ProviderError): Promise<TokenResponse> {
  const res = await timedFetch(config.GOOGLE_TOKEN_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(form).toString(),
  });
  const body = await readJson(res);
  if (res.ok) {
    const t = body as TokenResponse | null;
    if (!t?.access_token) throw new ProviderError('Google answered the sign-in without an access token. Please try again.');
    return t;
  }
  const limited = rateLimited(res, body);
  if (limited) throw limited;
  const err = (body as GoogleErrorBody | null)?.error;
  if (err === 'invalid_grant') throw onInvalidGrant();
  if (err === 'invalid_client' || err === 'unauthorized_client') {
    throw new ProviderError('Google rejected this server\'s OAuth client (check GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET).');
  }
  throw new ProviderError(`Google sign-in failed (HTTP ${res.status}). Please try again later.`);
}

function tokensFrom(t: TokenResponse, previous: OAuthTokens | null, now: number): OAuthTokens {
  const expiresIn = typeof t.expires_in === 'number' && t.expires_in > 0 ? t.expires_in : 3600;
  const scope = t.scope ?? previous?.scope;
  return {
    access_token: t.access_token!,
    refresh_token: t.refresh_token ?? previous?.refresh_token ?? null,
    expires_at: now + expiresIn * 1000,
    ...(scope ? { scope } : {}),
  };
}

function parseSecret(secret: string | null): OAuthTokens {
  return parseTokenSecret(secret, GOOGLE_REAUTH_MESSAGE);
}

/**
 * An authorized session of one connection: refreshes the access token when it expires within
 * 60 s, or once after a 401, and remembers whether the token set changed (→ `newSecret`).
 */
class GoogleSession {
  private tokens: OAuthTokens;
  private changed = false;

  constructor(
    private readonly config: Config,
    secret: string | null,
  ) {
    this.tokens = parseSecret(secret);
  }

  /** JSON of the refreshed token set, when a refresh happened. */
  get newSecret(): string | undefined {
    return this.changed ? JSON.stringify(this.tokens) : undefined;
  }

  private async refresh(): Promise<void> {
    const client = clientOf(this.config);
    if (!this.tokens.refresh_token) throw new ProviderAuthError(GOOGLE_REAUTH_MESSAGE);
    const t = await tokenRequest(
      this.config,
      { grant_type: 'refresh_token', refresh_token: this.tokens.refresh_token, client_id: client.id, client_secret: client.secret },
      () => new ProviderAuthError(GOOGLE_REAUTH_MESSAGE),
    );
    this.tokens = tokensFrom(t, this.tokens, Date.now());
    this.changed = true;
  }

  private async accessToken(): Promise<string> {
    if (this.tokens.expires_at - Date.now() < REFRESH_MARGIN_MS) await this.refresh();
    return this.tokens.access_token;
  }

  /**
   * One Calendar API call (`path` under `${GOOGLE_API_BASE_URL}/calendar/v3`).
   * @returns the parsed JSON body (null for 204).
   * @throws ProviderAuthError (401 after a refresh, invalid_grant), ProviderRateLimitError,
   *   GoogleHttpError (any other non-2xx), ProviderError (network).
   */
  async call(method: 'GET' | 'POST', path: string, opts: { query?: Record<string, string>; json?: unknown } = {}): Promise<unknown> {
    const url = new URL(`${this.config.GOOGLE_API_BASE_URL}/calendar/v3${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
    for (let attempt = 0; ; attempt++) {
      const token = await this.accessToken();
      const res = await timedFetch(url.href, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          ...(opts.json !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(opts.json !== undefined ? { body: JSON.stringify(opts.json) } : {}),
      });
      if (res.status === 401) {
        await res.arrayBuffer().catch(() => undefined);
        if (attempt === 0) {
          await this.refresh();
          continue;
        }
        throw new ProviderAuthError(GOOGLE_REAUTH_MESSAGE);
      }
      const body = await readJson(res);
      if (res.ok) return body;
      const limited = rateLimited(res, body);
      if (limited) throw limited;
      throw new GoogleHttpError(res.status, reasonsOf(body));
    }
  }
}

/** Turns an unexpected Google HTTP error into an owner-facing ProviderError. */
function toProviderError(err: unknown, what: string): never {
  if (err instanceof ProviderError) throw err;
  if (err instanceof GoogleHttpError) {
    if (err.status === 403 && err.reasons.some((r) => r === 'insufficientPermissions' || r === 'forbidden')) {
      throw new ProviderAuthError(GOOGLE_REAUTH_MESSAGE);
    }
    throw new ProviderError(`Google Calendar could not ${what} (HTTP ${err.status}). Sync will retry.`);
  }
  throw err;
}

// ---------------------------------------------------------------------------------------------
// Sync helpers
// ---------------------------------------------------------------------------------------------

interface CalendarListEntry {
  id: string;
  primary?: boolean;
}

/** calendarList.list, all pages (https://developers.google.com/calendar/api/v3/reference/calendarList/list). */
async function listCalendars(session: GoogleSession): Promise<CalendarListEntry[]> {
  const out: CalendarListEntry[] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const body = (await session
      .call('GET', '/users/me/calendarList', { query: { maxResults: String(CALENDARS_PAGE_SIZE), ...(pageToken ? { pageToken } : {}) } })
      .catch((err) => toProviderError(err, 'list your calendars'))) as { items?: unknown[]; nextPageToken?: string } | null;
    for (const item of body?.items ?? []) {
      const c = item as { id?: unknown; primary?: unknown; deleted?: unknown };
      if (typeof c.id === 'string' && c.deleted !== true) out.push({ id: c.id, primary: c.primary === true });
    }
    pageToken = body?.nextPageToken;
    if (!pageToken) return out;
  }
  throw new ProviderError('Google Calendar returned too many pages of calendars.');
}

type ListOutcome = { kind: 'ok'; items: Array<Record<string, unknown>>; nextSyncToken: string | null } | { kind: 'gone' } | { kind: 'inaccessible' };

/**
 * events.list over all pages (https://developers.google.com/calendar/api/v3/reference/events/list):
 * showDeleted=true, no singleEvents, maxResults 2500; `syncToken` for an incremental listing.
 * 410 → `gone` (full sync required); 404 / 403 (not a rate limit) → `inaccessible`.
 */
async function listEvents(session: GoogleSession, calendarId: string, syncToken: string | null): Promise<ListOutcome> {
  const items: Array<Record<string, unknown>> = [];
  let pageToken: string | undefined;
  const path = `/calendars/${encodeURIComponent(calendarId)}/events`;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query: Record<string, string> = { showDeleted: 'true', maxResults: String(EVENTS_PAGE_SIZE) };
    if (syncToken) query.syncToken = syncToken;
    if (pageToken) query.pageToken = pageToken;
    let body: { items?: unknown[]; nextPageToken?: string; nextSyncToken?: string } | null;
    try {
      body = (await session.call('GET', path, { query })) as typeof body;
    } catch (err) {
      if (err instanceof GoogleHttpError && err.status === 410) return { kind: 'gone' };
      if (
        err instanceof GoogleHttpError &&
        (err.status === 404 || (err.status === 403 && !err.reasons.includes('insufficientPermissions')))
      ) {
        return { kind: 'inaccessible' };
      }
      toProviderError(err, 'read a calendar');
    }
    for (const it of body?.items ?? []) {
      if (it && typeof it === 'object' && typeof (it as { id?: unknown }).id === 'string') items.push(it as Record<string, unknown>);
    }
    pageToken = body?.nextPageToken;
    if (!pageToken) return { kind: 'ok', items, nextSyncToken: body?.nextSyncToken ?? null };
  }
  throw new ProviderError('Google Calendar returned too many pages of events.');
}

function isRecurringMaster(e: GoogleEvent): boolean {
  return (e.recurrence ?? []).some((l) => /^\s*(RRULE|RDATE)[;:]/i.test(l));
}

/** Upper bound (UTC ms) of a single event's end, or null when unknown. */
function latestEndOf(e: GoogleEvent): number | null {
  const t = e.end ?? e.start;
  if (!t) return null;
  if (t.dateTime) {
    const ms = Date.parse(t.dateTime);
    return Number.isFinite(ms) ? ms + DAY_MS : null; // + a day: a value without offset is read in some zone
  }
  if (t.date) {
    const ms = Date.parse(`${t.date}T00:00:00Z`);
    return Number.isFinite(ms) ? ms + DAY_MS : null; // all-day end 00:00 in the owner's zone ≤ +14 h
  }
  return null;
}

function etagOf(ics: string): string {
  return `"${createHash('sha256').update(ics, 'utf8').digest('base64url').slice(0, 27)}"`;
}

interface CalendarSyncOutput {
  state: CalendarSyncState;
  upserts: SourceUpsert[];
  removals: string[];
}

/**
 * Applies one listing (full, or the changes of an incremental one) of a calendar. `held` = hrefs
 * (and etags) we hold for it. Pure.
 */
export function applyListing(p: {
  calendarId: string;
  full: boolean;
  items: ReadonlyArray<Record<string, unknown>>;
  previous: CalendarSyncState | null;
  nextSyncToken: string | null;
  held: ReadonlyMap<string, string | null>;
  now: number;
}): CalendarSyncOutput {
  const series: Record<string, SeriesState> = p.full || !p.previous ? {} : structuredClone(p.previous.series);
  const selfEmails = new Set(p.full || !p.previous ? [] : p.previous.selfEmails);
  type Outcome = { kind: 'series' } | { kind: 'single'; event: GoogleEvent } | { kind: 'gone' };
  const outcome = new Map<string, Outcome>();
  /** Exception id → its series id (for deletions that come back with the id only). */
  const exceptionOwner = new Map<string, string>();
  for (const [sid, s] of Object.entries(series)) for (const xid of Object.keys(s.o)) exceptionOwner.set(xid, sid);

  for (const raw of p.items) {
    const e = compactEvent(raw);
    const self = selfEmailOf(e);
    if (self) selfEmails.add(self);
    const owner = exceptionOwner.get(e.id);
    if (e.recurringEventId) {
      const s = (series[e.recurringEventId] ??= { o: {} });
      s.o[e.id] = e;
      exceptionOwner.set(e.id, e.recurringEventId);
      outcome.set(e.recurringEventId, { kind: 'series' });
    } else if (e.status === 'cancelled') {
      if (owner && series[owner]?.o[e.id] && !series[e.id]) {
        // A deleted exception that came back with its id only: cancel that instance.
        series[owner]!.o[e.id] = { ...series[owner]!.o[e.id]!, status: 'cancelled' };
        outcome.set(owner, { kind: 'series' });
      } else {
        delete series[e.id];
        outcome.set(e.id, { kind: 'gone' });
      }
    } else if (isRecurringMaster(e)) {
      const s = (series[e.id] ??= { o: {} });
      s.m = e;
      outcome.set(e.id, { kind: 'series' });
    } else {
      delete series[e.id]; // a series that became a single event
      outcome.set(e.id, { kind: 'single', event: e });
    }
  }

  const upserts: SourceUpsert[] = [];
  const removals = new Set<string>();
  const live = new Set<string>();
  const cutoff = p.now - (SYNC_HORIZON_PAST_DAYS + 2) * DAY_MS;
  const emit = (href: string, ics: string | null) => {
    if (ics === null) {
      if (p.held.has(href)) removals.add(href);
      return;
    }
    live.add(href);
    const etag = etagOf(ics);
    if (p.held.get(href) === etag) return;
    upserts.push({ calendarUrl: p.calendarId, href, etag, icsText: ics });
  };
  for (const [href, o] of outcome) {
    if (o.kind === 'gone') emit(href, null);
    else if (o.kind === 'single') {
      const end = latestEndOf(o.event);
      emit(href, end !== null && end < cutoff ? null : seriesToIcs(o.event, []));
    } else {
      const s = series[href];
      const ics = s ? seriesToIcs(s.m ?? null, Object.values(s.o)) : null;
      if (s && !s.m && ics === null) delete series[href]; // only cancelled exceptions of an unknown series
      emit(href, ics);
    }
  }
  if (p.full) {
    for (const href of p.held.keys()) if (!live.has(href)) removals.add(href);
  }
  return {
    state: { syncToken: p.nextSyncToken, series, selfEmails: [...selfEmails].sort() },
    upserts,
    removals: [...removals],
  };
}

// ---------------------------------------------------------------------------------------------
// Push
// ---------------------------------------------------------------------------------------------

/** events.watch (https://developers.google.com/calendar/api/v3/reference/events/watch). */
async function watch(session: GoogleSession, webhookUrl: string, calendarId: string): Promise<PushChannel> {
  const id = randomUUID();
  const token = randomBytes(32).toString('base64url');
  let body: { id?: string; resourceId?: string; expiration?: string | number } | null;
  try {
    body = (await session.call('POST', `/calendars/${encodeURIComponent(calendarId)}/events/watch`, {
      json: { id, type: 'web_hook', address: webhookUrl, token, params: { ttl: String(GOOGLE_CHANNEL_TTL_SEC) } },
    })) as typeof body;
  } catch (err) {
    if (err instanceof GoogleHttpError && err.status === 400) {
      throw new ProviderError('Google Calendar refused the webhook address (it must be a public HTTPS URL of a verified domain).');
    }
    toProviderError(err, 'open a push channel');
  }
  const expiration = Number(body?.expiration);
  if (!body?.resourceId) throw new ProviderError('Google Calendar answered the watch request without a resource id.');
  return {
    channel_id: body.id ?? id,
    resource_id: body.resourceId,
    calendar_id: calendarId,
    token,
    expires_at: Number.isFinite(expiration) && expiration > 0 ? expiration : Date.now() + GOOGLE_CHANNEL_TTL_SEC * 1000,
  };
}

/** channels.stop (https://developers.google.com/calendar/api/v3/reference/channels/stop); 404 = already gone. */
async function stopChannel(session: GoogleSession, channel: PushChannel): Promise<void> {
  try {
    await session.call('POST', '/channels/stop', { json: { id: channel.channel_id, resourceId: channel.resource_id } });
  } catch (err) {
    if (err instanceof GoogleHttpError && err.status === 404) return;
    toProviderError(err, 'stop a push channel');
  }
}

// ---------------------------------------------------------------------------------------------
// The adapter
// ---------------------------------------------------------------------------------------------

export const googleProvider: OAuthCalendarProvider = {
  id: 'google',
  /** Google refuses a non-https watch address (400 push.webhookUrlNotHttps). */
  pushNeedsHttps: true,

  /** null when GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set; otherwise the UI's reason. */
  unavailableReason(config) {
    return config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET ? null : GOOGLE_UNAVAILABLE;
  },

  /**
   * Consent URL (https://developers.google.com/identity/protocols/oauth2/web-server#creatingclient):
   * scope calendar.readonly only, access_type=offline + prompt=consent (a refresh token every
   * time), include_granted_scopes=true, PKCE `code_challenge` (S256 of the caller's verifier), `state`.
   * @throws ProviderError when Google is not configured.
   */
  authorizationUrl(config, p) {
    const client = clientOf(config);
    const url = new URL(config.GOOGLE_AUTH_URL);
    const params: Record<string, string> = {
      client_id: client.id,
      redirect_uri: p.redirectUri,
      response_type: 'code',
      scope: GOOGLE_CALENDAR_SCOPE,
      access_type: 'offline',
      prompt: 'consent',
      include_granted_scopes: 'true',
      state: p.state,
      code_challenge: p.codeChallenge,
      code_challenge_method: 'S256',
    };
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return url.href;
  },

  /**
   * Exchanges the callback's code (grant_type=authorization_code with client secret and PKCE
   * verifier; https://developers.google.com/identity/protocols/oauth2/web-server#exchange-authorization-code),
   * then reads the account e-mail as the primary calendar's id (calendars.get 'primary'; no extra
   * scope). `tokens.expires_at` is UTC epoch ms. `account` is null if that read fails.
   * @throws ProviderError (code expired/used/wrong verifier, calendar access not granted, Google down),
   *   ProviderRateLimitError.
   */
  async exchangeCode(config, p) {
    const client = clientOf(config);
    const t = await tokenRequest(
      config,
      {
        grant_type: 'authorization_code',
        code: p.code,
        code_verifier: p.codeVerifier,
        redirect_uri: p.redirectUri,
        client_id: client.id,
        client_secret: client.secret,
      },
      () => new ProviderError('Google did not accept the sign-in (it expired or was already used). Please try connecting again.'),
    );
    // Granular consent lets the user untick the calendar permission.
    if (t.scope !== undefined && !t.scope.split(/\s+/).includes(GOOGLE_CALENDAR_SCOPE)) {
      throw new ProviderError('Avail needs permission to see your calendars. Please connect again and allow calendar access.');
    }
    const tokens = tokensFrom(t, null, Date.now());
    let account: string | null = null;
    try {
      const session = new GoogleSession(config, JSON.stringify(tokens));
      const primary = (await session.call('GET', '/calendars/primary')) as { id?: unknown } | null;
      account = typeof primary?.id === 'string' && primary.id.includes('@') ? primary.id.toLowerCase() : null;
    } catch {
      // The account e-mail is only the connection's label (the sync reads the primary calendar
      // again): the grant itself is good, so the connect goes on without it.
      account = null;
    }
    return { tokens, account };
  },

  /**
   * Full or incremental sync of every calendar of the account (see the module doc).
   * Result: upserts/removals per (calendar id, series/event id); `newState` = GoogleSyncState;
   * `newSecret` when the access token was refreshed; `notModified` when nothing changed.
   * @throws ProviderAuthError (grant revoked/expired, no refresh token, permission removed),
   *   ProviderRateLimitError (429/503/403 rate limit: retry after `retryAfterMs`), ProviderError.
   */
  async sync(config, input: ProviderSyncInput<Record<string, unknown>>): Promise<OAuthSyncResult> {
    const session = new GoogleSession(config, input.secret);
    try {
      return await syncWith(session, input);
    } catch (err) {
      throw withSecret(err, session.newSecret); // a refreshed token survives a failed sync
    }
  },

  /**
   * Opens one events.watch channel per calendar, address = `webhookUrl` as given. If one fails,
   * the channels already opened are stopped (best effort) and the error is thrown.
   * `expires_at` = Google's `expiration` (UTC epoch ms).
   */
  async startPush(config, p) {
    const session = new GoogleSession(config, p.secret);
    const channels: PushChannel[] = [];
    try {
      for (const calendarId of p.calendarIds) channels.push(await watch(session, p.webhookUrl, calendarId));
    } catch (err) {
      for (const ch of channels) await stopChannel(session, ch).catch(() => undefined);
      throw err;
    }
    const newSecret = session.newSecret;
    return newSecret ? { channels, newSecret } : { channels };
  },

  /**
   * Google channels cannot be extended: opens a new watch on the same calendar (new id and new
   * token, returned), then stops the old channel (`channel.token` is not needed and may be '') (a failure to stop it is ignored: it expires by itself and its notifications
   * name an unknown channel id).
   */
  async renewPush(config, p) {
    const session = new GoogleSession(config, p.secret);
    const channel = await watch(session, p.webhookUrl, p.channel.calendar_id);
    // Never fail once the new channel exists: the caller must learn about it.
    await stopChannel(session, p.channel).catch(() => undefined);
    const newSecret = session.newSecret;
    return newSecret ? { channel, newSecret } : { channel };
  },

  /**
   * channels.stop for each channel; channels Google no longer knows (404) are skipped. Other
   * failures are thrown after every channel was tried.
   */
  async stopPush(config, p) {
    if (p.channels.length === 0) return;
    const session = new GoogleSession(config, p.secret);
    let firstError: unknown = null;
    for (const ch of p.channels) {
      try {
        await stopChannel(session, ch);
      } catch (err) {
        firstError ??= err;
      }
    }
    if (firstError) throw firstError;
  },

  /**
   * Revokes the grant (https://developers.google.com/identity/protocols/oauth2/web-server#tokenrevoke):
   * POST token=<refresh token, else access token> as a form. Resolves when Google revoked it or
   * answers 400 (the token is already invalid or revoked: nothing left to revoke) and when the
   * secret holds no readable token. @throws ProviderError when Google could not be reached or
   * answered another error, so the caller (best effort: disconnect goes on) can log it.
   */
  async revoke(config, p) {
    let tokens: OAuthTokens;
    try {
      tokens = parseSecret(p.secret);
    } catch {
      return; // nothing readable to revoke; the connection and its stored secret are removed anyway
    }
    const token = tokens.refresh_token ?? tokens.access_token;
    let res: Response;
    try {
      res = await fetch(config.GOOGLE_REVOKE_URL, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token }).toString(),
        redirect: 'error',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch {
      throw new ProviderError('Could not reach Google to revoke the access.');
    }
    await res.arrayBuffer().catch(() => undefined); // the body is not needed; the status says it all
    if (!res.ok && res.status !== 400) throw new ProviderError(`Google answered ${res.status} to the revoke request.`);
  },
};

/** One sync of all calendars with an authorized session (see googleProvider.sync). */
async function syncWith(session: GoogleSession, input: ProviderSyncInput<Record<string, unknown>>): Promise<OAuthSyncResult> {
  const prev = readState(input.state);
  const calendars = await listCalendars(session);
  const account = calendars.find((c) => c.primary)?.id.toLowerCase() ?? prev?.account ?? null;

  const held = new Map<string, Map<string, string | null>>();
  for (const k of input.known) {
    if (!held.has(k.calendarUrl)) held.set(k.calendarUrl, new Map());
    held.get(k.calendarUrl)!.set(k.href, k.etag);
  }

  const upserts: SourceUpsert[] = [];
  const removals: Array<{ calendarUrl: string; href: string }> = [];
  const removedCalendars = new Set<string>();
  const nextCalendars: Record<string, CalendarSyncState> = {};
  const now = Date.now();

  for (const cal of calendars) {
    const previous = prev?.calendars[cal.id] ?? null;
    const heldHere = held.get(cal.id) ?? new Map<string, string | null>();
    let full = !previous?.syncToken;
    let listing = await listEvents(session, cal.id, full ? null : previous!.syncToken);
    if (listing.kind === 'gone') {
      full = true;
      listing = await listEvents(session, cal.id, null);
    }
    if (listing.kind !== 'ok') {
      // Not readable (404 / 403): nothing of it is kept.
      if (heldHere.size > 0 || previous) removedCalendars.add(cal.id);
      continue;
    }
    const out = applyListing({
      calendarId: cal.id,
      full,
      items: listing.items,
      previous,
      nextSyncToken: listing.nextSyncToken,
      held: heldHere,
      now,
    });
    nextCalendars[cal.id] = out.state;
    upserts.push(...out.upserts);
    for (const href of out.removals) removals.push({ calendarUrl: cal.id, href });
  }

  const listed = new Set(calendars.map((c) => c.id));
  for (const id of [...held.keys(), ...Object.keys(prev?.calendars ?? {})]) if (!listed.has(id)) removedCalendars.add(id);

  const ownerEmails = new Set<string>();
  if (account) ownerEmails.add(account);
  for (const c of Object.values(nextCalendars)) for (const e of c.selfEmails) ownerEmails.add(e);

  const calendarIds = calendars.map((c) => c.id).filter((id) => nextCalendars[id] !== undefined);
  const newState: GoogleSyncState = { v: 1, account, calendarIds, calendars: nextCalendars };
  const result: OAuthSyncResult = {
    notModified: upserts.length === 0 && removals.length === 0 && removedCalendars.size === 0,
    upserts,
    removals,
    removedCalendars: [...removedCalendars],
    calendarsCount: calendars.length,
    newState,
    ownerEmails: [...ownerEmails],
  };
  // `calendarIds` on the result (newer interface) and in newState (the server's fallback).
  (result as OAuthSyncResult & { calendarIds?: string[] }).calendarIds = calendarIds;
  const newSecret = session.newSecret;
  if (newSecret) result.newSecret = newSecret;
  return result;
}
