/**
 * The first steps of a CalDAV sync (caldav-sync.ts): discovery and the calendar list.
 *
 * - Discovery (first sync, or when the cached home went stale): RFC 6764 well-known → principal →
 *   calendar home (tsdav createAccount), and the principal's calendar-user-address-set (RFC 6638
 *   §2.4.1, optional), kept in the sync state ({@link CaldavState}) so later syncs skip them.
 * - The calendar list: ONE PROPFIND (depth 1) on the calendar home gives every calendar with its
 *   ctag, sync token (RFC 6578), name, color and privileges; VEVENT calendars only.
 */
import { createAccount, fetchCalendarUserAddresses, propfind } from 'tsdav';
import { ProviderError, normalizeColor } from '../provider.ts';
import { asString, transportFailure, type CaldavSession } from './caldav-session.ts';

/** A CalDAV connection's config: the server URL the owner gave and the account's username. */
export interface CaldavConfig {
  serverUrl: string;
  username: string;
}

/** What a calendar looked like at the last sync: its ctag and RFC 6578 sync token (either may be absent). */
export interface CalendarState {
  ctag?: string;
  syncToken?: string;
}

/** The sync state of a CalDAV connection: discovery's result and each calendar's state by URL. */
export interface CaldavState {
  v: 1;
  rootUrl: string;
  principalUrl: string;
  homeUrl: string;
  addresses: string[];
  calendars: Record<string, CalendarState>;
}

/** A calendar of the home listing: absolute URL, ctag, sync token, display name, color, read-only. */
export interface ListedCalendar {
  url: string;
  ctag: string | undefined;
  syncToken: string | undefined;
  name: string | undefined;
  color: string | undefined;
  readOnly: boolean;
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
function isReadOnly(privilegeSet: unknown): boolean {
  if (privilegeSet == null || typeof privilegeSet !== 'object') return false;
  const json = JSON.stringify(privilegeSet);
  return !/"(all|write|writeContent|bind)"/.test(json);
}

/** Addresses from calendar-user-address-set that are e-mails (without `mailto:`), lower-cased. */
export function emailsOf(addresses: string[]): string[] {
  return addresses
    .map((a) => a.trim().replace(/^mailto:/i, '').toLowerCase())
    .filter((a) => /^[^@\s/]+@[^@\s/]+$/.test(a));
}

/**
 * Discovery: the account's root, principal and calendar home, and its calendar-user addresses
 * (empty when the server does not give them); a fresh state with no calendars.
 * @throws ProviderError when no calendar home is found; the session's auth error on a 401.
 */
export async function discover(session: CaldavSession, config: CaldavConfig, secret: string): Promise<CaldavState> {
  const { headers, fetch } = session;
  const account = await session.wrap(() =>
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
    if (session.seen.unauthorized) throw session.authFailed();
    addresses = [];
  }
  return { v: 1, rootUrl: account.rootUrl, principalUrl: account.principalUrl, homeUrl: account.homeUrl, addresses, calendars: {} };
}

/**
 * The calendar list: one PROPFIND (depth 1) on `s.homeUrl`. `calendars` is null (with the HTTP
 * `status`, 0 when none) when the whole request failed, e.g. the home moved.
 * @throws the session's auth error on a 401.
 */
export async function listCalendars(session: CaldavSession, s: CaldavState): Promise<{ status: number; calendars: ListedCalendar[] | null }> {
  const { headers, fetch } = session;
  const res = await session.wrap(() =>
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
  if (session.seen.unauthorized || res.some((r) => r.status === 401)) throw session.authFailed();
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
}
