/**
 * A stateful local fake of the Microsoft identity platform v2.0 and the Microsoft Graph endpoints
 * the Microsoft adapter calls. Two listeners, like Microsoft's two hosts (login.microsoftonline.com,
 * graph.microsoft.com): the identity platform on http://127.0.0.1:<port> (`url`; a browser opens
 * its consent page in the e2e tests), Graph on https://127.0.0.1:<other port> (`graphUrl`; the
 * adapter's Graph client follows only https next/delta links) with the test certificate of
 * ./tls/ — callers trust its CA through NODE_EXTRA_CA_CERTS (tls/test-ca.ts). Each listener
 * answers only its own endpoints. Formats follow Microsoft's docs:
 *
 * - GET  /{tenant}/oauth2/v2.0/authorize — auth-code request with PKCE (v2-oauth2-auth-code-flow):
 *   checks client_id, redirect_uri, response_type=code, scope (offline_access + Calendars.Read or
 *   Calendars.ReadWrite),
 *   code_challenge + code_challenge_method=S256, state; shows a consent page whose "Accept" link
 *   (id `accept`) redirects to `redirect_uri?code=…&state=…` (or redirects at once with `autoApprove`).
 * - POST /{tenant}/oauth2/v2.0/token — authorization_code (client secret, redirect_uri, PKCE
 *   verifier, one-time code) and refresh_token (rotation: a new refresh token each time; old ones
 *   keep working until revoked, as with Entra ID; a refresh asking for a Calendars scope the grant
 *   was not consented to → invalid_grant AADSTS65001, as Entra ID). Errors: `{ error, error_description: 'AADSTS…',
 *   error_codes, timestamp, trace_id, correlation_id }`. An id_token (unsigned JWT) is returned when
 *   `openid` is in scope, with `email` / `preferred_username`.
 * - GET /v1.0/me/calendars; GET /v1.0/me/calendars/{id}/calendarView/delta?startDateTime&endDateTime
 *   (delta-query-events): instances in the window (single instances, occurrences and exceptions of
 *   weekly series — never the series master), `Prefer: odata.maxpagesize` paging with
 *   `@odata.nextLink` ($skiptoken), then `@odata.deltaLink` ($deltatoken). Following a deltaLink
 *   returns only changes: new/changed instances in full, gone ones as `{ id, '@removed': { reason:
 *   'deleted' } }`. `invalidateDeltaTokens()` → 410 `syncStateNotFound`.
 * - POST /v1.0/subscriptions (validates notificationUrl first: POST `?validationToken=…` must be
 *   echoed as text/plain 200 within 10 s; the same for `lifecycleNotificationUrl` when given),
 *   PATCH and DELETE /v1.0/subscriptions/{id}. `notify()` sends change notifications and
 *   `lifecycle()` lifecycle notifications (missed, reauthorizationRequired, subscriptionRemoved).
 *   Deliveries to a relayed `https://push-relay-<port>.test` address reach http://127.0.0.1:<port>
 *   (push-relay.ts, the test setups' TLS-terminating proxy).
 * - POST /v1.0/me/calendars/{id}/events (calendar-post-events, issue 24): needs a token with
 *   Calendars.ReadWrite and a calendar with canEdit, else 403 ErrorAccessDenied; answers 201 with
 *   the event (`id`, `iCalUId`, subject, body, start/end, attendees, organizer, transactionId); a
 *   repeated `transactionId` answers the event already created. The event is a single instance that
 *   later calendarView/delta rounds return (with its iCalUId and attendees).
 *   DELETE /v1.0/me/events/{id} → 204 (404 ErrorItemNotFound when unknown; same 403 checks).
 *   Both are RECORDED (`writes`, `recordedWrites()`: method, calendar id, event id, JSON body, status).
 * - 401 InvalidAuthenticationToken for unknown/expired access tokens; `failNext(status, headers)`
 *   answers the next Graph request with that status (429/503 + Retry-After …).
 *
 * Times are UTC epoch ms / ISO strings. Event start/end are given to the hooks as ISO instants
 * (`2030-01-07T09:00:00Z`) or, for all-day events, dates (`2030-01-07`).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { deliveryUrl } from './push-relay.ts';
import { TEST_TLS } from './tls/test-ca.ts';

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
const MAX_SUBSCRIPTION_MINUTES = 4230;

type ShowAs = 'free' | 'tentative' | 'busy' | 'oof' | 'workingElsewhere' | 'unknown';
type GraphResponse = 'none' | 'organizer' | 'tentativelyAccepted' | 'accepted' | 'declined' | 'notResponded';

/** What a test puts into a calendar. */
export interface FakeEventInput {
  id?: string;
  subject?: string;
  /** ISO instant, or `YYYY-MM-DD` when isAllDay. */
  start: string;
  end: string;
  isAllDay?: boolean;
  showAs?: ShowAs;
  isCancelled?: boolean;
  response?: GraphResponse;
  /** A simple weekly series: `count` occurrences, one week apart, from `start`. */
  weekly?: { count: number };
  /** Fixed iCalUId (events created through POST); default: derived from the id. */
  iCalUId?: string;
  /** Attendees as Graph returns them (events created through POST). */
  attendees?: unknown[];
}

/** One recorded event POST / DELETE (answered or refused). */
export interface GraphWrite {
  method: 'POST' | 'DELETE';
  /** POST: the calendar id of the path; DELETE: the calendar that held the event (null when unknown). */
  calendarId: string | null;
  /** DELETE: the id of the path; POST: the created (or found) event's id, undefined when refused. */
  eventId?: string;
  /** The parsed JSON body (POST), else null. */
  body: Record<string, unknown> | null;
  status: number;
}

/** Per-occurrence changes of a series (an "exception" in Graph). */
export interface OccurrencePatch {
  subject?: string;
  start?: string;
  end?: string;
  showAs?: ShowAs;
  isCancelled?: boolean;
  response?: GraphResponse;
}

interface StoredEvent {
  id: string;
  input: FakeEventInput;
  /** Occurrence index → patch (exceptions) or 'deleted'. */
  exceptions: Map<number, OccurrencePatch | 'deleted'>;
  version: number;
  lastModified: string;
}

