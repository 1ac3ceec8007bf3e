/**
 * The sync of a CalDAV connection (caldav.provider.ts wraps it in the adapter), step by step:
 * 1. discovery and the calendar list (caldav-discovery.ts): ONE PROPFIND on the calendar home per sync;
 * 2. the ctag / sync-token check: a calendar whose ctag and sync token are unchanged costs nothing more;
 * 3. the changed hrefs of a changed calendar: an RFC 6578 sync-collection REPORT from the stored
 *    token (only changed and deleted hrefs), falling back to a calendar-query of etags compared with
 *    what we hold (RFC 4791 §7.8);
 * 4. the changed objects, in calendar-multiget batches of 50 (RFC 4791 §7.9), fetched unexpanded
 *    (Radicale supports neither expand nor free-busy-query; expansion is the shared engine's job);
 * 5. the mapping to the ProviderSyncResult (state, calendars, owner e-mails, names).
 */
import { calendarMultiGet, calendarQuery, syncCollection } from 'tsdav';
import type { DAVResponse } from 'tsdav';
import { ProviderAuthError, ProviderError, type ProviderContext, type ProviderSyncInput, type ProviderSyncResult, type SourceUpsert } from '../provider.ts';
import { discover, emailsOf, listCalendars, type CaldavConfig, type CaldavState, type CalendarState, type ListedCalendar } from './caldav-discovery.ts';
import { asString, openCaldavSession, sameUrl, transportFailure, type CaldavSession } from './caldav-session.ts';

const MULTIGET_BATCH = 50;

export interface CaldavProviderOptions {
  id: 'caldav' | 'apple';
  /** Message of the auth error (Apple uses the spec's wording). */
  authErrorMessage: string;
}

type Removal = { calendarUrl: string; href: string };
/** The objects held for one calendar: href → etag (null = none stored). */
type Held = Map<string, string | null>;

/**
 * Step 3 with a stored sync token: the sync-collection REPORT. `null` when the server refused the
 * report as a whole (the caller falls back to the listing); else the changed hrefs (new, or etag
 * differs from the held one), removals of held hrefs reported 404, and the new token (or undefined).
 */
async function changesSinceToken(session: CaldavSession, cal: ListedCalendar, syncToken: string, held: Held) {
  const { headers, fetch } = session;
  const report = await session.wrap(() => syncCollection({ url: cal.url, props: { 'd:getetag': {} }, syncLevel: 1, syncToken, headers, fetch }));
  if (session.seen.unauthorized) throw session.authFailed();
  if (transportFailure(report) !== undefined) return null;
  const changed: string[] = [];
  const removals: Removal[] = [];
  const token = asString((report[0]?.raw as { multistatus?: { syncToken?: unknown } } | undefined)?.multistatus?.syncToken);
  for (const r of report) {
    if (!r.href || r.props === undefined) continue;
    const url = new URL(r.href, cal.url).href;
    if (sameUrl(url, cal.url)) continue;
    if (r.status === 404) {
      if (held.has(url)) removals.push({ calendarUrl: cal.url, href: url });
    } else {
      const etag = asString(r.props?.getetag) ?? null;
      if (!held.has(url) || etag === null || held.get(url) !== etag) changed.push(url);
    }
  }
  return { changed, removals, token };
}

/**
 * Step 3 without a usable token: the full listing, every VEVENT object's etag compared with what we
 * hold; held hrefs no longer listed are removals.
 * @throws ProviderError when the server refuses the listing.
 */
async function changesByListing(session: CaldavSession, cal: ListedCalendar, held: Held): Promise<{ changed: string[]; removals: Removal[] }> {
  const { headers, fetch } = session;
  const listing = await session.wrap(() =>
    calendarQuery({
      url: cal.url,
      props: { 'd:getetag': {} },
      filters: { 'comp-filter': { _attributes: { name: 'VCALENDAR' }, 'comp-filter': { _attributes: { name: 'VEVENT' } } } },
      depth: '1',
      headers,
      fetch,
    }),
  );
  if (session.seen.unauthorized) throw session.authFailed();
  const failed = transportFailure(listing);
  if (failed) throw new ProviderError(`CalDAV server answered HTTP ${failed.status} when listing a calendar`);
  const changed: string[] = [];
  const removals: Removal[] = [];
  const present = new Set<string>();
  for (const r of listing) {
    if (!r.href || !r.ok || r.props === undefined) continue;
    const url = new URL(r.href, cal.url).href;
    if (sameUrl(url, cal.url)) continue;
    present.add(url);
    const etag = asString(r.props?.getetag) ?? null;
    if (!held.has(url) || etag === null || held.get(url) !== etag) changed.push(url);
  }
  for (const href of held.keys()) if (!present.has(href)) removals.push({ calendarUrl: cal.url, href });
  return { changed, removals };
}

/**
 * Step 4: the changed objects in calendar-multiget batches; an object answered 404 that we hold is
 * a removal, one without calendar-data is skipped.
 * @throws ProviderError when the server refuses a batch.
 */
