/**
 * Calendar connections: connect (first sync must succeed before anything is stored), list,
 * delete/disconnect, Sync Now, and the owner's events for the dashboard.
 */
import { getIanaZone, isValidIanaZone, parseIsoDate, startOfLocalDay } from '@avail/shared/domain/zone-time.ts';
import { isDefaultBusyRules, readBusyRules, type BusyRules } from '@avail/shared/ical/busy-rules.ts';
import type { ConnectionCalendar, EventSource } from '@avail/shared/schemas/calendar.schema.ts';
import type { CalendarConnectionRow, UserRow } from '../../db/schema.ts';
import { HttpError, badRequest, conflict, notFound, validationFailed } from '../../http/errors.ts';
import { encryptSecret, secretFingerprint } from '../../lib/crypto.ts';
import { APPLE_INVALID_CREDENTIALS } from '../../providers/apple/apple.provider.ts';
import { pullProviders } from '../../providers/index.ts';
import { ProviderAuthError, ProviderError, type ProviderSyncResult } from '../../providers/provider.ts';
import { deriveOffThread } from '../sync/derive-pool.ts';
import {
  DeriveError,
  calendarFetchFor,
  calendarListOf,
  calendarNamesOf,
  ownerEmailsFor,
  rederiveConnection,
  syncUser,
  type SyncDeps,
} from '../sync/sync.service.ts';
import { replicatedWrite } from '../../store/repl-clock.repo.ts';
import { deleteChannelsOfConnection } from '../../store/oauth.repo.ts';
import { stopChannelsAndRevoke } from '../oauth/push.service.ts';
import { isOAuthProvider } from '../../providers/oauth-registry.ts';
import { cancelScheduledSync } from '../sync/sync-queue.ts';
import { connectionDoc } from '../replication/replication.presenter.ts';
import * as repo from '../../store/calendars.repo.ts';
import { calendarSwitches, countsAsBusy, excludedCalendarIds, mergeCalendarList, readChoices, sealCalendarList, sealChoices } from '../sync/calendar-selection.ts';

const DAY_MS = 86_400_000;
/** Longest range the events call answers (the dashboard asks for a week ± 3 days). */
const EVENTS_MAX_RANGE_DAYS = 100;

/** Internal sync-health columns (migration 0003): never presented. */
type SyncHealthColumn = 'next_sync_at' | 'failure_count' | 'sync_lease_until' | 'sync_lease_owner' | 'sync_started_at';

export interface ConnectionView {
  id: string;
  provider: CalendarConnectionRow['provider'];
  name: string;
  status: CalendarConnectionRow['status'];
  /** Login (CalDAV/Apple) or feed host (ICS), shown to the owner only. */
  account: string | null;
  connected_at: string;
  calendars_count: number;
  included_calendars_count: number;
  last_synced_at: string | null;
  last_error: string | null;
  warnings: string[];
  /** The owner's busy rules of this connection (defaults filled in); owner-only. */
  busy_rules: BusyRules;
}

/** What leaves the server about a connection: never secrets, sync state or feed URLs. */
export function presentConnection(c: Omit<CalendarConnectionRow, SyncHealthColumn>): ConnectionView {
  // The same fields as the device's ConnectionDoc (one mapping), with instants as ISO strings.
  const { updated_at: _stamp, _deleted: _del, ...doc } = connectionDoc(c as CalendarConnectionRow);
  return {
    ...doc,
    provider: c.provider,
    status: c.status,
    connected_at: new Date(doc.connected_at).toISOString(),
    last_synced_at: doc.last_synced_at == null ? null : new Date(doc.last_synced_at).toISOString(),
    busy_rules: readBusyRules(c.busy_rules_json),
  };
}

export async function listConnectionViews(deps: SyncDeps, userId: string): Promise<ConnectionView[]> {
  return (await repo.listConnections(deps.db, userId, deps.config.AVAIL_SECRET_KEY)).map(presentConnection);
}

type PullId = 'ics' | 'caldav' | 'apple';

interface ConnectRequest {
  provider: PullId;
  /** Id of the new connection (default: a fresh UUID). */
  id?: string;
  /** Stored in config_json and given to the provider: never a secret. */
  config: Record<string, string>;
  /** Given to the provider decrypted; stored only encrypted (secret_enc). */
  secret: string | null;
  name?: string;
  account: string | null;
  /** Message for refused credentials (400). */
  authMessage: string;
}

