/**
 * A stateful local fake of exactly the Google endpoints Avail's Google adapter calls, on an HTTP
 * server at 127.0.0.1:0. Request and response shapes follow Google's documentation:
 *
 * - OAuth 2.0 for web server apps (https://developers.google.com/identity/protocols/oauth2/web-server):
 *   GET  /o/oauth2/v2/auth         consent page (PKCE S256 required) → redirect_uri?code&state&scope
 *   POST /token                    grant_type=authorization_code (client secret + code_verifier) |
 *                                  refresh_token; errors `{ error: 'invalid_grant', error_description }`
 *   POST /revoke                   token=… (form body or query)
 * - Calendar API v3 (https://developers.google.com/calendar/api/v3/reference), under /calendar/v3:
 *   GET  /users/me/calendarList    calendarList.list (paged: maxResults / pageToken / nextPageToken)
 *   GET  /calendars/primary        calendars.get (the primary calendar's id is the account e-mail)
 *   GET  /calendars/{id}/events    events.list: full sync (pageToken paging, nextSyncToken on the
 *                                  last page) or incremental (syncToken: only changes, deleted ones
 *                                  as status 'cancelled'); 410 `fullSyncRequired` for a stale token
 *   POST /calendars/{id}/events    events.insert (issue 24): needs the calendar.events (or calendar)
 *                                  scope → else 403 insufficientPermissions; a calendar with
 *                                  accessRole reader/freeBusyReader → 403 requiredAccessLevel; an
 *                                  iCalUID already on the calendar → 409 duplicate. The event gets
 *                                  an id, organizer = the calendar (self), and is listed by later
 *                                  events.list / sync-token rounds like any other.
 *   DELETE /calendars/{id}/events/{eventId}  events.delete → 204; unknown id 404, deleted 410
 *                                  (same scope and access checks).
 *   Both are RECORDED (`writes`, `recordedWrites()`: method, calendar id, event id, query, body).
 *   events.list honours `iCalUID=` (only that event).
 *   POST /calendars/{id}/events/watch   events.watch → channel resource (api#channel); an address
 *                                  that is not https:// → 400 `push.webhookUrlNotHttps`, as Google
 *   POST /channels/stop            channels.stop → 204, 404 for an unknown channel
 * - Push notifications (https://developers.google.com/calendar/api/guides/push): `notify()` POSTs the
 *   documented headers (X-Goog-Channel-ID, -Token, -Expiration, X-Goog-Resource-ID, -URI, -State,
 *   X-Goog-Message-Number) with an empty body to the channel's address (a relayed
 *   `https://push-relay-<port>.test` address reaches http://127.0.0.1:<port>, see push-relay.ts).
 *   A `sync` message is sent right after each watch, as Google does (disable with
 *   `syncMessageOnWatch: false`).
 *
 * API calls need `Authorization: Bearer <access token>`; an unknown or expired token gets the
 * documented 401 `authError` body, so the adapter's refresh path runs.
 *
 * Not modelled: singleEvents=true (answered 400 so an adapter using it is noticed), timeMin/timeMax,
 * ACLs, calendarList sync tokens, events.instances, incremental consent, id_token.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { deliveryUrl } from './push-relay.ts';

export const CALENDAR_READONLY_SCOPE = 'https://www.googleapis.com/auth/calendar.readonly';
const CALENDAR_EVENTS_SCOPE = 'https://www.googleapis.com/auth/calendar.events';
const ALLOWED_SCOPES = new Set([CALENDAR_READONLY_SCOPE, CALENDAR_EVENTS_SCOPE, 'openid', 'email']);
/** Scopes that allow events.insert / events.delete. */
const WRITE_SCOPES = new Set([CALENDAR_EVENTS_SCOPE, 'https://www.googleapis.com/auth/calendar']);

/** A Google Calendar event resource as the fake stores it (a subset of the documented fields). */
interface FakeEvent {
  kind?: 'calendar#event';
  id: string;
  etag?: string;
  status?: 'confirmed' | 'tentative' | 'cancelled';
  summary?: string;
  start?: { date?: string; dateTime?: string; timeZone?: string };
  end?: { date?: string; dateTime?: string; timeZone?: string };
  endTimeUnspecified?: boolean;
  recurrence?: string[];
  recurringEventId?: string;
  originalStartTime?: { date?: string; dateTime?: string; timeZone?: string };
  transparency?: 'opaque' | 'transparent';
  iCalUID?: string;
  sequence?: number;
  updated?: string;
  attendees?: Array<{ email?: string; self?: boolean; responseStatus?: string; organizer?: boolean; displayName?: string }>;
  [k: string]: unknown;
}