interface Calendar {
  id: string;
  name: string;
  /** Graph `canEdit`: false for a calendar shared with the owner read-only. Default true. */
  canEdit: boolean;
  /** Graph `hexColor`, '' when unset (as Graph answers). */
  hexColor: string;
  events: Map<string, StoredEvent>;
}

/** A Graph event instance as calendarView returns it (`Prefer: outlook.timezone="UTC"`). */
export interface GraphInstance {
  '@odata.etag': string;
  id: string;
  changeKey: string;
  iCalUId: string;
  seriesMasterId: string | null;
  type: 'singleInstance' | 'occurrence' | 'exception';
  subject: string;
  start: { dateTime: string; timeZone: string };
  end: { dateTime: string; timeZone: string };
  originalStart?: string;
  isAllDay: boolean;
  showAs: ShowAs;
  isCancelled: boolean;
  responseStatus: { response: GraphResponse; time: string };
  lastModifiedDateTime: string;
  originalStartTimeZone: string;
  originalEndTimeZone: string;
}

export interface FakeSubscription {
  id: string;
  resource: string;
  changeType: string;
  notificationUrl: string;
  /** Where lifecycle notifications go (reauthorizationRequired, subscriptionRemoved, missed); null = none. */
  lifecycleNotificationUrl: string | null;
  clientState: string | null;
  expirationDateTime: string;
  applicationId: string;
  creatorId: string;
}

interface DeltaRound {
  calendarId: string;
  windowStart: number;
  windowEnd: number;
  /** Snapshot (id → JSON) the round ends with. */
  snapshot: Map<string, string>;
  items: unknown[];
  pageSize: number;
}

export interface MicrosoftGraphFakeOptions {
  /** Consent page redirects at once. */
  autoApprove?: boolean;
  /** Registered redirect URIs; default: any http(s) URI. */
  redirectUris?: string[];
  /** The signed-in account. `email: null` → id_token without e-mail claims. */
  account?: { email: string | null; name?: string };
  /** Access token lifetime in seconds (default 3599). */
  accessTokenSeconds?: number;
  /** Default page size when the client sends no `Prefer: odata.maxpagesize` (Graph: 10 for calendarView). */
  defaultPageSize?: number;
}

function jsonBody(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; odata.metadata=minimal', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function graphError(res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}) {
  jsonBody(res, status, { error: { code, message, innerError: { date: new Date().toISOString(), 'request-id': randomUUID(), 'client-request-id': randomUUID() } } }, headers);
}

function aadError(res: ServerResponse, status: number, error: string, code: number, text: string) {
  const traceId = randomUUID();
  const correlationId = randomUUID();
  const timestamp = new Date().toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  jsonBody(res, status, {
    error,
    error_description: `AADSTS${code}: ${text} Trace ID: ${traceId} Correlation ID: ${correlationId} Timestamp: ${timestamp}`,
    error_codes: [code],
    timestamp,
    trace_id: traceId,
    correlation_id: correlationId,
  });
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function opaqueId(): string {
  // Graph ids are long base64 strings (with '=' and sometimes '/', '+'); keep those characters.
  return `AAMkAG${randomBytes(24).toString('base64')}=`;
}

/** `2030-01-07T09:00:00.0000000` (Graph's dateTime form, UTC here). */
function graphDateTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '.0000000');
}

function parseTime(v: string, allDay: boolean | undefined): number {
  const ms = allDay ? Date.parse(`${v.slice(0, 10)}T00:00:00Z`) : Date.parse(v);
  if (!Number.isFinite(ms)) throw new Error(`fake: bad time ${v}`);
  return ms;
}

function base64urlSha256(s: string): string {
  return createHash('sha256').update(s).digest('base64url');
}