/**
 * Runs the first sync; only when it succeeds (data fetched AND readable AND within the
 * per-connection budgets, derived in the worker pool) are the connection, its sources and derived
 * busy time stored, in one transaction. Failures are 400s with clear messages
 * (`calendar_unreachable`, `calendar_unreadable`: unreadable data, a budget exceeded, the worker's
 * time or memory limit) and leave nothing behind.
 */
async function connectPull(deps: SyncDeps, user: UserRow, req: ConnectRequest): Promise<ConnectionView> {
  let result: ProviderSyncResult;
  try {
    result = await pullProviders[req.provider].sync(
      { config: req.config, secret: req.secret, state: null, known: [] },
      { fetch: calendarFetchFor(deps) },
    );
  } catch (err) {
    if (err instanceof ProviderAuthError) throw new HttpError(400, 'invalid_credentials', req.authMessage);
    if (err instanceof ProviderError) throw new HttpError(400, 'calendar_unreachable', err.message);
    deps.logger.error({ provider: req.provider, errName: (err as Error)?.name }, 'calendar connect crashed');
    throw new HttpError(400, 'calendar_unreachable', 'Could not connect to the calendar. Please check the details and try again.');
  }
  const now = deps.now();
  // The provider defaults decide which calendars count until the owner switches them (issue 23).
  const calendarList = mergeCalendarList([], result.calendars, now);
  const excludedCalendars = excludedCalendarIds(calendarList, readChoices({ calendar_choices: null }, deps.config.AVAIL_SECRET_KEY));
  let derived;
  try {
    derived = await deriveOffThread(result.upserts, {
      ownerZone: user.timezone,
      ownerEmails: ownerEmailsFor(user.email, result.ownerEmails),
      now,
      excludedCalendars,
    });
  } catch (err) {
    if (err instanceof DeriveError) throw new HttpError(400, 'calendar_unreadable', err.message);
    throw err;
  }
  const id = req.id ?? crypto.randomUUID();
  const row = {
    id,
    user_id: user.id,
    provider: req.provider,
    name: (req.name?.trim() || result.suggestedName || req.provider).slice(0, 100),
    status: 'active' as const,
    account: req.account,
    config_json: JSON.stringify(req.config),
    secret_enc: req.secret ? encryptSecret(req.secret, deps.config.AVAIL_SECRET_KEY) : null,
    sync_state_json: JSON.stringify({
      provider: result.newState,
      ownerEmails: result.ownerEmails,
      derivedAt: now,
      ...(calendarList.length ? { calendarsSealed: sealCalendarList(calendarList, deps.config.AVAIL_SECRET_KEY) } : {}),
    }),
    calendars_count: result.calendarsCount,
    included_calendars_count: calendarList.length ? calendarList.length - excludedCalendars.length : result.calendarsCount,
    warnings_json: derived.warnings.length ? JSON.stringify(derived.warnings) : null,
    last_error: null,
    last_synced_at: now,
    connected_at: now,
    busy_rules_json: null,
    calendar_choices: null,
  };
  const updatedAt = await replicatedWrite(deps, user.id, async (trx, stamp) => {
    if (req.provider === 'apple') {
      // One Apple connection per user: reconnecting replaces the old one.
      for (const old of await repo.findConnectionsByProvider(trx, user.id, 'apple', deps.config.AVAIL_SECRET_KEY)) await repo.deleteConnectionCascade(trx, old, stamp);
    }
    await repo.insertConnection(trx, row, stamp, deps.config.AVAIL_SECRET_KEY);
    await repo.applySourceChanges(trx, row, result, now, deps.config.AVAIL_SECRET_KEY);
    await repo.replaceDerived(trx, row, derived, stamp, deps.config.AVAIL_SECRET_KEY);
    return stamp('calendar_connections');
  });
  deps.logger.info(
    { connectionId: id, provider: req.provider, objects: result.upserts.length, busyIntervals: derived.intervals.length },
    'calendar connected',
  );
  return presentConnection({ ...row, updated_at: updatedAt });
}

async function refuseDuplicate(deps: SyncDeps, userId: string, provider: PullId, sameAs: (config: Record<string, string>) => boolean) {
  for (const c of await repo.findConnectionsByProvider(deps.db, userId, provider, deps.config.AVAIL_SECRET_KEY)) {
    let config: Record<string, string> = {};
    try {
      config = JSON.parse(c.config_json || '{}');
    } catch {
      config = {}; // unreadable config: it cannot be the same calendar, so it does not block this one
    }
    if (sameAs(config)) throw conflict('This calendar is already connected.', 'already_connected');
  }
}

