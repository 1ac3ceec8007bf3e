/**
 * Writing a confirmed meeting into a CalDAV calendar (issue 24; EventWriter of event-writer.ts),
 * also used for Apple iCloud (its calendars are CalDAV collections found from APPLE_CALDAV_URL by
 * the sync; the writer only talks to the collection URL the sync stored).
 *
 * - Create (RFC 4791 §5.3.2, https://www.rfc-editor.org/rfc/rfc4791#section-5.3.2): tsdav
 *   `createCalendarObject` = `PUT {calendarUrl}{name}.ics` with `If-None-Match: *` (never
 *   overwrites) and the VCALENDAR of `meetingCalendar(meeting, null)` (no METHOD; the visitor's
 *   ATTENDEE carries SCHEDULE-AGENT=CLIENT, so a scheduling server sends no second invitation).
 *   `name` is derived from the UID only (see {@link caldavObjectName}), so a retried write finds
 *   its own first copy: 412 on a resource that already holds this UID counts as written.
 * - Delete: tsdav `deleteCalendarObject` = `DELETE {href}` without If-Match; 404 and 410 = already gone.
 * - Every request goes through the SSRF-guarded fetch (ctx.fetch; private hosts only with
 *   ALLOW_PRIVATE_CALENDAR_HOSTS) with Basic auth, as the sync does. Nothing is logged.
 *
 * Errors (messages safe for the owner: no password, title, note or address):
 * - 401 → ProviderAuthError(authErrorMessage) (the password was refused: connection expired);
 * - 403 → the calendar's DAV:current-user-privilege-set is read with a PROPFIND (RFC 3744 §5.4): if
 *   the calendar can still be read, ProviderWriteDeniedError (a read-only calendar or missing
 *   DAV:bind); if even that is refused (401/403), ProviderAuthError (the account lost access);
 * - 405 (the collection does not take PUT, e.g. a subscription) → ProviderWriteDeniedError;
 * - 404 / 409 (the collection is gone: RFC 4918 §9.7.1) → ProviderError;
 * - anything else, network failures and SSRF refusals → ProviderError.
 */
import { createHash } from 'node:crypto';
import { calendarMultiGet, createCalendarObject, deleteCalendarObject, propfind } from 'tsdav';
import { meetingCalendar, type Meeting } from '../../lib/meeting-ical.ts';
import { ProviderWriteDeniedError, type EventWriter, type EventWriterContext, type WriteTarget } from '../event-writer.ts';
import { ProviderAuthError, ProviderError } from '../provider.ts';
import { CALDAV_INVALID_CREDENTIALS, basicAuth, trackingFetch } from './caldav-session.ts';

export interface CaldavWriterOptions {
  /** Message of the auth error (the same wording as the provider's sync: Apple names the Apple ID). */
  authErrorMessage: string;
}

/**
 * Names made only of RFC 3986 §2.3 unreserved characters: no server percent-encodes them, so the
 * href a later sync lists is exactly the one returned here (Radicale lists `@` as `%40`).
 */
const SAFE_NAME = /^[A-Za-z0-9._-]{1,120}$/;

/**
 * The resource name (without `.ics`) of a meeting's calendar object, derived from its UID only:
 * the UID itself when it is 1–120 characters of `[A-Za-z0-9._-]` (and does not start with a dot);
 * otherwise those characters of it (at most 60, runs of others as `-`) + `-` + the first 32 hex
 * digits of its SHA-256 (`8f14e45f-…@avail.example.com` → `8f14e45f-…-avail-example-com-<hex>`), so
 * different UIDs never share a name and the name needs no percent-encoding on any server.
 */
export function caldavObjectName(uid: string): string {
  if (SAFE_NAME.test(uid) && !uid.startsWith('.')) return uid;
  const kept = uid.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60);
  const hash = createHash('sha256').update(uid, 'utf8').digest('hex').slice(0, 32);
  return kept ? `${kept}-${hash}` : hash;
}

/** The collection URL with a trailing slash; ProviderError when it is not an absolute http(s) URL. */
function collectionUrl(calendarId: string): string {
  let u: URL;
  try {
    u = new URL(calendarId);
  } catch {
    throw new ProviderError('This calendar has no valid CalDAV address. Sync the connection again.');
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new ProviderError('This calendar has no valid CalDAV address. Sync the connection again.');
  if (!u.pathname.endsWith('/')) u.pathname += '/';
  return u.href;
}

/** The UID values of an iCalendar text (lines unfolded first). */
function uidsOf(icsText: string): string[] {
  const unfolded = icsText.replace(/\r?\n[ \t]/g, '');
  return [...unfolded.matchAll(/^UID(?:;[^:\r\n]*)?:(.*)$/gim)].map((m) => m[1]!.trim());
}

function asText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && '_cdata' in v) return String((v as { _cdata: unknown })._cdata);
  if (v && typeof v === 'object' && '_text' in v) return String((v as { _text: unknown })._text);
  return undefined;
}

