/**
 * The owner's events (dashboard) and "why is this time blocked?" for one event: its calendar's
 * readable label, whether that calendar counts as busy, and the connection it came from.
 * Owner-only; times leave as ISO instants (stored as UTC epoch ms).
 */
import { getIanaZone, isValidIanaZone, parseIsoDate, startOfLocalDay } from '@avail/shared/domain/zone-time.ts';
import type { EventSource } from '@avail/shared/schemas/calendar.schema.ts';
import type { CalendarConnectionRow, UserRow } from '../../db/schema.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import * as repo from '../../store/calendars.repo.ts';
import { calendarListOf, calendarNamesOf, countsAsBusy, readChoices, type SyncDeps } from '../sync/index.ts';
import { presentConnection } from './calendars.service.ts';

const DAY_MS = 86_400_000;
/** Longest range the events call answers (the dashboard asks for a week ± 3 days). */
const EVENTS_MAX_RANGE_DAYS = 100;

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

/**
 * GET /me/calendar/events?start_date&end_date: the owner's events in the range (edges: ISO dates in
 * the owner's zone, or instants with a zone; at most 100 days), times as ISO instants.
 * @throws 400 for an unreadable edge, an end before the start or a longer range.
 */
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

/** Whether calendar `calendarId` of `conn` makes the owner busy (a calendar the list does not know: yes). */
function calendarCountsAsBusy(conn: CalendarConnectionRow, calendarId: string, key: Uint8Array): boolean {
  const listed = calendarListOf(conn, key).find((c) => c.id === calendarId);
  return listed ? countsAsBusy(listed, readChoices(conn, key)) : true;
}

/**
 * A readable name of a source's calendar: the calendar's own display name when the last sync
 * stored one (`names`: CalDAV displayname, Google summary, Graph name; by calendarUrl), else the
 * feed's own name for an ICS feed (one calendar), "Primary calendar" or the calendar id for Google,
 * the collection's last path segment for CalDAV and iCloud, "Outlook calendar …<last 6 characters
 * of its id>" for Microsoft. Never a feed URL (it may hold a token).
 */
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
