/**
 * Sync side of the Microsoft adapter: delta rounds of every calendar through Microsoft Graph
 * (https://learn.microsoft.com/graph/delta-query-events), over the session's Graph client
 * (microsoft-session.ts; errors as listed there).
 *
 * Every calendar of GET /me/calendars (https://learn.microsoft.com/graph/api/user-list-calendars;
 * all included, all pages) is read with `GET /me/calendars/{id}/calendarView/delta?startDateTime&
 * endDateTime` over [now − SYNC_HORIZON_PAST_DAYS, now + SYNC_HORIZON_FUTURE_DAYS) (whole seconds,
 * UTC), `Prefer: outlook.timezone="UTC", odata.maxpagesize=…`, following `@odata.nextLink` to the
 * final `@odata.deltaLink` (absolute https links, passed to the Graph client as given), which is
 * kept per calendar with its window (MicrosoftSyncState; UTC epoch ms). Later syncs follow the
 * deltaLink (only changes; `@removed` items → removals). 410 Gone / syncStateNotFound (and the
 * other sync-state codes) → a full round of that calendar, removing what it no longer returns. A
 * window older than one day is restarted (full round) so the horizon moves. A calendar answering
 * 404 (deleted meanwhile) is skipped and reported in `removedCalendars`. Each instance is one
 * source object (calendarUrl = calendar id, href = instance id, iCalendar text): see graph-event-ical.ts.
 */
import { SYNC_HORIZON_FUTURE_DAYS, SYNC_HORIZON_PAST_DAYS } from '@avail/shared/constants.ts';
import type { OAuthSyncResult } from '../oauth-provider.ts';
import { ProviderError, normalizeColor, type ProviderCalendar, type ProviderSyncInput, type SourceUpsert } from '../provider.ts';
import { graphEventToIcs, type GraphEvent } from './graph-event-ical.ts';
import { GraphStatusError, type MicrosoftSession } from './microsoft-session.ts';

const DAY_MS = 86_400_000;
/** Restart a calendar's delta round (fresh window) when its window is older than this. */
const WINDOW_MAX_AGE_MS = DAY_MS;
/** Page size asked of calendarView/delta (`Prefer: odata.maxpagesize`). */
export const DELTA_PAGE_SIZE = 100;
/**
 * Address used as the owner's ATTENDEE when the account e-mail is unknown (no e-mail in the
 * id_token). `.invalid` (RFC 2606) can never be a real attendee, so it matches only our own lines.
 */
export const MICROSOFT_SELF_ADDRESS = 'self@microsoft-account.invalid';

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

/** Signals an expired/invalid delta token (410 Gone, syncStateNotFound …): restart the round. */
class DeltaResyncNeeded extends Error {}

/** Graph's "start the delta over" error codes (https://learn.microsoft.com/graph/delta-query-overview#synchronization-reset). */
const RESYNC_CODES = new Set(['syncstatenotfound', 'syncstateinvalid', 'resyncrequired', 'errorinvalidsyncstatedata']);

function readState(state: unknown): MicrosoftSyncState | null {
  const s = state as MicrosoftSyncState | null;
  if (!s || typeof s !== 'object' || s.v !== 1 || !s.calendars || typeof s.calendars !== 'object') return null;
  return s;
}

interface GraphPage<T> {
  value?: T[];
  '@odata.nextLink'?: string;
  '@odata.deltaLink'?: string;
}

/**
 * GET /me/calendars, all pages (https://learn.microsoft.com/graph/api/user-list-calendars): the
 * calendar ids, their display names (`name`) by id, and each as a ProviderCalendar — writable when
 * `canEdit`, busy by default when writable or the default calendar (shared and subscribed
 * calendars the owner cannot edit are not), `hexColor` as its colour.
 */