function fakeJwt(payload: Record<string, unknown>): string {
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${enc({ typ: 'JWT', alg: 'RS256', kid: 'fake' })}.${enc(payload)}.${randomBytes(16).toString('base64url')}`;
}

/** Starts the fake. Close it with `close()`. */
export async function start(options: MicrosoftGraphFakeOptions = {}) {
  const clientId = randomUUID();
  const clientSecret = `fake~${randomBytes(12).toString('base64url')}`;
  const tenant = 'common';
  const tenantId = randomUUID();
  const userId = randomUUID();
  const account = options.account ?? { email: 'owner@contoso.example', name: 'Owner' };
  const accessSeconds = options.accessTokenSeconds ?? 3599;

  const calendars = new Map<string, Calendar>();
  const codes = new Map<string, { redirectUri: string; challenge: string; scope: string; used: boolean; expiresAt: number }>();
  const pendingConsents = new Map<string, { redirectUri: string; state: string; challenge: string; scope: string }>();
  const accessTokens = new Map<string, { expiresAt: number; scope: string }>();
  const refreshTokens = new Map<string, { scope: string; revoked: boolean }>();
  const deltaTokens = new Map<string, DeltaRound>();
  const skipTokens = new Map<string, { round: DeltaRound; offset: number }>();
  const subscriptions = new Map<string, FakeSubscription>();
  const failures: Array<{ status: number; headers: Record<string, string> }> = [];
  const log: string[] = [];
  const writes: GraphWrite[] = [];
  /** transactionId → event id of events created through POST. */
  const transactions = new Map<string, string>();

  // ---------------------------------------------------------------------------------------------
  // Calendar data
  // ---------------------------------------------------------------------------------------------

  function calendarOf(id: string): Calendar {
    const c = calendars.get(id);
    if (!c) throw new Error(`fake: no calendar ${id}`);
    return c;
  }

  function touch(ev: StoredEvent) {
    ev.version++;
    ev.lastModified = new Date().toISOString();
  }

  function occurrenceId(ev: StoredEvent, k: number): string {
    // Graph occurrence ids are opaque; derive a stable one per (series, index).
    return `${ev.id.slice(0, -1)}_OCC${createHash('sha1').update(`${ev.id}#${k}`).digest('base64url').slice(0, 16)}=`;
  }

  /** The instances calendarView returns for [ws, we): never a series master. */
  function instancesOf(cal: Calendar, ws: number, we: number): GraphInstance[] {
    const out: GraphInstance[] = [];
    for (const ev of cal.events.values()) {
      const i = ev.input;
      const start = parseTime(i.start, i.isAllDay);
      const end = parseTime(i.end, i.isAllDay);
      const base = (id: string, type: GraphInstance['type'], s: number, e: number, patch: OccurrencePatch, k?: number): GraphInstance => {
        const ps = patch.start ? parseTime(patch.start, i.isAllDay) : s;
        const pe = patch.end ? parseTime(patch.end, i.isAllDay) : e;
        const changeKey = createHash('sha1').update(`${id}:${ev.version}:${JSON.stringify(patch)}`).digest('base64').slice(0, 20);
        return {
          '@odata.etag': `W/"${changeKey}"`,
          id,
          changeKey,
          iCalUId: i.iCalUId ?? `040000008200E00074C5B7101A82E008${createHash('sha1').update(id).digest('hex').toUpperCase()}`,
          seriesMasterId: type === 'singleInstance' ? null : ev.id,
          type,
          subject: patch.subject ?? i.subject ?? '',
          start: { dateTime: graphDateTime(ps), timeZone: 'UTC' },
          end: { dateTime: graphDateTime(pe), timeZone: 'UTC' },
          ...(k !== undefined ? { originalStart: new Date(s).toISOString().replace('.000Z', 'Z') } : {}),
          isAllDay: !!i.isAllDay,
          showAs: patch.showAs ?? i.showAs ?? 'busy',
          isCancelled: patch.isCancelled ?? i.isCancelled ?? false,
          responseStatus: { response: patch.response ?? i.response ?? 'organizer', time: '0001-01-01T00:00:00Z' },
          lastModifiedDateTime: ev.lastModified,
          originalStartTimeZone: 'W. Europe Standard Time',
          originalEndTimeZone: 'W. Europe Standard Time',
          ...(i.attendees ? { attendees: i.attendees } : {}),
        };
      };
      const overlaps = (inst: GraphInstance) => Date.parse(`${inst.start.dateTime.slice(0, 19)}Z`) < we && Date.parse(`${inst.end.dateTime.slice(0, 19)}Z`) > ws;
      if (!i.weekly) {
        const inst = base(ev.id, 'singleInstance', start, end, {});
        if (overlaps(inst)) out.push(inst);
        continue;
      }
      for (let k = 0; k < i.weekly.count; k++) {
        const x = ev.exceptions.get(k);
        if (x === 'deleted') continue;
        const inst = base(occurrenceId(ev, k), x ? 'exception' : 'occurrence', start + k * WEEK_MS, end + k * WEEK_MS, x ?? {}, k);
        if (overlaps(inst)) out.push(inst);
      }
    }
    out.sort((a, b) => a.start.dateTime.localeCompare(b.start.dateTime) || a.id.localeCompare(b.id));
    return out;
  }

  function findOccurrence(cal: Calendar, occurrenceOrSeriesId: string, originalStart?: string): { ev: StoredEvent; k: number } | null {
    for (const ev of cal.events.values()) {
      if (!ev.input.weekly) continue;
      for (let k = 0; k < ev.input.weekly.count; k++) {
        if (occurrenceId(ev, k) === occurrenceOrSeriesId) return { ev, k };
        if (ev.id === occurrenceOrSeriesId && originalStart) {
          const s = parseTime(ev.input.start, ev.input.isAllDay) + k * WEEK_MS;
          if (s === parseTime(originalStart, ev.input.isAllDay)) return { ev, k };
        }
      }
    }
    return null;
  }

  // ---------------------------------------------------------------------------------------------
  // HTTP
  // ---------------------------------------------------------------------------------------------

  const handler = (part: 'identity' | 'graph') => (req: IncomingMessage, res: ServerResponse) => {
    handle(part, req, res).catch((err) => {
      if (!res.headersSent) graphError(res, 500, 'generalException', String((err as Error).message));
      else res.end();
    });
  };
  const listen = async (server: Server, scheme: 'http' | 'https') => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const identityServer = createServer(handler('identity'));
  const graphServer = createHttpsServer(TEST_TLS, handler('graph'));
  const servers: Server[] = [identityServer, graphServer];
  /** The identity platform's origin (MICROSOFT_LOGIN_BASE_URL). */
  const url = await listen(identityServer, 'http');
  /** Graph's origin; MICROSOFT_GRAPH_BASE_URL is `${graphUrl}/v1.0`. */
  const graphUrl = await listen(graphServer, 'https');
  const graphBase = `${graphUrl}/v1.0`;

  function bearer(req: IncomingMessage): string | null {
    const h = req.headers.authorization ?? '';
    return /^Bearer /i.test(h) ? h.slice(7).trim() : null;
  }

  function prefer(req: IncomingMessage): { pageSize?: number; tz?: string } {
    const raw = ([] as string[]).concat(req.headers.prefer ?? []).join(',');
    const size = /odata\.maxpagesize\s*=\s*(\d+)/i.exec(raw);
    const tz = /outlook\.timezone\s*=\s*"([^"]*)"/i.exec(raw);
    return { pageSize: size ? Number(size[1]) : undefined, tz: tz?.[1] };
  }

  async function handle(part: 'identity' | 'graph', req: IncomingMessage, res: ServerResponse) {
    const u = new URL(req.url ?? '/', part === 'identity' ? url : graphUrl);
    const path = u.pathname;
    log.push(`${req.method} ${path}`);

    // ---- identity platform (http listener only) ----
    const authz = /^\/([^/]+)\/oauth2\/v2\.0\/(authorize|token|consent)$/.exec(path);
    if (part === 'identity') {
      if (!authz) return aadError(res, 404, 'invalid_request', 90002, 'Not an identity platform endpoint (Graph is served on the https listener).');
      if (authz[1] !== tenant) return aadError(res, 400, 'invalid_request', 90002, `Tenant '${authz[1]}' not found.`);
      if (authz[2] === 'authorize' && req.method === 'GET') return authorize(u, res);
      if (authz[2] === 'consent' && req.method === 'GET') return consent(u, res);
      if (authz[2] === 'token' && req.method === 'POST') return token(await readBody(req), req, res);
      return aadError(res, 405, 'invalid_request', 900561, 'The endpoint only accepts POST requests.');
    }

    // ---- Graph ----
    if (!path.startsWith('/v1.0/')) return graphError(res, 400, 'BadRequest', 'Invalid version.');
    const tok = bearer(req);
    const at = tok ? accessTokens.get(tok) : undefined;
    if (!at) return graphError(res, 401, 'InvalidAuthenticationToken', 'IDX14100: JWT is not well formed.');
    if (at.expiresAt <= Date.now()) return graphError(res, 401, 'InvalidAuthenticationToken', 'Lifetime validation failed, the token is expired.');
    const fail = failures.shift();
    if (fail) {
      const code = fail.status === 429 ? 'TooManyRequests' : fail.status === 503 ? 'ServiceNotAvailable' : 'generalException';
      return graphError(res, fail.status, code, 'Injected failure.', fail.headers);
    }
    const rest = path.slice('/v1.0'.length);

    if (req.method === 'GET' && rest === '/me/calendars') {
      return jsonBody(res, 200, {
        '@odata.context': `${graphBase}/$metadata#users('${userId}')/calendars`,
        value: [...calendars.values()].map((c) => ({ id: c.id, name: c.name, canEdit: c.canEdit, hexColor: c.hexColor, isDefaultCalendar: c === [...calendars.values()][0] })),
      });
    }
    const delta = /^\/me\/calendars\/([^/]+)\/calendarView\/delta$/.exec(rest);
    if (req.method === 'GET' && delta) return deltaGet(decodeURIComponent(delta[1]!), u, req, res);
    const postEvents = /^\/me\/calendars\/([^/]+)\/events$/.exec(rest);
    if (postEvents && req.method === 'POST') return createEvent(decodeURIComponent(postEvents[1]!), at.scope, await readBody(req), res);
    const oneEvent = /^\/me\/events\/([^/]+)$/.exec(rest);
    if (oneEvent && req.method === 'DELETE') return deleteEventRequest(decodeURIComponent(oneEvent[1]!), at.scope, res);
    if (rest === '/subscriptions' && req.method === 'POST') return createSubscription(await readBody(req), res);
    const sub = /^\/subscriptions\/([^/]+)$/.exec(rest);
    if (sub) {
      const id = decodeURIComponent(sub[1]!);
      const s = subscriptions.get(id);
      if (!s) return graphError(res, 404, 'ResourceNotFound', `The object was not found.`);
      if (req.method === 'DELETE') {
        subscriptions.delete(id);
        res.writeHead(204).end();
        return;
      }
      if (req.method === 'PATCH') {
        const body = JSON.parse((await readBody(req)) || '{}') as { expirationDateTime?: string };
        const exp = Date.parse(body.expirationDateTime ?? '');
        if (!Number.isFinite(exp) || exp > Date.now() + MAX_SUBSCRIPTION_MINUTES * 60_000 || exp <= Date.now()) {
          return graphError(res, 400, 'ExtensionError', 'Subscription expiration can only be 4230 minutes in the future.');
        }
        s.expirationDateTime = new Date(exp).toISOString();
        return jsonBody(res, 200, { '@odata.context': `${graphBase}/$metadata#subscriptions/$entity`, ...s });
      }
    }
    return graphError(res, 400, 'BadRequest', `Resource not found for the segment '${rest.split('/').pop()}'.`);
  }

  /** Short Graph scope names of a scope string (`https://graph.microsoft.com/Calendars.Read` → `calendars.read`). */
  function scopeNames(scope: string): string[] {
    return scope.split(/\s+/).filter(Boolean).map((x) => x.replace(/^https:\/\/graph\.microsoft\.com\//i, '').toLowerCase());
  }

  /** 403 ErrorAccessDenied unless the token may write and the calendar can be edited. */
  function mayWrite(scope: string, cal: Calendar | undefined): boolean {
    return scopeNames(scope).includes('calendars.readwrite') && (!cal || cal.canEdit);
  }

  function accessDenied(res: ServerResponse) {
    graphError(res, 403, 'ErrorAccessDenied', 'Access is denied. Check credentials and try again.');
  }

  function createEvent(calendarId: string, scope: string, raw: string, res: ServerResponse) {
    const w: GraphWrite = { method: 'POST', calendarId, body: null, status: 0 };
    writes.push(w);
    const done = (status: number) => ((w.status = status), undefined);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      graphError(res, 400, 'BadRequest', 'Invalid JSON.');
      return done(400);
    }
    w.body = body;
    const cal = calendars.get(calendarId);
    if (!cal) {
      graphError(res, 404, 'ErrorItemNotFound', 'The specified object was not found in the store.');
      return done(404);
    }
    if (!mayWrite(scope, cal)) {
      accessDenied(res);
      return done(403);
    }
    type When = { dateTime?: string; timeZone?: string };
    const start = body.start as When | undefined;
    const end = body.end as When | undefined;
    if (!start?.dateTime || !end?.dateTime || start.timeZone !== 'UTC' || end.timeZone !== 'UTC') {
      // The fake models only UTC times (what the adapter sends).
      graphError(res, 400, 'ErrorInvalidRequest', 'start and end need a dateTime and timeZone UTC (the fake models only UTC).');
      return done(400);
    }
    const tx = typeof body.transactionId === 'string' ? body.transactionId : null;
    let id = tx ? transactions.get(tx) : undefined;
    if (!id || !cal.events.has(id)) {
      id = opaqueId();
      const attendees = ((body.attendees as Array<{ emailAddress?: { address?: string; name?: string }; type?: string }>) ?? []).map((a) => ({
        type: a.type ?? 'required',
        status: { response: 'none', time: '0001-01-01T00:00:00Z' },
        emailAddress: { address: a.emailAddress?.address ?? '', name: a.emailAddress?.name ?? a.emailAddress?.address ?? '' },
      }));
      const ev: StoredEvent = {
        id,
        input: {
          id,
          subject: typeof body.subject === 'string' ? body.subject : '',
          start: `${start.dateTime.slice(0, 19)}Z`,
          end: `${end.dateTime.slice(0, 19)}Z`,
          iCalUId: `040000008200E00074C5B7101A82E00800000000${randomBytes(16).toString('hex').toUpperCase()}`,
          attendees,
        },
        exceptions: new Map(),
        version: 0,
        lastModified: new Date().toISOString(),
      };
      touch(ev);
      cal.events.set(id, ev);
      if (tx) transactions.set(tx, id);
    }
    w.eventId = id;
    const ev = cal.events.get(id)!;
    const inst = instancesOf({ ...cal, events: new Map([[id, ev]]) }, -8.64e15, 8.64e15)[0]!;
    jsonBody(res, 201, {
      '@odata.context': `${graphBase}/$metadata#users('${userId}')/calendars('${calendarId}')/events/$entity`,
      ...inst,
      body: body.body ?? { contentType: 'html', content: '' },
      organizer: { emailAddress: { name: account.name ?? 'Owner', address: account.email ?? '' } },
      isOrganizer: true,
      ...(tx ? { transactionId: tx } : {}),
    });
    return done(201);
  }

  function deleteEventRequest(id: string, scope: string, res: ServerResponse) {
    const cal = [...calendars.values()].find((c) => c.events.has(id));
    const w: GraphWrite = { method: 'DELETE', calendarId: cal?.id ?? null, eventId: id, body: null, status: 0 };
    writes.push(w);
    if (!mayWrite(scope, cal)) {
      accessDenied(res);
      w.status = 403;
      return;
    }
    if (!cal) {
      graphError(res, 404, 'ErrorItemNotFound', 'The specified object was not found in the store.');
      w.status = 404;
      return;
    }
    cal.events.delete(id);
    res.writeHead(204).end();
    w.status = 204;
  }

  function authorize(u: URL, res: ServerResponse) {
    const q = u.searchParams;
    const redirectUri = q.get('redirect_uri') ?? '';
    const page = (status: number, text: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>Sign in to your account</title><p id="error">${text}</p>`);
    };
    if (q.get('client_id') !== clientId) return page(400, `AADSTS700016: Application with identifier '${q.get('client_id')}' was not found in the directory.`);
    const okRedirect = options.redirectUris ? options.redirectUris.includes(redirectUri) : /^https?:\/\//.test(redirectUri);
    if (!okRedirect) return page(400, `AADSTS50011: The redirect URI specified in the request does not match the redirect URIs configured for the application.`);
    const state = q.get('state') ?? '';
    const back = (params: Record<string, string>) => {
      const target = new URL(redirectUri);
      for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
      if (state) target.searchParams.set('state', state);
      res.writeHead(302, { location: target.toString() }).end();
    };
    if (q.get('response_type') !== 'code') return back({ error: 'unsupported_response_type', error_description: 'AADSTS700054: response_type is not enabled for the application.' });
    const scope = q.get('scope') ?? '';
    const scopes = scope.split(/\s+/);
    if (!scopes.includes('offline_access') || !scopes.some((x) => /(^|\/)Calendars\.Read(Write)?$/.test(x))) {
      return back({ error: 'invalid_scope', error_description: 'AADSTS70011: The provided request must include offline_access and Calendars.Read or Calendars.ReadWrite.' });
    }
    const challenge = q.get('code_challenge') ?? '';
    if (q.get('code_challenge_method') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) {
      return back({ error: 'invalid_request', error_description: 'AADSTS501491: Invalid size of Code_Challenge parameter (S256 required).' });
    }
    if (!state) return back({ error: 'invalid_request', error_description: 'AADSTS900144: The request body must contain the following parameter: state.' });
    const consentId = randomBytes(12).toString('base64url');
    pendingConsents.set(consentId, { redirectUri, state, challenge, scope });
    if (options.autoApprove) return consent(new URL(`${url}/${tenant}/oauth2/v2.0/consent?tx=${consentId}`), res);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><head><title>Permissions requested</title></head><body>` +
        `<h1>Permissions requested</h1><p>Avail (test) wants to read your calendars.</p>` +
        `<a id="accept" href="/${tenant}/oauth2/v2.0/consent?tx=${consentId}">Accept</a></body></html>`,
    );
  }

  function consent(u: URL, res: ServerResponse) {
    const tx = pendingConsents.get(u.searchParams.get('tx') ?? '');
    if (!tx) return graphError(res, 400, 'invalid_request', 'Unknown consent transaction.');
    pendingConsents.delete(u.searchParams.get('tx')!);
    const code = `0.A${randomBytes(48).toString('base64url')}`;
    codes.set(code, { redirectUri: tx.redirectUri, challenge: tx.challenge, scope: tx.scope, used: false, expiresAt: Date.now() + 10 * 60_000 });
    const target = new URL(tx.redirectUri);
    target.searchParams.set('code', code);
    target.searchParams.set('state', tx.state);
    target.searchParams.set('session_state', randomUUID());
    res.writeHead(302, { location: target.toString() }).end();
  }

  function issueTokens(scope: string) {
    const access = `eyJ0eXAiOiJKV1Qi.${randomBytes(32).toString('base64url')}`;
    accessTokens.set(access, { expiresAt: Date.now() + accessSeconds * 1000, scope });
    const refresh = `M.C5${randomBytes(40).toString('base64url')}`;
    refreshTokens.set(refresh, { scope, revoked: false });
    const scopes = scope.split(/\s+/).filter(Boolean);
    const now = Math.floor(Date.now() / 1000);
    const idToken = scopes.includes('openid')
      ? fakeJwt({
          aud: clientId,
          iss: `${url}/${tenantId}/v2.0`,
          iat: now,
          nbf: now,
          exp: now + 3600,
          ...(account.email && scopes.includes('email') ? { email: account.email } : {}),
          ...(account.email ? { preferred_username: account.email } : {}),
          name: account.name ?? 'Owner',
          oid: userId,
          sub: randomBytes(16).toString('base64url'),
          tid: tenantId,
          ver: '2.0',
        })
      : undefined;
    return {
      token_type: 'Bearer',
      scope: scopes.filter((x) => x !== 'offline_access').map((x) => (/^[A-Z]/.test(x) ? `https://graph.microsoft.com/${x}` : x)).join(' '),
      expires_in: accessSeconds,
      ext_expires_in: accessSeconds,
      access_token: access,
      refresh_token: refresh,
      ...(idToken ? { id_token: idToken } : {}),
    };
  }

  function token(raw: string, req: IncomingMessage, res: ServerResponse) {
    if (!/application\/x-www-form-urlencoded/.test(req.headers['content-type'] ?? '')) {
      return aadError(res, 400, 'invalid_request', 900144, 'The request body must contain the following parameter: grant_type.');
    }
    const p = new URLSearchParams(raw);
    if (p.get('client_id') !== clientId) return aadError(res, 400, 'unauthorized_client', 700016, `Application with identifier '${p.get('client_id')}' was not found in the directory.`);
    if (p.get('client_secret') !== clientSecret) return aadError(res, 401, 'invalid_client', 7000215, 'Invalid client secret provided.');
    const grant = p.get('grant_type');
    if (grant === 'authorization_code') {
      const code = codes.get(p.get('code') ?? '');
      if (!code) return aadError(res, 400, 'invalid_grant', 9002313, 'Invalid request. Request is malformed or invalid.');
      if (code.used) return aadError(res, 400, 'invalid_grant', 54005, 'OAuth2 Authorization code was already redeemed, please retry with a new valid code or use an existing refresh token.');
      if (code.expiresAt < Date.now()) return aadError(res, 400, 'invalid_grant', 70008, 'The provided authorization code or refresh token has expired due to inactivity.');
      if (p.get('redirect_uri') !== code.redirectUri) return aadError(res, 400, 'invalid_grant', 500117, 'The reply uri specified in the request does not match the reply uri used when acquiring the authorization code.');
      const verifier = p.get('code_verifier') ?? '';
      if (!verifier) return aadError(res, 400, 'invalid_request', 50148, 'The code_verifier does not match the code_challenge supplied in the authorization request.');
      if (base64urlSha256(verifier) !== code.challenge) return aadError(res, 400, 'invalid_grant', 501481, 'The Code_Verifier does not match the code_challenge supplied in the authorization request.');
      code.used = true;
      return jsonBody(res, 200, issueTokens(code.scope));
    }
    if (grant === 'refresh_token') {
      const rt = refreshTokens.get(p.get('refresh_token') ?? '');
      if (!rt) return aadError(res, 400, 'invalid_grant', 9002313, 'Invalid request. Request is malformed or invalid.');
      if (rt.revoked) {
        return aadError(res, 400, 'invalid_grant', 50173, 'The provided grant has expired due to it being revoked, a fresh auth token is needed. The user might have changed or reset their password.');
      }
      const asked = scopeNames(p.get('scope') ?? '').filter((x) => x.startsWith('calendars.'));
      const granted = scopeNames(rt.scope);
      if (asked.some((x) => !granted.includes(x))) {
        return aadError(res, 400, 'invalid_grant', 65001, "The user or administrator has not consented to use the application with ID '" + clientId + "'. Send an interactive authorization request for this user and resource.");
      }
      return jsonBody(res, 200, issueTokens(p.get('scope') || rt.scope));
    }
    return aadError(res, 400, 'unsupported_grant_type', 70003, 'The app requested an unsupported grant type.');
  }

  function snapshotOf(cal: Calendar, ws: number, we: number): { snapshot: Map<string, string>; byId: Map<string, GraphInstance> } {
    const snapshot = new Map<string, string>();
    const byId = new Map<string, GraphInstance>();
    for (const inst of instancesOf(cal, ws, we)) {
      snapshot.set(inst.id, JSON.stringify(inst));
      byId.set(inst.id, inst);
    }
    return { snapshot, byId };
  }

  function sendPage(round: DeltaRound, offset: number, res: ServerResponse) {
    const page = round.items.slice(offset, offset + round.pageSize);
    const body: Record<string, unknown> = {
      '@odata.context': `${graphBase}/$metadata#Collection(event)`,
      value: page,
    };
    const link = `${graphBase}/me/calendars/${encodeURIComponent(round.calendarId)}/calendarView/delta`;
    if (offset + round.pageSize < round.items.length) {
      const skip = randomBytes(18).toString('base64url');
      skipTokens.set(skip, { round, offset: offset + round.pageSize });
      body['@odata.nextLink'] = `${link}?$skiptoken=${skip}`;
    } else {
      const dt = randomBytes(18).toString('base64url');
      deltaTokens.set(dt, round);
      body['@odata.deltaLink'] = `${link}?$deltatoken=${dt}`;
    }
    jsonBody(res, 200, body, { 'preference-applied': 'odata.maxpagesize=' + round.pageSize });
  }

  function deltaGet(calendarId: string, u: URL, req: IncomingMessage, res: ServerResponse) {
    const cal = calendars.get(calendarId);
    if (!cal) return graphError(res, 404, 'ErrorItemNotFound', 'The specified object was not found in the store.');
    const pageSize = prefer(req).pageSize ?? options.defaultPageSize ?? 10;
    const skip = u.searchParams.get('$skiptoken');
    const dtoken = u.searchParams.get('$deltatoken');
    if (skip !== null) {
      const s = skipTokens.get(skip);
      if (!s || s.round.calendarId !== calendarId) return graphError(res, 410, 'syncStateNotFound', 'The sync state generation is not found. Delete the token and start over.');
      skipTokens.delete(skip);
      return sendPage(s.round, s.offset, res);
    }
    if (dtoken !== null) {
      const prev = deltaTokens.get(dtoken);
      if (!prev || prev.calendarId !== calendarId) return graphError(res, 410, 'syncStateNotFound', 'The sync state generation is not found. Delete the token and start over.');
      const { snapshot, byId } = snapshotOf(cal, prev.windowStart, prev.windowEnd);
      const items: unknown[] = [];
      for (const [id, json] of snapshot) if (prev.snapshot.get(id) !== json) items.push(byId.get(id));
      for (const id of prev.snapshot.keys()) if (!snapshot.has(id)) items.push({ '@odata.type': '#microsoft.graph.event', id, '@removed': { reason: 'deleted' } });
      return sendPage({ calendarId, windowStart: prev.windowStart, windowEnd: prev.windowEnd, snapshot, items, pageSize }, 0, res);
    }
    const ws = Date.parse(u.searchParams.get('startDateTime') ?? u.searchParams.get('startdatetime') ?? '');
    const we = Date.parse(u.searchParams.get('endDateTime') ?? u.searchParams.get('enddatetime') ?? '');
    if (!Number.isFinite(ws) || !Number.isFinite(we)) {
      return graphError(res, 400, 'ErrorInvalidParameter', "This request requires a time window specified by the query string parameters StartDateTime and EndDateTime.");
    }
    const { snapshot, byId } = snapshotOf(cal, ws, we);
    return sendPage({ calendarId, windowStart: ws, windowEnd: we, snapshot, items: [...byId.values()], pageSize }, 0, res);
  }

  async function createSubscription(raw: string, res: ServerResponse) {
    let body: Partial<FakeSubscription>;
    try {
      body = JSON.parse(raw) as Partial<FakeSubscription>;
    } catch {
      return graphError(res, 400, 'BadRequest', 'Invalid JSON.');
    }
    const m = /^\/?me\/calendars\/([^/]+)\/events$/.exec(body.resource ?? '');
    if (!m || !calendars.has(m[1]!)) return graphError(res, 400, 'ExtensionError', 'Operation: Create; Exception: [Status Code: BadRequest; Reason: The resource is not supported.]');
    const changeTypes = (body.changeType ?? '').split(',');
    if (!changeTypes.length || changeTypes.some((c) => !['created', 'updated', 'deleted'].includes(c))) {
      return graphError(res, 400, 'InvalidRequest', 'Invalid changeType.');
    }
    const exp = Date.parse(body.expirationDateTime ?? '');
    if (!Number.isFinite(exp) || exp <= Date.now() || exp > Date.now() + MAX_SUBSCRIPTION_MINUTES * 60_000) {
      return graphError(res, 400, 'InvalidRequest', 'Subscription expiration can only be 4230 minutes in the future.');
    }
    if (body.clientState && body.clientState.length > 128) return graphError(res, 400, 'InvalidRequest', 'clientState is limited to 128 characters.');
    const notificationUrl = body.notificationUrl ?? '';
    // Validation handshake: POST ?validationToken=… (text/plain), echo within 10 s.
    const validationToken = `Validation: Testing client application reachability for subscription Request-Id: ${randomUUID()}`;
    let ok = false;
    try {
      const target = new URL(deliveryUrl(notificationUrl));
      target.searchParams.set('validationToken', validationToken);
      const r = await fetch(target, { method: 'POST', headers: { 'content-type': 'text/plain; charset=utf-8' }, body: '', signal: AbortSignal.timeout(10_000) });
      const text = await r.text();
      ok = r.status === 200 && text === validationToken && /^text\/plain/i.test(r.headers.get('content-type') ?? '');
    } catch {
      ok = false;
    }
    if (!ok) {
      return graphError(res, 400, 'ValidationError', 'Subscription validation request failed. Notification endpoint must respond with 200 OK to validation request.');
    }
    // Graph validates the lifecycle URL the same way (when one is given).
    const lifecycleNotificationUrl = body.lifecycleNotificationUrl ?? null;
    if (lifecycleNotificationUrl) {
      let lifecycleOk = false;
      try {
        const target = new URL(deliveryUrl(lifecycleNotificationUrl));
        target.searchParams.set('validationToken', validationToken);
        const r = await fetch(target, { method: 'POST', headers: { 'content-type': 'text/plain; charset=utf-8' }, body: '', signal: AbortSignal.timeout(10_000) });
        lifecycleOk = r.status === 200 && (await r.text()) === validationToken;
      } catch {
        lifecycleOk = false;
      }
      if (!lifecycleOk) {
        return graphError(res, 400, 'ValidationError', 'Subscription validation request failed. Lifecycle notification endpoint must respond with 200 OK to validation request.');
      }
    }
    const s: FakeSubscription = {
      id: randomUUID(),
      resource: body.resource!,
      changeType: body.changeType!,
      notificationUrl,
      lifecycleNotificationUrl,
      clientState: body.clientState ?? null,
      expirationDateTime: new Date(exp).toISOString(),
      applicationId: clientId,
      creatorId: userId,
    };
    subscriptions.set(s.id, s);
    return jsonBody(res, 201, { '@odata.context': `${graphBase}/$metadata#subscriptions/$entity`, ...s, latestSupportedTlsVersion: 'v1_2', notificationContentType: 'application/json' });
  }

  // ---------------------------------------------------------------------------------------------
  // Hooks
  // ---------------------------------------------------------------------------------------------

  return {
    /** The identity platform (http). */
    url,
    /** Graph (https, test CA). */
    graphUrl,
    env: {
      MICROSOFT_CLIENT_ID: clientId,
      MICROSOFT_CLIENT_SECRET: clientSecret,
      MICROSOFT_TENANT: tenant,
      MICROSOFT_LOGIN_BASE_URL: url,
      MICROSOFT_GRAPH_BASE_URL: graphBase,
    },
    /** Requests seen (`METHOD /path`), for asserting what the adapter called. */
    log,
    /** Every event POST / DELETE, in order. */
    writes,
    /** A JSON copy of `writes` (for the browser tests' fakeCall, which can only call methods). */
    recordedWrites(): GraphWrite[] {
      return structuredClone(writes);
    },
    /** Adds a calendar; returns its id. */
    addCalendar(
      name = 'Calendar',
      id: string = `AAMkAGCal${randomBytes(12).toString('base64url')}=`,
      opts: { canEdit?: boolean; hexColor?: string } = {},
    ): string {
      calendars.set(id, { id, name, canEdit: opts.canEdit ?? true, hexColor: opts.hexColor ?? '', events: new Map() });
      return id;
    },
    /** Removes a calendar and its events. */
    removeCalendar(id: string) {
      calendars.delete(id);
    },
    /** Creates or replaces an event (a single instance or a weekly series master); returns its id. */
    putEvent(calendarId: string, input: FakeEventInput): string {
      const cal = calendarOf(calendarId);
      const id = input.id ?? opaqueId();
      const existing = cal.events.get(id);
      const ev: StoredEvent = existing ?? { id, input, exceptions: new Map(), version: 0, lastModified: new Date().toISOString() };
      ev.input = { ...input, id };
      touch(ev);
      cal.events.set(id, ev);
      return id;
    },
    /** Changes one occurrence of a series (makes it an exception). Returns the occurrence id. */
    patchOccurrence(calendarId: string, seriesId: string, originalStart: string, patch: OccurrencePatch): string {
      const hit = findOccurrence(calendarOf(calendarId), seriesId, originalStart);
      if (!hit) throw new Error('fake: no such occurrence');
      const prev = hit.ev.exceptions.get(hit.k);
      hit.ev.exceptions.set(hit.k, { ...(prev && prev !== 'deleted' ? prev : {}), ...patch });
      hit.ev.lastModified = new Date().toISOString();
      return occurrenceId(hit.ev, hit.k);
    },
    /** The instance ids calendarView returns for a series in [ws, we) (test helper). */
    instanceIds(calendarId: string, ws: number, we: number): string[] {
      return instancesOf(calendarOf(calendarId), ws, we).map((i) => i.id);
    },
    /** Marks an event, or one occurrence (by occurrence id), cancelled (`isCancelled: true`). */
    cancelEvent(calendarId: string, id: string) {
      const cal = calendarOf(calendarId);
      const ev = cal.events.get(id);
      if (ev) {
        ev.input = { ...ev.input, isCancelled: true };
        touch(ev);
        return;
      }
      const hit = findOccurrence(cal, id);
      if (!hit) throw new Error('fake: no such event');
      const prev = hit.ev.exceptions.get(hit.k);
      hit.ev.exceptions.set(hit.k, { ...(prev && prev !== 'deleted' ? prev : {}), isCancelled: true });
    },
    /** Deletes an event, a whole series (by series id) or one occurrence (by occurrence id). */
    deleteEvent(calendarId: string, id: string) {
      const cal = calendarOf(calendarId);
      if (cal.events.delete(id)) return;
      const hit = findOccurrence(cal, id);
      if (!hit) throw new Error('fake: no such event');
      hit.ev.exceptions.set(hit.k, 'deleted');
    },
    /** Every delta/skip token now answers 410 syncStateNotFound. */
    invalidateDeltaTokens() {
      deltaTokens.clear();
      skipTokens.clear();
    },
    /** Revokes every refresh token (or one): the token endpoint answers invalid_grant (AADSTS50173). */
    revokeRefreshToken(token?: string) {
      for (const [t, v] of refreshTokens) if (!token || t === token) v.revoked = true;
    },
    /** Every access token issued so far is expired: Graph answers 401. */
    expireAccessTokens() {
      for (const v of accessTokens.values()) v.expiresAt = 0;
    },
    /** The next Graph request (not the token endpoint) fails with `status` and `headers`. */
    failNext(status: number, headers: Record<string, string> = {}) {
      failures.push({ status, headers });
    },
    /** Live subscriptions. */
    get subscriptions(): FakeSubscription[] {
      return [...subscriptions.values()];
    },
    /**
     * POSTs a change notification for a subscription to its notificationUrl (with its clientState),
     * as Graph does (https://learn.microsoft.com/graph/change-notifications-delivery-webhooks).
     * @returns the HTTP status the endpoint answered.
     */
    async notify(subscriptionId: string, p: { changeType?: 'created' | 'updated' | 'deleted'; eventId?: string } = {}): Promise<number> {
      const s = subscriptions.get(subscriptionId);
      if (!s) throw new Error('fake: no such subscription');
      const eventId = p.eventId ?? opaqueId();
      const body = {
        value: [
          {
            subscriptionId: s.id,
            subscriptionExpirationDateTime: s.expirationDateTime.replace('Z', '+00:00'),
            changeType: p.changeType ?? 'updated',
            resource: `Users/${userId}/Events/${eventId}`,
            resourceData: { '@odata.type': '#Microsoft.Graph.Event', '@odata.id': `Users/${userId}/Events/${eventId}`, '@odata.etag': 'W/"fake"', id: eventId },
            clientState: s.clientState,
            tenantId,
          },
        ],
      };
      const r = await fetch(deliveryUrl(s.notificationUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      await r.arrayBuffer();
      return r.status;
    },
    /**
     * POSTs a lifecycle notification for a subscription to its lifecycleNotificationUrl, as Graph
     * does (https://learn.microsoft.com/graph/change-notifications-lifecycle-events). For
     * `subscriptionRemoved` the subscription is deleted first (Graph removed it).
     * @returns the HTTP status the endpoint answered.
     */
    async lifecycle(subscriptionId: string, lifecycleEvent: 'reauthorizationRequired' | 'subscriptionRemoved' | 'missed', opts: { clientState?: string } = {}): Promise<number> {
      const s = subscriptions.get(subscriptionId);
      if (!s) throw new Error('fake: no such subscription');
      if (!s.lifecycleNotificationUrl) throw new Error('fake: the subscription has no lifecycleNotificationUrl');
      if (lifecycleEvent === 'subscriptionRemoved') subscriptions.delete(subscriptionId);
      const body = {
        value: [
          {
            subscriptionId: s.id,
            subscriptionExpirationDateTime: s.expirationDateTime.replace('Z', '+00:00'),
            clientState: opts.clientState ?? s.clientState,
            lifecycleEvent,
            tenantId,
            resource: s.resource,
          },
        ],
      };
      const r = await fetch(deliveryUrl(s.lifecycleNotificationUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      await r.arrayBuffer();
      return r.status;
    },
    async close() {
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}

export type MicrosoftGraphFake = Awaited<ReturnType<typeof start>>;