/**
 * The form of a feed URL used to recognise the same feed: WHATWG-parsed (scheme and host
 * lower-cased, default port dropped, dot segments resolved), without the fragment (never sent).
 */
export function normaliseFeedUrl(url: string): string {
  const u = new URL(url.trim());
  u.hash = '';
  return u.href;
}

/** HMAC-SHA256 (hex) of the normalised feed URL keyed with the server key: config_json.url_hmac. */
export function feedUrlHmac(url: string, key: Uint8Array): string {
  return secretFingerprint(normaliseFeedUrl(url), key);
}

/** Id of an ICS connection's one source row (calendar_sources.calendar_url / object_href). */
export function icsSourceId(connectionId: string): string {
  return `ics:${connectionId}`;
}

/**
 * Connects an ICS feed. The URL is treated as a secret (private feed addresses carry a token):
 * stored only encrypted in secret_enc; config_json holds `{ sourceId, url_hmac }`, `account` the
 * host, and the source row is keyed `ics:<connection id>`. 409 when the same feed (same
 * url_hmac) is already connected for this user.
 */
export async function connectIcs(deps: SyncDeps, user: UserRow, input: { url: string; name?: string }) {
  const urlHmac = feedUrlHmac(input.url, deps.config.AVAIL_SECRET_KEY);
  await refuseDuplicate(deps, user.id, 'ics', (c) => c.url_hmac === urlHmac);
  const id = crypto.randomUUID();
  return connectPull(deps, user, {
    provider: 'ics',
    id,
    config: { sourceId: icsSourceId(id), url_hmac: urlHmac },
    secret: input.url,
    name: input.name,
    account: new URL(input.url).host,
    authMessage: 'The calendar feed refused access. Check that the link is still valid.',
  });
}

/**
 * ICS connections stored before feed URLs were secrets (`config_json` `{ url }`, source rows keyed
 * by the URL): moves the URL into secret_enc, config to `{ sourceId, url_hmac }` and the source
 * rows to `ics:<id>` (ETag kept, so the next sync is still conditional). Idempotent; run at start.
 * @returns how many connections were sealed.
 */
export async function sealLegacyIcsFeeds(deps: Pick<SyncDeps, 'db' | 'config' | 'now'>): Promise<number> {
  const rows = await repo.listLegacyIcsConnections(deps.db);
  let sealed = 0;
  for (const row of rows) {
    let config: Record<string, unknown>;
    try {
      config = JSON.parse(row.config_json || '{}');
    } catch {
      continue;
    }
    const url = config.url;
    if (typeof url !== 'string' || !url) continue;
    let urlHmac: string;
    try {
      urlHmac = feedUrlHmac(url, deps.config.AVAIL_SECRET_KEY);
    } catch {
      continue; // not a URL: such a connection never synced; the owner can remove it
    }
    const sourceId = icsSourceId(row.id);
    await replicatedWrite(deps, row.user_id, async (trx, stamp) => {
      const change = { configJson: JSON.stringify({ sourceId, url_hmac: urlHmac }), secretEnc: encryptSecret(url, deps.config.AVAIL_SECRET_KEY), sourceId };
      if (await repo.sealLegacyIcsConnection(trx, row, change, stamp, deps.config.AVAIL_SECRET_KEY)) sealed++;
    });
  }
  return sealed;
}

export async function connectCaldav(deps: SyncDeps, user: UserRow, input: { server_url: string; username: string; password: string }) {
  await refuseDuplicate(deps, user.id, 'caldav', (c) => c.serverUrl === input.server_url && c.username === input.username);
  return connectPull(deps, user, {
    provider: 'caldav',
    config: { serverUrl: input.server_url, username: input.username },
    secret: input.password,
    account: input.username,
    authMessage: 'Invalid credentials. Please check your CalDAV username and password.',
  });
}

export async function connectApple(deps: SyncDeps, user: UserRow, input: { apple_id: string; app_specific_password: string }) {
  return connectPull(deps, user, {
    provider: 'apple',
    config: { serverUrl: deps.config.APPLE_CALDAV_URL, username: input.apple_id },
    secret: input.app_specific_password,
    name: 'iCloud',
    account: input.apple_id,
    authMessage: APPLE_INVALID_CREDENTIALS,
  });
}