async function listCalendars(s: MicrosoftSession): Promise<{ ids: string[]; names: Record<string, string>; calendars: ProviderCalendar[] }> {
  const ids: string[] = [];
  const names: Record<string, string> = {};
  const calendars = new Map<string, ProviderCalendar>();
  let url: string | undefined = s.graphUrl('/me/calendars?$select=id,name,canEdit,hexColor,isDefaultCalendar');
  for (let pages = 0; url; pages++) {
    if (pages > 100) throw new ProviderError('Microsoft Graph returned too many calendar pages.');
    const page: GraphPage<{ id?: unknown; name?: unknown; canEdit?: unknown; hexColor?: unknown; isDefaultCalendar?: unknown }> = await s.getJson(url);
    for (const c of page.value ?? []) {
      if (typeof c.id !== 'string' || !c.id) continue;
      ids.push(c.id);
      const name = typeof c.name === 'string' && c.name.trim() ? c.name.trim() : undefined;
      if (name) names[c.id] = name;
      // canEdit absent (an older answer without $select support): treat as the owner's own.
      const writable = c.canEdit !== false;
      const color = normalizeColor(c.hexColor);
      calendars.set(c.id, {
        id: c.id,
        ...(name ? { name } : {}),
        ...(color ? { color } : {}),
        readOnly: !writable,
        busyByDefault: writable || c.isDefaultCalendar === true,
      });
    }
    url = page['@odata.nextLink'];
  }
  return { ids: [...new Set(ids)], names, calendars: [...calendars.values()] };
}

/**
 * One delta round from `url` (an initial calendarView/delta URL or a stored deltaLink): follows
 * `@odata.nextLink` pages to the `@odata.deltaLink`.
 * @returns the items by id (last one wins) and the new deltaLink.
 * @throws DeltaResyncNeeded on 410 / sync-state errors; GraphStatusError for other statuses.
 */
async function deltaRound(s: MicrosoftSession, url: string): Promise<{ items: Map<string, GraphEvent>; deltaLink: string }> {
  const items = new Map<string, GraphEvent>();
  let next: string | undefined = url;
  for (let pages = 0; next; pages++) {
    if (pages > 5_000) throw new ProviderError('Microsoft Graph returned too many pages for one calendar.');
    let page: GraphPage<GraphEvent>;
    try {
      page = await s.getJson(next, { prefer: `outlook.timezone="UTC", odata.maxpagesize=${s.opts.pageSize}` });
    } catch (err) {
      if (err instanceof GraphStatusError && (err.status === 410 || (err.code && RESYNC_CODES.has(err.code.toLowerCase())))) throw new DeltaResyncNeeded();
      throw err;
    }
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

function initialDeltaUrl(s: MicrosoftSession, calendarId: string, windowStart: number, windowEnd: number): string {
  // Whole seconds, as in Microsoft's examples (`2016-12-01T00:00:00Z`).
  const at = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  const q = new URLSearchParams({ startDateTime: at(windowStart), endDateTime: at(windowEnd) });
  return s.graphUrl(`/me/calendars/${encodeURIComponent(calendarId)}/calendarView/delta?${q}`);
}

/**
 * Full or incremental sync of every calendar (see the file header). `input.state` is the previous
 * `newState` (MicrosoftSyncState) or null; `input.known` the objects held.
 * @returns upserts/removals/removedCalendars, the new state, the calendar ids to watch, the owner
 *   addresses (account e-mail + MICROSOFT_SELF_ADDRESS) and `newSecret` when the tokens were refreshed.
 */
export async function syncMicrosoft(s: MicrosoftSession, input: ProviderSyncInput<Record<string, unknown>>): Promise<OAuthSyncResult> {
  const prev = readState(input.state);
  const now = s.now();
  const account = (s.tokens.account ?? prev?.account ?? null) || null;
  const { ids: calendarIds, names: calendarNames, calendars: calendarList } = await listCalendars(s);
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
        round = await deltaRound(s, initialDeltaUrl(s, calendarId, windowStart, windowEnd));
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
  const removedCalendars = [...new Set([...Object.keys(prev?.calendars ?? {}), ...knownByCalendar.keys()].filter((id) => !listed.has(id)))];
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
    calendarNames,
    calendars: calendarList.filter((c) => listed.has(c.id)),
    ...(s.newSecret() ? { newSecret: s.newSecret() } : {}),
  };
}
