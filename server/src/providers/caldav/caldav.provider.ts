/**
 * CalDAV provider (tsdav, Basic auth), also used for Apple iCloud.
 *
 * First sync: discovery (well-known → principal → calendar home) and the principal's
 * calendar-user-address-set, kept in the sync state so later syncs skip them.
 * Every sync: ONE PROPFIND (depth 1) on the calendar home lists the calendars with their ctag and
 * sync token; a calendar whose ctag and sync token are unchanged costs nothing more. A changed
 * calendar is read with an RFC 6578 sync-collection REPORT from the stored token (only changed and
 * deleted hrefs), falling back to a calendar-query of etags compared with what we hold; changed
 * objects come in calendar-multiget batches. Objects are fetched unexpanded (Radicale supports
 * neither expand nor free-busy-query; expansion is the shared engine's job).
 *
 * All requests go through the SSRF-guarded fetch. Credentials are only in the Authorization header.
 */
import { calendarMultiGet, calendarQuery, createAccount, fetchCalendarUserAddresses, propfind, syncCollection } from 'tsdav';
import type { DAVResponse } from 'tsdav';
import { SafeFetchError, type SafeFetch } from '../../lib/safe-fetch.ts';
import {
  ProviderAuthError,
  ProviderError,
  normalizeColor,
  type CalendarProviderAdapter,
  type ProviderSyncResult,
  type SourceUpsert,
} from '../provider.ts';

export interface CaldavConfig {
  serverUrl: string;
  username: string;
}

interface CalendarState {
  ctag?: string;
  syncToken?: string;
}

interface CaldavState {
  v: 1;
  rootUrl: string;
  principalUrl: string;
  homeUrl: string;
  addresses: string[];
  calendars: Record<string, CalendarState>;
}

const MULTIGET_BATCH = 50;

export interface CaldavProviderOptions {
  id: 'caldav' | 'apple';
  /** Message of the auth error (Apple uses the spec's wording). */
  authErrorMessage: string;
}

