/**
 * Google Calendar sync: the sync half of the Google adapter (google.provider.ts composes it with
 * google-session.ts, whose GoogleSession makes every call through `@googleapis/calendar`).
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
 */
import { createHash } from 'node:crypto';
import { SYNC_HORIZON_PAST_DAYS } from '@avail/shared/constants.ts';
import type { OAuthSyncResult } from '../oauth-provider.ts';
import { ProviderError, normalizeColor, type ProviderCalendar, type ProviderSyncInput, type SourceUpsert } from '../provider.ts';
import { compactEvent, selfEmailOf, seriesToIcs, type GoogleEvent } from './google-event-ical.ts';
import { GoogleHttpError, toProviderError, type Clock, type GoogleSession } from './google-session.ts';

const DAY_MS = 86_400_000;
const EVENTS_PAGE_SIZE = 2500;
const CALENDARS_PAGE_SIZE = 250;
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
interface GoogleSyncState {
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
// Sync helpers
// ---------------------------------------------------------------------------------------------

interface CalendarListEntry {
  id: string;
  primary?: boolean;
  /** The owner's name for it (summaryOverride), else the calendar's summary. */
  name?: string;
  /** calendarList accessRole: owner, writer, reader or freeBusyReader. */
  accessRole?: string;
  /** backgroundColor (#rrggbb). */
  color?: string;
}

/** calendarList.list, all pages (https://developers.google.com/calendar/api/v3/reference/calendarList/list). */
async function listCalendars(session: GoogleSession): Promise<CalendarListEntry[]> {
  const out: CalendarListEntry[] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const body: { items?: unknown[]; nextPageToken?: string | null } | null = await session
      .call((api) => api.calendarList.list({ maxResults: CALENDARS_PAGE_SIZE, ...(pageToken ? { pageToken } : {}) }))
      .catch((err: unknown) => toProviderError(err, 'list your calendars'));
    for (const item of body?.items ?? []) {
      const c = item as { id?: unknown; primary?: unknown; deleted?: unknown; summary?: unknown; summaryOverride?: unknown; accessRole?: unknown; backgroundColor?: unknown };
      const name = [c.summaryOverride, c.summary].find((v): v is string => typeof v === 'string' && v.trim() !== '');
      const color = normalizeColor(c.backgroundColor);
      if (typeof c.id === 'string' && c.deleted !== true)
        out.push({
          id: c.id,
          primary: c.primary === true,
          ...(name ? { name: name.trim() } : {}),
          ...(typeof c.accessRole === 'string' ? { accessRole: c.accessRole } : {}),
          ...(color ? { color } : {}),
        });
    }
    pageToken = body?.nextPageToken ?? undefined;
    if (!pageToken) return out;
  }
  throw new ProviderError('Google Calendar returned too many pages of calendars.');
}

/**
 * A calendarList entry as a ProviderCalendar: writable = accessRole owner or writer; busy by
 * default when writable or primary (holidays, birthdays and colleagues' calendars are readers).
 * https://developers.google.com/calendar/api/v3/reference/calendarList#resource
 */
function providerCalendarOf(c: CalendarListEntry): ProviderCalendar {
  const writable = c.accessRole === 'owner' || c.accessRole === 'writer';
  return {
    id: c.id,
    ...(c.name ? { name: c.name } : {}),
    ...(c.color ? { color: c.color } : {}),
    readOnly: !writable,
    busyByDefault: c.primary === true || writable,
  };
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
  for (let page = 0; page < MAX_PAGES; page++) {
    const params: { calendarId: string; showDeleted: boolean; maxResults: number; syncToken?: string; pageToken?: string } = {
      calendarId,
      showDeleted: true,
      maxResults: EVENTS_PAGE_SIZE,
    };
    if (syncToken) params.syncToken = syncToken;
    if (pageToken) params.pageToken = pageToken;
    let body: { items?: unknown[]; nextPageToken?: string | null; nextSyncToken?: string | null } | null;
    try {
      body = await session.call((api) => api.events.list(params));
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
    pageToken = body?.nextPageToken ?? undefined;
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

/**
 * One sync of all calendars of the account with an authorized session (see the module doc).
 * Result: upserts/removals per (calendar id, series/event id); `newState` = GoogleSyncState;
 * `newSecret` when the access token was refreshed; `notModified` when nothing changed.
 * @throws ProviderAuthError, ProviderRateLimitError, ProviderError (see GoogleSession.call).
 */
export async function syncGoogle(
  session: GoogleSession,
  input: ProviderSyncInput<Record<string, unknown>>,
  clock: Clock,
): Promise<OAuthSyncResult> {
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
  const now = clock();

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
    calendarNames: Object.fromEntries(calendars.filter((c) => c.name).map((c) => [c.id, c.name!])),
    calendars: calendars.map(providerCalendarOf),
  };
  // `calendarIds` on the result (newer interface) and in newState (the server's fallback).
  (result as OAuthSyncResult & { calendarIds?: string[] }).calendarIds = calendarIds;
  const newSecret = session.newSecret;
  if (newSecret) result.newSecret = newSecret;
  return result;
}