interface FakeCalendar {
  id: string;
  summary: string;
  timeZone: string;
  primary?: boolean;
  accessRole: 'owner' | 'writer' | 'reader' | 'freeBusyReader';
  /** calendarList backgroundColor (#rrggbb). */
  backgroundColor?: string;
}

interface FakeChannel {
  id: string;
  resourceId: string;
  resourceUri: string;
  calendarId: string;
  address: string;
  token: string | undefined;
  expiration: number;
  params: Record<string, string>;
  stopped: boolean;
  messageNumber: number;
}

interface FakeRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
}

/** One recorded events.insert / events.delete call (answered or refused). */
interface FakeWrite {
  method: 'POST' | 'DELETE';
  calendarId: string;
  /** DELETE: the event id of the path; POST: the id the fake gave the new event (undefined when refused). */
  eventId?: string;
  /** Query parameters (e.g. `sendUpdates: 'none'`). */
  query: Record<string, string>;
  /** The parsed JSON body (POST), else null. */
  body: FakeEvent | null;
  /** The HTTP status answered. */
  status: number;
}

export interface GoogleFakeOptions {
  /** The account's e-mail = the primary calendar's id. Default 'owner@example.com'. */
  account?: string;
  /** events.list page size cap (Google's default 250, max 2500). Default 250. */
  pageSize?: number;
  /** calendarList.list page size cap. Default 100. */
  calendarPageSize?: number;
  /** The authorize endpoint redirects at once instead of showing the consent page. */
  autoApprove?: boolean;
  /** Accepted redirect URIs (as registered in the Cloud console); unset = any. */
  redirectUris?: string[];
  /** Access token lifetime in seconds (Google: 3599). */
  accessTokenTtlSec?: number;
  /** Scopes the user grants (granular consent lets them untick some); default: all requested. */
  grantedScope?: string;
  /** Send the `sync` notification after each events.watch. Default true. */
  syncMessageOnWatch?: boolean;
}

interface StoredEvent {
  event: FakeEvent;
  /** Change sequence number of the last change. */
  seq: number;
  /** Hard-deleted: only returned (as `{ id, status: 'cancelled' }`) to incremental syncs. */
  purged: boolean;
}

interface CalendarState {
  cal: FakeCalendar;
  events: Map<string, StoredEvent>;
}

export interface GoogleCalendarFake {
  url: string;
  env: {
    GOOGLE_CLIENT_ID: string;
    GOOGLE_CLIENT_SECRET: string;
    GOOGLE_AUTH_URL: string;
    GOOGLE_TOKEN_URL: string;
    GOOGLE_REVOKE_URL: string;
    GOOGLE_API_BASE_URL: string;
  };
  account: string;
  /** Adds (or replaces the metadata of) a calendar. */
  addCalendar(cal: Partial<FakeCalendar> & { id: string }): FakeCalendar;
  /** Removes a calendar from the list (its events.list answers 404). */
  removeCalendar(calendarId: string): void;
  /** Inserts or replaces an event (fills kind, etag, iCalUID, status, updated); returns the stored copy. */
  putEvent(calendarId: string, event: FakeEvent): FakeEvent;
  /** Sets status 'cancelled', keeping the details (as on the organizer's calendar). */
  cancelEvent(calendarId: string, eventId: string): void;
  /** Deletes an event for good: only incremental syncs see it again, as `{ id, status: 'cancelled' }`. */
  deleteEvent(calendarId: string, eventId: string): void;
  /** Makes every issued sync token (of one calendar, or all) answer 410 fullSyncRequired. */
  invalidateSyncTokens(calendarId?: string): void;
  /** Revokes a refresh token (default: all): the token endpoint answers invalid_grant. */
  revokeRefreshToken(refreshToken?: string): void;
  /** Every access token issued so far is expired (API calls answer 401). */
  expireAccessTokens(): void;
  /** The next matching request gets this status (with a documented error body unless `body`). */
  failNext(status: number, headers?: Record<string, string>, opts?: { body?: unknown; where?: 'api' | 'token' }): void;
  /** Authorization codes issued; the newest last. */
  readonly codes: string[];
  /** All channels ever opened (stopped ones have `stopped: true`). */
  readonly channels: FakeChannel[];
  /** Tokens (refresh or access) revoked through the revoke endpoint. */
  readonly revoked: string[];
  /** Every request handled (path without query). */
  readonly requests: FakeRequest[];
  /** Every events.insert / events.delete call, in order. */
  readonly writes: FakeWrite[];
  /** A JSON copy of `writes` (for the browser tests' fakeCall, which can only call methods). */
  recordedWrites(): FakeWrite[];
  /** Number of refresh_token grants answered with a new access token. */
  refreshCount(): number;
  /** POSTs a push notification for a channel; resolves to the receiver's HTTP status. */
  notify(channelId: string, state?: 'sync' | 'exists' | 'not_exists'): Promise<number>;
  close(): Promise<void>;
}