/**
 * Builds the CalDAV EventWriter (`sendsInvitation: false`: the service sends the iMIP itself),
 * following RFC 4791 §5.3.2 (https://www.rfc-editor.org/rfc/rfc4791#section-5.3.2) and RFC 4918 §9.6
 * (DELETE).
 * `writeEvent(target, meeting, ctx)`: `target.config` = `{ serverUrl, username }`, `target.secret`
 * = the password, `target.calendarId` = the collection URL (absolute) → `{ remoteId }` = the
 * object's absolute URL. `deleteEvent(target, remoteId, ctx)` → `{}`. Errors: see the module doc.
 */
export function createCaldavWriter(options: CaldavWriterOptions): EventWriter {
  const authFailed = () => new ProviderAuthError(options.authErrorMessage);

  const session = (target: WriteTarget, ctx: EventWriterContext) => {
    const username = typeof target.config.username === 'string' ? target.config.username : '';
    if (!target.secret || !username) throw authFailed();
    return { headers: basicAuth(username, target.secret), ...trackingFetch(ctx.fetch) };
  };

  /** Runs one tsdav call; network failures → ProviderError, a 401 seen on the way → ProviderAuthError. */
  const run = async <T>(seen: { unauthorized: boolean }, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      if (seen.unauthorized) throw authFailed();
      if (err instanceof ProviderError) throw err;
      throw new ProviderError('Could not reach the CalDAV server. Please try again.');
    }
  };

  /** After a 403: WriteDenied when the calendar can still be read, AuthError when not even that. */
  const forbidden = async (url: string, s: ReturnType<typeof session>): Promise<ProviderError> => {
    const res = await run(s.seen, () =>
      propfind({ url, props: { 'd:current-user-privilege-set': {} }, depth: '0', headers: s.headers, fetch: s.fetch }),
    ).catch((err: unknown) => err as ProviderError);
    if (res instanceof ProviderError) return res;
    if (s.seen.unauthorized || res.some((r) => r.status === 401 || r.status === 403)) return authFailed();
    return new ProviderWriteDeniedError();
  };

  return {
    sendsInvitation: false,

    async writeEvent(target, meeting: Meeting, ctx) {
      const s = session(target, ctx);
      const calendarUrl = collectionUrl(target.calendarId);
      const filename = `${caldavObjectName(meeting.uid)}.ics`;
      const href = new URL(filename, calendarUrl).href;
      const res = await run(s.seen, () =>
        createCalendarObject({
          calendar: { url: calendarUrl },
          filename,
          iCalString: meetingCalendar(meeting, null),
          headers: s.headers,
          fetch: s.fetch,
        }),
      );
      await res.body?.cancel().catch(() => undefined);
      if (res.ok) return { remoteId: href };
      if (res.status === 401) throw authFailed();
      if (res.status === 403) throw await forbidden(calendarUrl, s);
      if (res.status === 405) throw new ProviderWriteDeniedError();
      if (res.status === 412) {
        // If-None-Match: * failed: the name is taken. Ours (a retried write) when it holds this UID.
        const got = await run(s.seen, () =>
          calendarMultiGet({
            url: calendarUrl,
            props: { 'c:calendar-data': {} },
            objectUrls: [new URL(href).pathname],
            depth: '1',
            headers: s.headers,
            fetch: s.fetch,
          }),
        );
        const data = got.map((r) => asText(r.props?.calendarData)).find((d) => d !== undefined);
        if (data !== undefined && uidsOf(data).includes(meeting.uid)) return { remoteId: href };
        throw new ProviderError('The CalDAV server already holds another event under this meeting’s name.');
      }
      if (res.status === 404 || res.status === 409) {
        throw new ProviderError('This calendar no longer exists on the CalDAV server. Choose another calendar.');
      }
      throw new ProviderError(`The CalDAV server answered HTTP ${res.status} when adding the event.`);
    },

    async deleteEvent(target, remoteId, ctx) {
      const s = session(target, ctx);
      let url: string;
      try {
        url = new URL(remoteId).href;
      } catch {
        throw new ProviderError('The event’s CalDAV address is not valid.');
      }
      const res = await run(s.seen, () => deleteCalendarObject({ calendarObject: { url, data: undefined }, headers: s.headers, fetch: s.fetch }));
      await res.body?.cancel().catch(() => undefined);
      if (res.ok || res.status === 404 || res.status === 410) return {};
      if (res.status === 401) throw authFailed();
      if (res.status === 403) throw await forbidden(new URL('./', url).href, s);
      if (res.status === 405) throw new ProviderWriteDeniedError();
      throw new ProviderError(`The CalDAV server answered HTTP ${res.status} when removing the event.`);
    },
  };
}

/** The writer of 'caldav' connections (same auth message as caldavProvider). */
export const caldavWriter: EventWriter = createCaldavWriter({ authErrorMessage: CALDAV_INVALID_CREDENTIALS });