/**
 * Removes connections of one owner. OAuth ones first stop their push channels and revoke the grant
 * at the provider (best effort, push.service.ts) and lose any pending scheduled sync; then, in one
 * replicated write, their push_channels rows and the connection cascade (sources, events with
 * tombstones, busy intervals) go.
 */
async function removeConnections(deps: SyncDeps, userId: string, conns: CalendarConnectionRow[]): Promise<void> {
  for (const c of conns) {
    if (isOAuthProvider(c.provider)) {
      cancelScheduledSync(deps.db, c.id);
      await stopChannelsAndRevoke(deps, c);
    }
  }
  await replicatedWrite(deps, userId, async (trx, stamp) => {
    for (const c of conns) {
      await deleteChannelsOfConnection(trx, c.id);
      await repo.deleteConnectionCascade(trx, c, stamp);
    }
  });
  for (const c of conns) {
    cancelScheduledSync(deps.db, c.id);
    deps.logger.info({ connectionId: c.id, provider: c.provider }, 'calendar disconnected');
  }
}

/** DELETE /me/calendar/connections/:id — 404 'Calendar connection not found' for another owner's or an unknown id. */
/**
 * PUT /me/calendar/connections/:id/busy-rules: stores the connection's busy rules (null when they
 * equal the defaults) and re-derives it at once from its stored sources (no network; off the
 * request thread in the derive pool), so the public page follows on the next request (the write
 * publishes on the change bus). Returns the connection as GET /me/calendar/connections shows it.
 * @throws 404 `{ error: 'Calendar connection not found' }` for another owner's or no connection.
 */
export async function setBusyRules(deps: SyncDeps, userId: string, id: string, rules: BusyRules): Promise<ConnectionView> {
  const conn = await repo.findConnection(deps.db, userId, id, deps.config.AVAIL_SECRET_KEY);
  if (!conn) throw notFound('Calendar connection not found');
  const busy_rules_json = isDefaultBusyRules(rules) ? null : JSON.stringify(rules);
  await repo.setBusyRulesJson(deps.db, conn.id, busy_rules_json);
  await rederiveConnection(deps, { ...conn, busy_rules_json });
  const updated = await repo.findConnection(deps.db, userId, id, deps.config.AVAIL_SECRET_KEY);
  return presentConnection(updated ?? { ...conn, busy_rules_json });
}

/**
 * GET /me/calendar/connections/:id/calendars: the connection's calendars as its last sync listed
 * them (CalDAV collections, Google calendarList, Graph calendars; names as the provider shows
 * them), each with its switch: `{ calendars: [{ id, name, color?, busy, read_only, new }] }`.
 * Empty before the first successful sync.
 * @throws 404 `{ error: 'Calendar connection not found' }` for another owner's or no connection.
 */
export async function listConnectionCalendars(deps: SyncDeps, userId: string, id: string): Promise<{ calendars: ConnectionCalendar[] }> {
  const conn = await repo.findConnection(deps.db, userId, id, deps.config.AVAIL_SECRET_KEY);
  if (!conn) throw notFound('Calendar connection not found');
  const key = deps.config.AVAIL_SECRET_KEY;
  return { calendars: calendarSwitches(calendarListOf(conn, key), readChoices(conn, key), conn.name) };
}

/**
 * PUT /me/calendar/connections/:id/calendars `{ calendars: [{ id, busy }] }`: stores the owner's
 * switches (merged over earlier ones: calendars not named keep theirs) and re-derives the
 * connection from its stored sources before answering (no network; in the derive pool), so the
 * public page follows on the next request, as busy rules do. Marks every listed calendar as seen.
 * @returns `{ calendars, connection }` as the GETs show them.
 * @throws 404 for another owner's or no connection; 422 `{ error, errors: { 'calendars.N.id' } }`
 *   for an id the connection does not list (nothing is stored then).
 */