function b64url(buf: Buffer): string {
  return buf.toString('base64url');
}

function sha256b64url(text: string): string {
  return createHash('sha256').update(text, 'ascii').digest('base64url');
}

function apiError(code: number, reason: string, message: string, domain = 'global', extra: Record<string, string> = {}) {
  return { error: { errors: [{ domain, reason, message, ...extra }], code, message } };
}

function defaultErrorBody(status: number): unknown {
  if (status === 429) return apiError(429, 'rateLimitExceeded', 'Rate Limit Exceeded', 'usageLimits');
  if (status === 403) return apiError(403, 'userRateLimitExceeded', 'User Rate Limit Exceeded', 'usageLimits');
  if (status === 503) return apiError(503, 'backendError', 'Backend Error');
  if (status === 500) return apiError(500, 'backendError', 'Backend Error');
  if (status === 401) return apiError(401, 'authError', 'Invalid Credentials', 'global', { locationType: 'header', location: 'Authorization' });
  return apiError(status, 'error', `HTTP ${status}`);
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Starts the fake on 127.0.0.1 with a random port. */
export async function start(options: GoogleFakeOptions = {}): Promise<GoogleCalendarFake> {
  const account = options.account ?? 'owner@example.com';
  const pageSize = options.pageSize ?? 250;
  const calendarPageSize = options.calendarPageSize ?? 100;
  const accessTtl = options.accessTokenTtlSec ?? 3599;
  const clientId = `${randomBytes(6).toString('hex')}.apps.googleusercontent.com`;
  const clientSecret = `GOCSPX-${b64url(randomBytes(18))}`;

  let seq = 0;
  let etagCounter = 0;
  let refreshes = 0;
  const calendars = new Map<string, CalendarState>();
  const syncTokens = new Map<string, { calendarId: string; seq: number }>();
  const pageTokens = new Map<string, { key: string; items: FakeEvent[]; offset: number; nextSyncToken: string }>();
  const calPageTokens = new Map<string, number>();
  const authRequests = new Map<string, { redirectUri: string; state: string | undefined; scope: string; challenge: string }>();
  const codes = new Map<string, { redirectUri: string; challenge: string; scope: string; used: boolean }>();
  const codeList: string[] = [];
  const refreshTokens = new Map<string, { revoked: boolean; scope: string }>();
  const accessTokens = new Map<string, { expiresAt: number; refreshToken: string | null }>();
  const channels: FakeChannel[] = [];
  const revoked: string[] = [];
  const requests: FakeRequest[] = [];
  const writes: FakeWrite[] = [];
  const failures: Array<{ status: number; headers: Record<string, string>; body?: unknown; where: 'api' | 'token' }> = [];

  const addCalendar = (c: Partial<FakeCalendar> & { id: string }): FakeCalendar => {
    const existing = calendars.get(c.id);
    const cal: FakeCalendar = {
      summary: c.id,
      timeZone: 'Europe/Brussels',
      accessRole: 'owner',
      ...(existing?.cal ?? {}),
      ...c,
    };
    if (existing) existing.cal = cal;
    else calendars.set(c.id, { cal, events: new Map() });
    return cal;
  };
  addCalendar({ id: account, summary: account, primary: true });

  const calOf = (id: string): CalendarState => {
    const c = calendars.get(id);
    if (!c) throw new Error(`fake: no calendar ${id}`);
    return c;
  };
  const nextEtag = () => `"${Date.now()}${String(++etagCounter).padStart(6, '0')}"`;

  const putEvent = (calendarId: string, event: FakeEvent): FakeEvent => {
    const c = calOf(calendarId);
    const master = event.recurringEventId ? c.events.get(event.recurringEventId)?.event : undefined;
    const stored: FakeEvent = {
      kind: 'calendar#event',
      status: 'confirmed',
      iCalUID: master?.iCalUID ?? `${event.recurringEventId ?? event.id}@google.com`,
      sequence: 0,
      ...event,
      etag: nextEtag(),
      updated: new Date().toISOString(),
    };
    c.events.set(event.id, { event: stored, seq: ++seq, purged: false });
    return structuredClone(stored);
  };

  const cancelEvent = (calendarId: string, eventId: string) => {
    const s = calOf(calendarId).events.get(eventId);
    if (!s) throw new Error(`fake: no event ${eventId}`);
    s.event = { ...s.event, status: 'cancelled', etag: nextEtag(), updated: new Date().toISOString() };
    s.seq = ++seq;
  };

  const deleteEvent = (calendarId: string, eventId: string) => {
    const s = calOf(calendarId).events.get(eventId);
    if (!s) throw new Error(`fake: no event ${eventId}`);
    s.event = { kind: 'calendar#event', id: eventId, etag: nextEtag(), status: 'cancelled' };
    s.seq = ++seq;
    s.purged = true;
  };

  const issueAccessToken = (refreshToken: string | null) => {
    const token = `ya29.${b64url(randomBytes(24))}`;
    accessTokens.set(token, { expiresAt: Date.now() + accessTtl * 1000, refreshToken });
    return token;
  };

  const sendJson = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
    res.end(JSON.stringify(body));
  };
  const tokenError = (res: http.ServerResponse, status: number, error: string, description: string) =>
    sendJson(res, status, { error, error_description: description });

  const takeFailure = (where: 'api' | 'token') => {
    const i = failures.findIndex((f) => f.where === where);
    return i >= 0 ? failures.splice(i, 1)[0]! : null;
  };

  /** The 403 body when the token's grant lacks a write scope or the calendar is read-only to the account; else null. */
  const writeDenied = (at: { refreshToken: string | null; scope?: string }, c: CalendarState): unknown => {
    const scope = at.scope ?? (at.refreshToken ? refreshTokens.get(at.refreshToken)?.scope : undefined) ?? '';
    if (!scope.split(/\s+/).some((x) => WRITE_SCOPES.has(x))) {
      return apiError(403, 'insufficientPermissions', 'Request had insufficient authentication scopes.');
    }
    if (c.cal.accessRole !== 'owner' && c.cal.accessRole !== 'writer') {
      return apiError(403, 'requiredAccessLevel', 'You need to have writer access to this calendar.', 'calendar');
    }
    return null;
  };

  // --------------------------------------------------------------------------------- OAuth

  const handleAuthorize = (url: URL, res: http.ServerResponse) => {
    const q = url.searchParams;
    const bad = (msg: string) => {
      res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>Error 400</title><p id="error">${escapeHtml(msg)}</p>`);
    };
    if (q.get('client_id') !== clientId) return bad('invalid_client: The OAuth client was not found.');
    const redirectUri = q.get('redirect_uri') ?? '';
    if (!/^https?:\/\//.test(redirectUri)) return bad('invalid_request: redirect_uri');
    if (options.redirectUris && !options.redirectUris.includes(redirectUri)) return bad('redirect_uri_mismatch');
    if (q.get('response_type') !== 'code') return bad('unsupported_response_type');
    const scopes = (q.get('scope') ?? '').split(/\s+/).filter(Boolean);
    if (!scopes.includes(CALENDAR_READONLY_SCOPE) || scopes.some((s) => !ALLOWED_SCOPES.has(s))) return bad('invalid_scope');
    const challenge = q.get('code_challenge') ?? '';
    if (q.get('code_challenge_method') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) {
      return bad('invalid_request: code_challenge_method must be S256 with a 43-character code_challenge');
    }
    const reqId = b64url(randomBytes(12));
    authRequests.set(reqId, { redirectUri, state: q.get('state') ?? undefined, scope: scopes.join(' '), challenge });
    if (options.autoApprove) return approve(reqId, true, res);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><head><title>Sign in - Google Accounts</title></head><body>` +
        `<h1>Avail wants to access your Google Account</h1><p>${escapeHtml(account)}</p>` +
        `<p>See and download any calendar you can access using your Google Calendar</p>` +
        `<a id="allow" href="/o/oauth2/v2/auth/approve?request=${reqId}&amp;allow=1">Allow</a> ` +
        `<a id="deny" href="/o/oauth2/v2/auth/approve?request=${reqId}&amp;allow=0">Cancel</a>` +
        `</body></html>`,
    );
  };

  const approve = (reqId: string, allow: boolean, res: http.ServerResponse) => {
    const ar = authRequests.get(reqId);
    if (!ar) {
      res.writeHead(400, { 'content-type': 'text/plain' });
      return void res.end('unknown consent request');
    }
    authRequests.delete(reqId);
    const target = new URL(ar.redirectUri);
    if (allow) {
      const code = `4/0${b64url(randomBytes(30))}`;
      const scope = options.grantedScope ?? ar.scope;
      codes.set(code, { redirectUri: ar.redirectUri, challenge: ar.challenge, scope, used: false });
      codeList.push(code);
      target.searchParams.set('code', code);
      target.searchParams.set('scope', scope);
    } else {
      target.searchParams.set('error', 'access_denied');
    }
    if (ar.state !== undefined) target.searchParams.set('state', ar.state);
    res.writeHead(302, { location: target.href });
    res.end();
  };

  const handleToken = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const fail = takeFailure('token');
    if (fail) return sendJson(res, fail.status, fail.body ?? { error: 'temporarily_unavailable' }, fail.headers);
    const ct = req.headers['content-type'] ?? '';
    if (!ct.startsWith('application/x-www-form-urlencoded')) return tokenError(res, 400, 'invalid_request', 'Bad content type');
    const p = new URLSearchParams(await readBody(req));
    if (p.get('client_id') !== clientId || p.get('client_secret') !== clientSecret) {
      return tokenError(res, 401, 'invalid_client', 'Unauthorized');
    }
    const grant = p.get('grant_type');
    if (grant === 'authorization_code') {
      const code = codes.get(p.get('code') ?? '');
      if (!code || code.used) return tokenError(res, 400, 'invalid_grant', 'Malformed auth code.');
      if (p.get('redirect_uri') !== code.redirectUri) return tokenError(res, 400, 'redirect_uri_mismatch', 'Bad Request');
      const verifier = p.get('code_verifier') ?? '';
      if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || sha256b64url(verifier) !== code.challenge) {
        return tokenError(res, 400, 'invalid_grant', 'Invalid code verifier.');
      }
      code.used = true;
      const refreshToken = `1//0${b64url(randomBytes(30))}`;
      refreshTokens.set(refreshToken, { revoked: false, scope: code.scope });
      return sendJson(res, 200, {
        access_token: issueAccessToken(refreshToken),
        expires_in: accessTtl,
        refresh_token: refreshToken,
        scope: code.scope,
        token_type: 'Bearer',
      });
    }
    if (grant === 'refresh_token') {
      const rt = p.get('refresh_token') ?? '';
      const stored = refreshTokens.get(rt);
      if (!stored || stored.revoked) return tokenError(res, 400, 'invalid_grant', 'Token has been expired or revoked.');
      refreshes++;
      return sendJson(res, 200, {
        access_token: issueAccessToken(rt),
        expires_in: accessTtl,
        scope: stored.scope,
        token_type: 'Bearer',
      });
    }
    return tokenError(res, 400, 'unsupported_grant_type', 'Invalid grant_type');
  };

  const handleRevoke = async (req: http.IncomingMessage, url: URL, res: http.ServerResponse) => {
    const body = new URLSearchParams(await readBody(req));
    const token = body.get('token') ?? url.searchParams.get('token') ?? '';
    const rt = refreshTokens.get(token);
    const at = accessTokens.get(token);
    if (!rt && !at) return tokenError(res, 400, 'invalid_token', 'Token expired or revoked');
    revoked.push(token);
    // Revoking either token of a grant revokes the grant: the refresh token and its access tokens.
    const grantRt = rt ? token : at!.refreshToken;
    if (grantRt && refreshTokens.has(grantRt)) refreshTokens.get(grantRt)!.revoked = true;
    for (const [t, a] of accessTokens) if (t === token || (grantRt && a.refreshToken === grantRt)) a.expiresAt = 0;
    sendJson(res, 200, {});
  };

  // --------------------------------------------------------------------------------- Calendar API

  const handleApi = async (req: http.IncomingMessage, url: URL, path: string, res: http.ServerResponse): Promise<number> => {
    const auth = req.headers.authorization ?? '';
    const token = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    const at = accessTokens.get(token);
    if (!at || at.expiresAt <= Date.now()) {
      sendJson(res, 401, defaultErrorBody(401), { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' });
      return 401;
    }
    const fail = takeFailure('api');
    if (fail) {
      sendJson(res, fail.status, fail.body ?? defaultErrorBody(fail.status), fail.headers);
      return fail.status;
    }
    const q = url.searchParams;
    const notFound = () => (sendJson(res, 404, apiError(404, 'notFound', 'Not Found')), 404);

    if (req.method === 'GET' && path === '/users/me/calendarList') {
      const max = Math.min(Number(q.get('maxResults') ?? 100) || 100, calendarPageSize);
      let offset = 0;
      const pt = q.get('pageToken');
      if (pt) {
        if (!calPageTokens.has(pt)) return (sendJson(res, 400, apiError(400, 'invalid', 'Invalid page token')), 400);
        offset = calPageTokens.get(pt)!;
      }
      const all = [...calendars.values()].map((c) => c.cal);
      const items = all.slice(offset, offset + max).map((c) => ({
        kind: 'calendar#calendarListEntry',
        etag: `"${c.id.length}"`,
        id: c.id,
        summary: c.summary,
        timeZone: c.timeZone,
        accessRole: c.accessRole,
        ...(c.backgroundColor ? { backgroundColor: c.backgroundColor } : {}),
        ...(c.primary ? { primary: true } : {}),
      }));
      const body: Record<string, unknown> = { kind: 'calendar#calendarList', etag: `"${seq}"`, items };
      if (offset + max < all.length) {
        const next = b64url(randomBytes(9));
        calPageTokens.set(next, offset + max);
        body.nextPageToken = next;
      } else {
        body.nextSyncToken = `cl${seq}`;
      }
      sendJson(res, 200, body);
      return 200;
    }

    if (req.method === 'GET' && path === '/calendars/primary') {
      const c = calOf(account).cal;
      sendJson(res, 200, { kind: 'calendar#calendar', etag: '"p"', id: c.id, summary: c.summary, timeZone: c.timeZone });
      return 200;
    }

    if (req.method === 'POST' && path === '/channels/stop') {
      let body: { id?: string; resourceId?: string };
      try {
        body = JSON.parse(await readBody(req)) as typeof body;
      } catch {
        return (sendJson(res, 400, apiError(400, 'parseError', 'Parse Error')), 400);
      }
      const ch = channels.find((c) => c.id === body.id && c.resourceId === body.resourceId && !c.stopped);
      if (!ch) return notFound();
      ch.stopped = true;
      res.writeHead(204).end();
      return 204;
    }

    const one = /^\/calendars\/([^/]+)\/events\/([^/]+)$/.exec(path);
    if (one && one[2] !== 'watch' && req.method === 'DELETE') {
      const calendarId = decodeURIComponent(one[1]!);
      const eventId = decodeURIComponent(one[2]!);
      const w: FakeWrite = { method: 'DELETE', calendarId, eventId, query: Object.fromEntries(q), body: null, status: 0 };
      writes.push(w);
      const answer = (status: number, body?: unknown) => {
        w.status = status;
        if (body === undefined) res.writeHead(status).end();
        else sendJson(res, status, body);
        return status;
      };
      const c = calendars.get(calendarId);
      if (!c) return answer(404, apiError(404, 'notFound', 'Not Found'));
      const denied = writeDenied(at, c);
      if (denied) return answer(403, denied);
      const s = c.events.get(eventId);
      if (!s) return answer(404, apiError(404, 'notFound', 'Not Found'));
      if (s.purged || s.event.status === 'cancelled') return answer(410, apiError(410, 'deleted', 'Resource has been deleted'));
      deleteEvent(calendarId, eventId);
      return answer(204);
    }

    const m = /^\/calendars\/([^/]+)\/events(\/watch)?$/.exec(path);
    if (!m) return notFound();
    const calendarId = decodeURIComponent(m[1]!);
    const c = calendars.get(calendarId);
    if (!c) return notFound();

    if (m[2] && req.method === 'POST') {
      let body: { id?: string; type?: string; address?: string; token?: string; params?: Record<string, string> };
      try {
        body = JSON.parse(await readBody(req)) as typeof body;
      } catch {
        return (sendJson(res, 400, apiError(400, 'parseError', 'Parse Error')), 400);
      }
      if (!body.id || body.id.length > 64 || !/^[A-Za-z0-9\-_+/=]+$/.test(body.id)) {
        return (sendJson(res, 400, apiError(400, 'invalid', 'Invalid channel id')), 400);
      }
      if (channels.some((ch) => ch.id === body.id)) {
        return (sendJson(res, 400, apiError(400, 'channelIdNotUnique', 'Channel id not unique', 'push')), 400);
      }
      if (body.type !== 'web_hook' && body.type !== 'webhook') {
        return (sendJson(res, 400, apiError(400, 'invalid', 'Invalid channel type')), 400);
      }
      // Google delivers only to https (https://developers.google.com/calendar/api/guides/push#requirements);
      // an http:// (or missing) address is refused with 400 push.webhookUrlNotHttps.
      if (!body.address || !/^https:\/\//i.test(body.address)) {
        const message = `WebHook callback must be HTTPS: ${body.address ?? ''}`;
        return (sendJson(res, 400, apiError(400, 'push.webhookUrlNotHttps', message, 'global')), 400);
      }
      const ttlSec = Number(body.params?.ttl ?? 604800);
      const ch: FakeChannel = {
        id: body.id,
        resourceId: b64url(randomBytes(15)),
        resourceUri: `${url.origin}/calendar/v3/calendars/${encodeURIComponent(calendarId)}/events?alt=json`,
        calendarId,
        address: body.address,
        token: body.token,
        expiration: Date.now() + (Number.isFinite(ttlSec) && ttlSec > 0 ? ttlSec : 604800) * 1000,
        params: body.params ?? {},
        stopped: false,
        messageNumber: 0,
      };
      channels.push(ch);
      sendJson(res, 200, {
        kind: 'api#channel',
        id: ch.id,
        resourceId: ch.resourceId,
        resourceUri: ch.resourceUri,
        ...(ch.token !== undefined ? { token: ch.token } : {}),
        expiration: String(ch.expiration),
      });
      if (options.syncMessageOnWatch !== false) setImmediate(() => void notify(ch.id, 'sync').catch(() => undefined));
      return 200;
    }

    if (req.method === 'POST' && !m[2]) {
      // events.insert (https://developers.google.com/calendar/api/v3/reference/events/insert)
      const w: FakeWrite = { method: 'POST', calendarId, query: Object.fromEntries(q), body: null, status: 0 };
      writes.push(w);
      const answer = (status: number, body: unknown) => {
        w.status = status;
        sendJson(res, status, body);
        return status;
      };
      let body: FakeEvent;
      try {
        body = JSON.parse(await readBody(req)) as FakeEvent;
      } catch {
        return answer(400, apiError(400, 'parseError', 'Parse Error'));
      }
      w.body = body;
      const denied = writeDenied(at, c);
      if (denied) return answer(403, denied);
      if (!body.start?.dateTime && !body.start?.date) return answer(400, apiError(400, 'required', 'Missing start time.'));
      if (!body.end?.dateTime && !body.end?.date) return answer(400, apiError(400, 'required', 'Missing end time.'));
      if (body.iCalUID && [...c.events.values()].some((x) => !x.purged && x.event.iCalUID === body.iCalUID && !x.event.recurringEventId)) {
        return answer(409, apiError(409, 'duplicate', 'The requested identifier already exists.'));
      }
      // Google's ids: base32hex characters (a-v, 0-9).
      const id = [...randomBytes(16)].map((b) => '0123456789abcdefghijklmnopqrstuv'[b & 31]).join('');
      const stored = putEvent(calendarId, {
        ...body,
        id,
        htmlLink: `https://www.google.com/calendar/event?eid=${id}`,
        created: new Date().toISOString(),
        creator: { email: account, ...(calendarId === account ? { self: true } : {}) },
        organizer: { email: calendarId, ...(c.cal.primary ? {} : { displayName: c.cal.summary }), self: true },
        ...(body.iCalUID ? {} : { iCalUID: `${id}@google.com` }),
      });
      w.eventId = id;
      return answer(200, stored);
    }

    if (req.method !== 'GET' || m[2]) return notFound();
    // events.list
    if (q.get('singleEvents') === 'true') {
      return (sendJson(res, 400, apiError(400, 'invalid', 'singleEvents=true is not modelled by the fake')), 400);
    }
    const syncToken = q.get('syncToken');
    if (syncToken && ['timeMin', 'timeMax', 'updatedMin', 'q', 'iCalUID', 'orderBy'].some((k) => q.has(k))) {
      return (sendJson(res, 400, apiError(400, 'invalid', 'Sync token cannot be used with other request restrictions.')), 400);
    }
    const showDeleted = q.get('showDeleted') === 'true';
    const max = Math.min(Number(q.get('maxResults') ?? 250) || 250, pageSize, 2500);
    const pageToken = q.get('pageToken');
    const queryKey = `${calendarId}|${syncToken ?? ''}|${showDeleted}`;
    let page: { key: string; items: FakeEvent[]; offset: number; nextSyncToken: string };
    if (pageToken) {
      const p = pageTokens.get(pageToken);
      if (!p || p.key !== queryKey) return (sendJson(res, 400, apiError(400, 'invalid', 'Invalid page token')), 400);
      pageTokens.delete(pageToken);
      page = p;
    } else {
      let since: number | null = null;
      if (syncToken) {
        const st = syncTokens.get(syncToken);
        if (!st || st.calendarId !== calendarId) {
          sendJson(
            res,
            410,
            apiError(410, 'fullSyncRequired', 'Sync token is no longer valid, a full sync is required.', 'calendar', {
              locationType: 'parameter',
              location: 'syncToken',
            }),
          );
          return 410;
        }
        since = st.seq;
      }
      const items = [...c.events.values()]
        // Without showDeleted, cancelled exceptions of a series are still listed (events.list doc).
        .filter((s) =>
          since === null
            ? !s.purged && (showDeleted || s.event.status !== 'cancelled' || s.event.recurringEventId !== undefined)
            : s.seq > since,
        )
        .filter((s) => !q.has('iCalUID') || s.event.iCalUID === q.get('iCalUID'))
        .sort((a, b) => a.seq - b.seq)
        .map((s) => structuredClone(s.event));
      const nextSyncToken = `CP${b64url(randomBytes(12))}`;
      syncTokens.set(nextSyncToken, { calendarId, seq });
      page = { key: queryKey, items, offset: 0, nextSyncToken };
    }
    const slice = page.items.slice(page.offset, page.offset + max);
    const body: Record<string, unknown> = {
      kind: 'calendar#events',
      etag: `"${seq}"`,
      summary: c.cal.summary,
      updated: new Date().toISOString(),
      timeZone: c.cal.timeZone,
      accessRole: c.cal.accessRole,
      items: slice,
    };
    if (page.offset + max < page.items.length) {
      const next = b64url(randomBytes(12));
      pageTokens.set(next, { ...page, offset: page.offset + max });
      body.nextPageToken = next;
    } else {
      body.nextSyncToken = page.nextSyncToken;
    }
    sendJson(res, 200, body);
    return 200;
  };

  // --------------------------------------------------------------------------------- server

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', base);
    const entry: FakeRequest = { method: req.method ?? 'GET', path: url.pathname, query: Object.fromEntries(url.searchParams), status: 0 };
    requests.push(entry);
    const done = (status: number) => {
      entry.status = status;
    };
    (async () => {
      if (req.method === 'GET' && url.pathname === '/o/oauth2/v2/auth') return handleAuthorize(url, res);
      if (req.method === 'GET' && url.pathname === '/o/oauth2/v2/auth/approve') {
        return approve(url.searchParams.get('request') ?? '', url.searchParams.get('allow') === '1', res);
      }
      if (req.method === 'POST' && url.pathname === '/token') return handleToken(req, res);
      if (req.method === 'POST' && url.pathname === '/revoke') return handleRevoke(req, url, res);
      if (url.pathname.startsWith('/calendar/v3/')) {
        return void done(await handleApi(req, url, url.pathname.slice('/calendar/v3'.length), res));
      }
      sendJson(res, 404, apiError(404, 'notFound', 'Not Found'));
    })()
      .catch((err) => {
        if (!res.headersSent) sendJson(res, 500, apiError(500, 'backendError', String((err as Error).message)));
      })
      .finally(() => {
        if (!entry.status) entry.status = res.statusCode;
      });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const notify = async (channelId: string, state: 'sync' | 'exists' | 'not_exists' = 'exists'): Promise<number> => {
    const ch = channels.find((c) => c.id === channelId);
    if (!ch) throw new Error(`fake: no channel ${channelId}`);
    if (ch.stopped) throw new Error(`fake: channel ${channelId} was stopped`);
    const headers: Record<string, string> = {
      'X-Goog-Channel-ID': ch.id,
      'X-Goog-Channel-Expiration': new Date(ch.expiration).toUTCString(),
      'X-Goog-Resource-ID': ch.resourceId,
      'X-Goog-Resource-URI': ch.resourceUri,
      'X-Goog-Resource-State': state,
      'X-Goog-Message-Number': String(++ch.messageNumber),
      'Content-Length': '0',
    };
    if (ch.token !== undefined) headers['X-Goog-Channel-Token'] = ch.token;
    // Through the test setups' TLS-terminating proxy (push-relay.ts) for relayed addresses.
    const res = await fetch(deliveryUrl(ch.address), { method: 'POST', headers, redirect: 'manual' });
    await res.arrayBuffer().catch(() => undefined);
    return res.status;
  };

  return {
    url: base,
    env: {
      GOOGLE_CLIENT_ID: clientId,
      GOOGLE_CLIENT_SECRET: clientSecret,
      GOOGLE_AUTH_URL: `${base}/o/oauth2/v2/auth`,
      GOOGLE_TOKEN_URL: `${base}/token`,
      GOOGLE_REVOKE_URL: `${base}/revoke`,
      GOOGLE_API_BASE_URL: base,
    },
    account,
    addCalendar,
    removeCalendar: (id) => {
      calendars.delete(id);
    },
    putEvent,
    cancelEvent,
    deleteEvent,
    invalidateSyncTokens: (calendarId) => {
      for (const [t, s] of syncTokens) if (!calendarId || s.calendarId === calendarId) syncTokens.delete(t);
    },
    revokeRefreshToken: (rt) => {
      for (const [t, s] of refreshTokens) if (!rt || t === rt) s.revoked = true;
    },
    expireAccessTokens: () => {
      for (const a of accessTokens.values()) a.expiresAt = 0;
    },
    failNext: (status, headers = {}, opts = {}) => {
      failures.push({ status, headers, body: opts.body, where: opts.where ?? 'api' });
    },
    get codes() {
      return codeList;
    },
    channels,
    revoked,
    requests,
    writes,
    recordedWrites: () => structuredClone(writes),
    refreshCount: () => refreshes,
    notify,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections?.();
        server.close(() => r());
      }),
  };
}