async function fetchObjects(session: CaldavSession, cal: ListedCalendar, hrefs: string[], held: Held): Promise<{ upserts: SourceUpsert[]; removals: Removal[] }> {
  const { headers, fetch } = session;
  const upserts: SourceUpsert[] = [];
  const removals: Removal[] = [];
  for (let i = 0; i < hrefs.length; i += MULTIGET_BATCH) {
    const batch = hrefs.slice(i, i + MULTIGET_BATCH);
    const got: DAVResponse[] = await session.wrap(() =>
      calendarMultiGet({
        url: cal.url,
        props: { 'd:getetag': {}, 'c:calendar-data': {} },
        objectUrls: batch.map((u) => new URL(u).pathname),
        depth: '1',
        headers,
        fetch,
      }),
    );
    if (session.seen.unauthorized) throw session.authFailed();
    const failed = transportFailure(got);
    if (failed) throw new ProviderError(`CalDAV server answered HTTP ${failed.status} when reading events`);
    for (const r of got) {
      if (!r.href || r.props === undefined) continue;
      const url = new URL(r.href, cal.url).href;
      if (r.status === 404) {
        if (held.has(url)) removals.push({ calendarUrl: cal.url, href: url });
        continue;
      }
      const data = asString(r.props?.calendarData);
      if (!r.ok || !data) continue;
      upserts.push({ calendarUrl: cal.url, href: url, etag: asString(r.props?.getetag) ?? null, icsText: data });
    }
  }
  return { upserts, removals };
}

/** Steps 3 and 4 for one changed calendar: its upserts, removals and new state (the display name goes to calendarNames, stored sealed). */
async function syncCalendar(session: CaldavSession, cal: ListedCalendar, old: CalendarState | undefined, held: Held) {
  const removals: Removal[] = [];
  let changed: string[] | null = null;
  let newToken = cal.syncToken;
  if (old?.syncToken && cal.syncToken) {
    const since = await changesSinceToken(session, cal, old.syncToken, held);
    if (since) {
      changed = since.changed;
      removals.push(...since.removals);
      if (since.token) newToken = since.token;
    }
  }
  if (changed === null) {
    const listed = await changesByListing(session, cal, held);
    changed = listed.changed;
    removals.push(...listed.removals);
  }
  const fetched = await fetchObjects(session, cal, changed, held);
  removals.push(...fetched.removals);
  return { upserts: fetched.upserts, removals, state: { ctag: cal.ctag, syncToken: newToken } satisfies CalendarState };
}

/**
 * One sync of a CalDAV (or Apple) connection: `known` are the objects held, `state` the previous
 * {@link CaldavState} (or null: discovery first). `notModified` when no calendar's ctag or sync
 * token moved and none vanished.
 * @throws ProviderAuthError(options.authErrorMessage) without a secret or on a 401; ProviderError
 *   when the server cannot be read (messages safe for the owner).
 */
export async function syncCaldav(
  { config, secret, state, known }: ProviderSyncInput<CaldavConfig>,
  ctx: ProviderContext,
  options: CaldavProviderOptions,
): Promise<ProviderSyncResult> {
  if (!secret) throw new ProviderAuthError(options.authErrorMessage);
  const session = openCaldavSession(config.username, secret, ctx.fetch, options.authErrorMessage);

  // Step 1: discovery (unless cached) and the calendar list.
  let prev = (state && (state as CaldavState).v === 1 ? (state as CaldavState) : null) as CaldavState | null;
  let current = prev ?? (await discover(session, config, secret));
  let listed = await listCalendars(session, current);
  if (!listed.calendars && prev) {
    // The home moved (or the cached discovery went stale): discover again once.
    current = await discover(session, config, secret);
    prev = null;
    listed = await listCalendars(session, current);
  }
  if (!listed.calendars) throw new ProviderError(`CalDAV server answered HTTP ${listed.status} for the calendar list`);
  const calendars = listed.calendars;

  const knownByCalendar = new Map<string, Held>();
  for (const k of known) {
    if (!knownByCalendar.has(k.calendarUrl)) knownByCalendar.set(k.calendarUrl, new Map());
    knownByCalendar.get(k.calendarUrl)!.set(k.href, k.etag);
  }

  const upserts: SourceUpsert[] = [];
  const removals: Removal[] = [];
  const nextCalendars: Record<string, CalendarState> = {};
  let anyChange = false;
  for (const cal of calendars) {
    // Step 2: the ctag / sync-token check.
    const old = prev?.calendars[cal.url];
    const unchanged = old !== undefined && (cal.ctag !== undefined || cal.syncToken !== undefined) && old.ctag === cal.ctag && old.syncToken === cal.syncToken;
    if (unchanged) {
      nextCalendars[cal.url] = old;
      continue;
    }
    anyChange = true;
    const done = await syncCalendar(session, cal, old, knownByCalendar.get(cal.url) ?? new Map<string, string | null>());
    upserts.push(...done.upserts);
    removals.push(...done.removals);
    nextCalendars[cal.url] = done.state;
  }

  // Step 5: the mapping.
  const liveUrls = new Set(calendars.map((c) => c.url));
  const removedCalendars = [...knownByCalendar.keys()].filter((u) => !liveUrls.has(u));
  if (removedCalendars.length) anyChange = true;
  if (!prev) anyChange = true;

  const ownerEmails = emailsOf(current.addresses);
  if (/^[^@\s]+@[^@\s]+$/.test(config.username)) ownerEmails.push(config.username.toLowerCase());

  return {
    notModified: !anyChange,
    upserts,
    removals,
    removedCalendars,
    calendarsCount: calendars.length,
    newState: { ...current, calendars: nextCalendars } satisfies CaldavState,
    ownerEmails: [...new Set(ownerEmails)],
    suggestedName: options.id === 'apple' ? 'iCloud' : new URL(config.serverUrl).host,
    calendarNames: Object.fromEntries(calendars.filter((c) => c.name).map((c) => [c.url, c.name!])),
    // CalDAV: every collection counts as busy until the owner switches it off (issue 23).
    calendars: calendars.map((c) => ({
      id: c.url,
      ...(c.name ? { name: c.name } : {}),
      ...(c.color ? { color: c.color } : {}),
      readOnly: c.readOnly,
      busyByDefault: true,
    })),
  };
}