export async function setConnectionCalendars(
  deps: SyncDeps,
  userId: string,
  id: string,
  input: { calendars: Array<{ id: string; busy: boolean }> },
): Promise<{ calendars: ConnectionCalendar[]; connection: ConnectionView }> {
  const conn = await repo.findConnection(deps.db, userId, id, deps.config.AVAIL_SECRET_KEY);
  if (!conn) throw notFound('Calendar connection not found');
  const key = deps.config.AVAIL_SECRET_KEY;
  const list = calendarListOf(conn, key);
  const known = new Set(list.map((c) => c.id));
  const unknownAt = input.calendars.findIndex((c) => !known.has(c.id));
  if (unknownAt >= 0) {
    const message = 'This calendar is not part of the connection. Sync, then try again.';
    throw validationFailed({ [`calendars.${unknownAt}.id`]: message });
  }
  const previous = readChoices(conn, key);
  const choices = { busy: { ...previous.busy }, reviewed_at: deps.now() };
  for (const c of input.calendars) choices.busy[c.id] = c.busy;
  const calendar_choices = sealChoices(choices, key);
  await repo.setCalendarChoices(deps.db, conn.id, calendar_choices);
  await rederiveConnection(deps, { ...conn, calendar_choices });
  const updated = (await repo.findConnection(deps.db, userId, id, deps.config.AVAIL_SECRET_KEY)) ?? { ...conn, calendar_choices };
  return { calendars: calendarSwitches(list, choices, conn.name), connection: presentConnection(updated) };
}

export async function deleteConnection(deps: SyncDeps, userId: string, id: string): Promise<void> {
  const conn = await repo.findConnection(deps.db, userId, id, deps.config.AVAIL_SECRET_KEY);
  if (!conn) throw notFound('Calendar connection not found');
  await removeConnections(deps, userId, [conn]);
}

/** DELETE /me/calendar/{provider}/disconnect: removes that provider's connections; 404 when none. */
export async function disconnectProvider(deps: SyncDeps, userId: string, provider: 'google' | 'microsoft' | 'apple') {
  const conns = await repo.findConnectionsByProvider(deps.db, userId, provider, deps.config.AVAIL_SECRET_KEY);
  if (conns.length === 0) throw notFound('No such calendar connection');
  await removeConnections(deps, userId, conns);
}

/** One connection's result of Sync Now: `error` is the owner-facing reason (never a secret). */
export interface SyncNowResult {
  connection_id: string;
  name: string;
  provider: CalendarConnectionRow['provider'];
  ok: boolean;
  error: string | null;
}

/**
 * POST /me/calendar/sync: syncs every connection of the owner (in parallel) and answers
 * `{ success, message, connections, results }`: `success` is true only when every sync succeeded
 * (a connection whose sync another request already ran counts as succeeded when it is active);
 * `results` names each connection with its outcome and, on failure, the reason
 * (e.g. "HTTP 404 from the calendar server").
 */
export async function syncNow(deps: SyncDeps, userId: string) {
  const outcomes = await syncUser(deps, userId);
  const connections = await listConnectionViews(deps, userId);
  const byId = new Map(connections.map((c) => [String(c.id), c]));
  const results: SyncNowResult[] = outcomes.map((o) => {
    const view = byId.get(o.connectionId);
    const ok = o.ok || ((o.busy || o.skipped) === true && view?.status === 'active');
    return {
      connection_id: o.connectionId,
      name: view?.name ?? '',
      provider: view?.provider ?? 'ics',
      ok,
      error: ok ? null : (o.error ?? view?.last_error ?? 'Calendar sync failed.'),
    };
  });
  const success = results.every((r) => r.ok);
  return { success, message: success ? 'Sync complete' : 'Failed to sync calendars. Please try again.', connections, results };
}

const INSTANT_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** An events-call edge: ISO date (local date in the owner's zone) or instant with a zone. */
function parseEdge(value: string, zoneName: string, field: string, isEnd: boolean): number {
  const v = value.trim();
  const date = /^\d{4}-\d{2}-\d{2}$/.test(v) ? parseIsoDate(v) : null;
  if (date) {
    const zone = getIanaZone(isValidIanaZone(zoneName) ? zoneName : 'UTC');
    if (!isEnd) return startOfLocalDay(zone, date);
    const next = new Date(Date.UTC(date.y, date.m - 1, date.d) + DAY_MS);
    return startOfLocalDay(zone, { y: next.getUTCFullYear(), m: next.getUTCMonth() + 1, d: next.getUTCDate() });
  }
  if (INSTANT_RE.test(v)) {
    const ms = Date.parse(v);
    if (Number.isFinite(ms)) return ms;
  }
  throw badRequest(`${field} must be an ISO date (YYYY-MM-DD) or an instant with a zone`);
}

export async function listEventViews(deps: SyncDeps, user: UserRow, query: { start_date: string; end_date: string }) {
  const start = parseEdge(query.start_date, user.timezone, 'start_date', false);
  const end = parseEdge(query.end_date, user.timezone, 'end_date', true);
  if (end < start) throw badRequest('end_date is before start_date');
  if (end - start > EVENTS_MAX_RANGE_DAYS * DAY_MS) throw badRequest(`Range longer than ${EVENTS_MAX_RANGE_DAYS} days`);
  const rows = await repo.listEvents(deps.db, user.id, start, end, deps.config.AVAIL_SECRET_KEY);
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    start: new Date(Number(r.start_ms)).toISOString(),
    end: new Date(Number(r.end_ms)).toISOString(),
    all_day: r.all_day === 1,
    is_busy: r.is_busy === 1,
    provider: r.provider,
    connection_id: r.connection_id,
  }));
}

