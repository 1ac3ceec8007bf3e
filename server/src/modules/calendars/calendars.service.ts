/**
 * Calendar connections once connected: how they are presented, listed, their busy rules and
 * calendar switches (each change re-derives at once), delete/disconnect, Sync Now, and the
 * start-up sealing of calendar content. Connecting: calendar-connect.service.ts; the owner's
 * events: calendar-events.service.ts.
 */
import { isDefaultBusyRules, readBusyRules, type BusyRules } from '@avail/shared/ical/busy-rules.ts';
import type { ConnectionCalendar } from '@avail/shared/schemas/calendar.schema.ts';
import type { CalendarConnectionRow } from '../../db/schema.ts';
import { notFound, validationFailed } from '../../http/errors.ts';
import { isOAuthProvider } from '../../providers/oauth-registry.ts';
import { replicatedWrite } from '../../store/repl-clock.repo.ts';
import { deleteChannelsOfConnection } from '../../store/oauth.repo.ts';
import * as repo from '../../store/calendars.repo.ts';
import { stopChannelsAndRevoke } from '../oauth/index.ts';
import { connectionDoc } from '../replication/index.ts';
import { calendarListOf, calendarSwitches, cancelScheduledSync, readChoices, rederiveConnection, sealChoices, syncUser, type SyncDeps } from '../sync/index.ts';

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

/** DELETE /me/calendar/connections/:id — 404 'Calendar connection not found' for another owner's or an unknown id. */
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
interface SyncNowResult {
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

/**
 * Start-up pass: seals raw ICS sources and event titles stored in plain text by earlier versions
 * (calendars.repo.ts sealPlainContent). Idempotent. Returns how many rows were sealed.
 */
export function sealCalendarContent(deps: Pick<SyncDeps, 'db' | 'config'>): Promise<number> {
  return repo.sealPlainContent(deps.db, deps.config.AVAIL_SECRET_KEY);
}