/** The Basic `authorization` header (RFC 7617, UTF-8) of a CalDAV account; used by sync and the writer. */
export function basicAuth(username: string, password: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}` };
}

function asString(v: unknown): string | undefined {
  if (v == null) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  if (typeof v === 'object' && v && '_cdata' in v) return String((v as { _cdata: unknown })._cdata);
  if (typeof v === 'object' && v && '_text' in v) return String((v as { _text: unknown })._text);
  return undefined;
}

function componentNames(compSet: unknown): string[] {
  const list = Array.isArray(compSet) ? compSet : compSet ? [compSet] : [];
  return list
    .map((c) => (c as { _attributes?: { name?: string } })?._attributes?.name)
    .filter((n): n is string => typeof n === 'string');
}

/**
 * RFC 3744 §5.4 DAV:current-user-privilege-set (as tsdav parses it): read-only when the set is
 * given and holds none of DAV:all, DAV:write, DAV:write-content, DAV:bind. A server that does not
 * report it (the property is optional) is taken as writable.
 */
export function isReadOnly(privilegeSet: unknown): boolean {
  if (privilegeSet == null || typeof privilegeSet !== 'object') return false;
  const json = JSON.stringify(privilegeSet);
  return !/"(all|write|writeContent|bind)"/.test(json);
}

function sameUrl(a: string, b: string): boolean {
  const norm = (u: string) => decodeURIComponent(new URL(u).pathname).replace(/\/+$/, '');
  try {
    return norm(a) === norm(b);
  } catch {
    return a === b; // not both URLs (or bad %-escapes): compare as written
  }
}

/** Addresses from calendar-user-address-set that are e-mails (without `mailto:`), lower-cased. */
function emailsOf(addresses: string[]): string[] {
  return addresses
    .map((a) => a.trim().replace(/^mailto:/i, '').toLowerCase())
    .filter((a) => /^[^@\s/]+@[^@\s/]+$/.test(a));
}

/** The error entry tsdav returns when the whole request failed (no multistatus): it has no props. */
function transportFailure(res: DAVResponse[]): DAVResponse | undefined {
  return res.find((r) => !r.ok && r.props === undefined);
}

/**
 * Wraps the guarded fetch for tsdav: turns network errors (SafeFetchError) into owner-facing
 * ProviderErrors and notes whether any answer was 401 (`seen.unauthorized`); used by sync and the writer.
 */
export function trackingFetch(base: SafeFetch) {
  const seen = { unauthorized: false };
  const f: typeof fetch = async (input, init) => {
    try {
      const res = await base(input as string, init);
      if (res.status === 401) seen.unauthorized = true;
      return res;
    } catch (err) {
      if (err instanceof SafeFetchError) throw new ProviderError(err.message);
      throw err;
    }
  };
  return { fetch: f, seen };
}

export function createCaldavProvider(options: CaldavProviderOptions): CalendarProviderAdapter<CaldavConfig> {
  return {
    id: options.id,
    async sync({ config, secret, state, known }, ctx): Promise<ProviderSyncResult> {
      if (!secret) throw new ProviderAuthError(options.authErrorMessage);
      const headers = basicAuth(config.username, secret);
      const { fetch, seen } = trackingFetch(ctx.fetch);
      const authFailed = () => new ProviderAuthError(options.authErrorMessage);

      const wrap = async <T>(fn: () => Promise<T>): Promise<T> => {
        try {
          return await fn();
        } catch (err) {
          if (seen.unauthorized) throw authFailed();
          if (err instanceof ProviderError) throw err;
          throw new ProviderError(`Could not read calendars from the CalDAV server (${(err as Error).message})`);
        }
      };

      let prev = (state && (state as CaldavState).v === 1 ? (state as CaldavState) : null) as CaldavState | null;

      const discover = async (): Promise<CaldavState> => {
        const account = await wrap(() =>
          createAccount({
            account: { serverUrl: config.serverUrl, accountType: 'caldav', credentials: { username: config.username, password: secret } },
            headers,
            fetch,
          }),
        );
        if (!account.rootUrl || !account.principalUrl || !account.homeUrl) {
          throw new ProviderError('No CalDAV calendar home found at this server URL');
        }
        let addresses: string[] = [];
        try {
          addresses = await fetchCalendarUserAddresses({ account, headers, fetch });
        } catch {
          // The calendar-user-address set is optional (RFC 6638): without it, invitations are
          // matched by the account e-mail only. Refused credentials are still an error.
          if (seen.unauthorized) throw authFailed();
          addresses = [];
        }
        return { v: 1, rootUrl: account.rootUrl, principalUrl: account.principalUrl, homeUrl: account.homeUrl, addresses, calendars: {} };
      };

      const listCalendars = async (s: CaldavState) => {
        const res = await wrap(() =>
          propfind({
            url: s.homeUrl,
            props: {
              'd:displayname': {},
              'cs:getctag': {},
              'd:resourcetype': {},
              'c:supported-calendar-component-set': {},
              'd:sync-token': {},
              'd:current-user-privilege-set': {},
              'ca:calendar-color': {},
            },
            depth: '1',
            headers,
            fetch,
          }),
        );
        if (seen.unauthorized || res.some((r) => r.status === 401)) throw authFailed();
        const top = transportFailure(res);
        if (top) return { status: top.status ?? 0, calendars: null };
        const calendars = res
          .filter((r) => r.href && r.props && Object.keys(r.props.resourcetype ?? {}).includes('calendar'))
          .filter((r) => {
            const comps = componentNames(r.props?.supportedCalendarComponentSet?.comp);
            return comps.length === 0 || comps.includes('VEVENT');
          })
          .map((r) => ({
            url: new URL(r.href!, s.homeUrl).href,
            ctag: asString(r.props?.getctag),
            syncToken: asString(r.props?.syncToken),
            name: asString(r.props?.displayname),
            color: normalizeColor(asString(r.props?.calendarColor)),
            readOnly: isReadOnly(r.props?.currentUserPrivilegeSet),
          }));
        return { status: 207, calendars };
      };

      let current = prev ?? (await discover());
      let listed = await listCalendars(current);
      if (!listed.calendars && prev) {
        // The home moved (or the cached discovery went stale): discover again once.
        current = await discover();
        prev = null;
        listed = await listCalendars(current);
      }
      if (!listed.calendars) throw new ProviderError(`CalDAV server answered HTTP ${listed.status} for the calendar list`);
      const calendars = listed.calendars;

      const knownByCalendar = new Map<string, Map<string, string | null>>();
      for (const k of known) {
        if (!knownByCalendar.has(k.calendarUrl)) knownByCalendar.set(k.calendarUrl, new Map());
        knownByCalendar.get(k.calendarUrl)!.set(k.href, k.etag);
      }

      const upserts: SourceUpsert[] = [];
      const removals: Array<{ calendarUrl: string; href: string }> = [];
      const nextCalendars: Record<string, CalendarState> = {};
      let anyChange = false;

      for (const cal of calendars) {
        const old = prev?.calendars[cal.url];
        const held = knownByCalendar.get(cal.url) ?? new Map<string, string | null>();
        const unchanged =
          old !== undefined &&
          (cal.ctag !== undefined || cal.syncToken !== undefined) &&
          old.ctag === cal.ctag &&
          old.syncToken === cal.syncToken;
        if (unchanged) {
          nextCalendars[cal.url] = old;
          continue;
        }
        anyChange = true;
        let changedHrefs: string[] | null = null;
        let newToken = cal.syncToken;

        if (old?.syncToken && cal.syncToken) {
          const report = await wrap(() =>
            syncCollection({ url: cal.url, props: { 'd:getetag': {} }, syncLevel: 1, syncToken: old.syncToken, headers, fetch }),
          );
          if (seen.unauthorized) throw authFailed();
          const failed = transportFailure(report) !== undefined;
          if (!failed) {
            changedHrefs = [];
            const token = asString((report[0]?.raw as { multistatus?: { syncToken?: unknown } } | undefined)?.multistatus?.syncToken);
            if (token) newToken = token;
            for (const r of report) {
              if (!r.href || r.props === undefined) continue;
              const url = new URL(r.href, cal.url).href;
              if (sameUrl(url, cal.url)) continue;
              if (r.status === 404) {
                if (held.has(url)) removals.push({ calendarUrl: cal.url, href: url });
              } else {
                const etag = asString(r.props?.getetag) ?? null;
                if (!held.has(url) || etag === null || held.get(url) !== etag) changedHrefs.push(url);
              }
            }
          }
        }

        if (changedHrefs === null) {
          // Full listing: every VEVENT object's etag, compared with what we hold.
          const listing = await wrap(() =>
            calendarQuery({
              url: cal.url,
              props: { 'd:getetag': {} },
              filters: { 'comp-filter': { _attributes: { name: 'VCALENDAR' }, 'comp-filter': { _attributes: { name: 'VEVENT' } } } },
              depth: '1',
              headers,
              fetch,
            }),
          );
          if (seen.unauthorized) throw authFailed();
          const failed = transportFailure(listing);
          if (failed) throw new ProviderError(`CalDAV server answered HTTP ${failed.status} when listing a calendar`);
          changedHrefs = [];
          const present = new Set<string>();
          for (const r of listing) {
            if (!r.href || !r.ok || r.props === undefined) continue;
            const url = new URL(r.href, cal.url).href;
            if (sameUrl(url, cal.url)) continue;
            present.add(url);
            const etag = asString(r.props?.getetag) ?? null;
            if (!held.has(url) || etag === null || held.get(url) !== etag) changedHrefs.push(url);
          }
          for (const href of held.keys()) if (!present.has(href)) removals.push({ calendarUrl: cal.url, href });
        }

        for (let i = 0; i < changedHrefs.length; i += MULTIGET_BATCH) {
          const batch = changedHrefs.slice(i, i + MULTIGET_BATCH);
          const got: DAVResponse[] = await wrap(() =>
            calendarMultiGet({
              url: cal.url,
              props: { 'd:getetag': {}, 'c:calendar-data': {} },
              objectUrls: batch.map((u) => new URL(u).pathname),
              depth: '1',
              headers,
              fetch,
            }),
          );
          if (seen.unauthorized) throw authFailed();
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
        nextCalendars[cal.url] = { ctag: cal.ctag, syncToken: newToken }; // the display name goes to calendarNames (stored sealed)
      }

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
    },
  };
}

/** The auth error of 'caldav' connections (sync and writer). */
export const CALDAV_INVALID_CREDENTIALS = 'Invalid credentials. Please check your CalDAV username and password.';

export const caldavProvider = createCaldavProvider({ id: 'caldav', authErrorMessage: CALDAV_INVALID_CREDENTIALS });