/**
 * A readable name of a source's calendar: the calendar's own display name when the last sync
 * stored one (`names`: CalDAV displayname, Google summary, Graph name; by calendarUrl), else the
 * feed's own name for an ICS feed (one calendar), "Primary calendar" or the calendar id for Google,
 * the collection's last path segment for CalDAV and iCloud, "Outlook calendar …<last 6 characters
 * of its id>" for Microsoft. Never a feed URL (it may hold a token).
 */
/** Whether calendar `calendarId` of `conn` makes the owner busy (a calendar the list does not know: yes). */
function calendarCountsAsBusy(conn: CalendarConnectionRow, calendarId: string, key: Uint8Array): boolean {
  const listed = calendarListOf(conn, key).find((c) => c.id === calendarId);
  return listed ? countsAsBusy(listed, readChoices(conn, key)) : true;
}

export function calendarLabel(
  provider: CalendarConnectionRow['provider'],
  calendarUrl: string | null,
  connectionName: string,
  names: Readonly<Record<string, string>> = {},
): string | null {
  if (!calendarUrl) return null;
  const own = Object.hasOwn(names, calendarUrl) ? names[calendarUrl] : undefined;
  if (typeof own === 'string' && own.trim()) return own.trim();
  switch (provider) {
    case 'ics':
      return connectionName;
    case 'google':
      return calendarUrl === 'primary' ? 'Primary calendar' : calendarUrl;
    case 'microsoft':
      return `Outlook calendar …${calendarUrl.slice(-6)}`;
    default: {
      const segment = calendarUrl.split('/').filter(Boolean).pop() ?? calendarUrl;
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    }
  }
}

/**
 * GET /me/calendar/events/:id/source — "why is this time blocked?" for one of the owner's events:
 * its title, UID, times, busy flag and origin, the calendar and connection it came from with that
 * connection's status, parse warnings and busy rules. Owner-only (never on a public path).
 * @throws 404 `{ error: 'Event not found' }` for another owner's or no event.
 */
export async function eventSource(deps: SyncDeps, userId: string, id: string): Promise<EventSource> {
  const ev = await repo.findEventOfUser(deps.db, userId, id, deps.config.AVAIL_SECRET_KEY);
  if (!ev) throw notFound('Event not found');
  const conn = await repo.findConnection(deps.db, userId, ev.connection_id, deps.config.AVAIL_SECRET_KEY);
  if (!conn) throw notFound('Event not found');
  const view = presentConnection(conn);
  const origin = ev.origin === 'single' || ev.origin === 'recurring' || ev.origin === 'override' ? ev.origin : null;
  return {
    event: {
      id: ev.id,
      title: ev.title,
      uid: ev.uid,
      start: new Date(Number(ev.start_ms)).toISOString(),
      end: new Date(Number(ev.end_ms)).toISOString(),
      all_day: Number(ev.all_day) === 1,
      is_busy: Number(ev.is_busy) === 1,
      origin,
    },
    calendar: calendarLabel(conn.provider, ev.source_calendar, conn.name, calendarNamesOf(conn, deps.config.AVAIL_SECRET_KEY)),
    calendar_busy: ev.source_calendar == null ? true : calendarCountsAsBusy(conn, ev.source_calendar, deps.config.AVAIL_SECRET_KEY),
    connection: {
      id: view.id,
      name: view.name,
      provider: view.provider,
      status: view.status,
      last_synced_at: view.last_synced_at,
      last_error: view.last_error,
      warnings: view.warnings,
      busy_rules: view.busy_rules,
    },
  };
}

/**
 * Start-up pass: seals raw ICS sources and event titles stored in plain text by earlier versions
 * (calendars.repo.ts sealPlainContent). Idempotent. Returns how many rows were sealed.
 */
export function sealCalendarContent(deps: Pick<SyncDeps, 'db' | 'config'>): Promise<number> {
  return repo.sealPlainContent(deps.db, deps.config.AVAIL_SECRET_KEY);
}
