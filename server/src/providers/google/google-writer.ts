/**
 * Writing a confirmed meeting into a Google calendar (issue 24; EventWriter of event-writer.ts),
 * through the connection's GoogleSession (google-session.ts: `@googleapis/calendar`, retries off,
 * token refresh 60 s before expiry or once after a 401, `newSecret` when the tokens changed).
 *
 * - Create: `events.insert` (https://developers.google.com/calendar/api/v3/reference/events/insert)
 *   on the calendar id with `sendUpdates: 'none'` (Avail mails the iMIP invitation itself) and
 *   `{ iCalUID, summary, description?, start: { dateTime }, end: { dateTime }, attendees: [{ email,
 *   displayName?, responseStatus: 'needsAction' }], sequence }`; times are UTC instants
 *   (`2030-01-07T09:00:00Z`, RFC 3339). The organizer is the calendar's owner (Google sets it).
 *   A 409 `duplicate` (this iCalUID is already on the calendar: a retried write) is answered by
 *   finding that event with `events.list?iCalUID=` and returning it when it is not cancelled.
 * - Delete: `events.delete` (https://developers.google.com/calendar/api/v3/reference/events/delete)
 *   with `sendUpdates: 'none'`; 404 and 410 (already deleted) succeed.
 *
 * Scopes: the consent asks for `calendar.readonly` + `calendar.events` (google-session.ts
 * GOOGLE_SCOPES). Connections made before issue 24 hold a read-only grant: Google answers their
 * insert with 403 `insufficientPermissions`, which becomes ProviderWriteDeniedError ("Reconnect it
 * to allow adding events…"); a calendar the account may only read (accessRole reader,
 * freeBusyReader) answers 403 `requiredAccessLevel` / `forbidden`, the same error.
 *
 * Errors: ProviderAuthError (grant revoked, no refresh token, 401 after a refresh),
 * ProviderWriteDeniedError (above), ProviderRateLimitError (429/503/403 rate limits), ProviderError
 * (anything else; safe text). An error thrown after a token refresh carries the refreshed JSON as
 * `newSecret` (read it with oauth-provider.ts `secretOfError`). Never logs.
 */
import type { calendar_v3 } from '@googleapis/calendar';
import type { Meeting } from '../../lib/meeting-ical.ts';
import { ProviderWriteDeniedError, type EventWriter, type WrittenEvent } from '../event-writer.ts';
import { withSecret } from '../oauth-provider.ts';
import { ProviderError } from '../provider.ts';
import { GoogleHttpError, GoogleSession, type Clock } from './google-session.ts';

/** 403 reasons meaning "this grant or this calendar does not allow writing". */
const WRITE_DENIED_REASONS = new Set(['insufficientPermissions', 'forbidden', 'requiredAccessLevel', 'ACCESS_TOKEN_SCOPE_INSUFFICIENT']);

/**
 * The RFC 3339 UTC instant of a UTC epoch ms value, without a zero millisecond part
 * (`1893920400000` → `2030-01-07T09:00:00Z`): the `dateTime` form of Google's EventDateTime
 * (https://developers.google.com/calendar/api/v3/reference/events#resource; no `timeZone` needed).
 */
function googleUtc(ms: number): string {
  return new Date(ms).toISOString().replace(/\.000Z$/, 'Z');
}

/**
 * The events.insert request body of a meeting (Events resource,
 * https://developers.google.com/calendar/api/v3/reference/events#resource): iCalUID = meeting.uid,
 * summary, description only when the note is not empty, start/end as UTC instants, the visitor as
 * the one attendee (`displayName` only when named, `responseStatus: 'needsAction'`), sequence.
 * Pure; never throws.
 */
function googleEventBody(meeting: Meeting): calendar_v3.Schema$Event {
  return {
    iCalUID: meeting.uid,
    summary: meeting.summary,
    ...(meeting.description ? { description: meeting.description } : {}),
    start: { dateTime: googleUtc(meeting.startMs) },
    end: { dateTime: googleUtc(meeting.endMs) },
    attendees: [
      {
        email: meeting.attendee.email,
        ...(meeting.attendee.name ? { displayName: meeting.attendee.name } : {}),
        responseStatus: 'needsAction',
      },
    ],
    sequence: meeting.sequence,
  };
}

/** Maps a failed write/delete: 403 write reasons → ProviderWriteDeniedError, 404 → gone, else a safe ProviderError. */
function writeFailure(err: unknown, what: 'add' | 'remove'): unknown {
  if (!(err instanceof GoogleHttpError)) return err; // ProviderError kinds from the session pass as they are
  if (err.status === 403 && err.reasons.some((r) => WRITE_DENIED_REASONS.has(r))) return new ProviderWriteDeniedError();
  if (err.status === 404 && what === 'add') return new ProviderError('This Google calendar no longer exists. Choose another calendar.');
  return new ProviderError(`Google Calendar could not ${what} the event (HTTP ${err.status}). Please try again.`);
}

/** Options of {@link createGoogleWriter}. */
export interface GoogleWriterOptions {
  /** Clock (UTC epoch ms) for token expiry; default Date.now. */
  now?: Clock;
}

/**
 * Builds the Google EventWriter (`sendsInvitation: false`). `writeEvent(target, meeting, ctx)`:
 * `target.secret` = the OAuth token JSON, `target.calendarId` = the Google calendar id; uses
 * `ctx.config` (GOOGLE_* endpoints and client) → `{ remoteId: event id, newSecret? }`.
 * `deleteEvent(target, eventId, ctx)` → `{ newSecret? }`. Errors: see the module doc.
 */
export function createGoogleWriter(options: GoogleWriterOptions = {}): EventWriter {
  const now = options.now ?? Date.now;
  const secretOnly = (s: GoogleSession) => (s.newSecret ? { newSecret: s.newSecret } : {});

  return {
    sendsInvitation: false,

    async writeEvent(target, meeting, ctx): Promise<WrittenEvent> {
      const session = new GoogleSession(ctx.config, target.secret, now);
      const calendarId = target.calendarId;
      try {
        let created: calendar_v3.Schema$Event | null;
        try {
          created = await session.call((api) => api.events.insert({ calendarId, sendUpdates: 'none', requestBody: googleEventBody(meeting) }));
        } catch (err) {
          if (!(err instanceof GoogleHttpError && err.status === 409)) throw err;
          // The iCalUID is already there: our own earlier write whose answer was lost.
          const found = await session.call((api) => api.events.list({ calendarId, iCalUID: meeting.uid, showDeleted: false, maxResults: 5 }));
          created = (found?.items ?? []).find((e) => e.iCalUID === meeting.uid && e.status !== 'cancelled') ?? null;
          if (!created) throw new ProviderError('Google Calendar already holds a deleted copy of this meeting. Please try again later.');
        }
        if (!created?.id) throw new ProviderError('Google Calendar answered without an event id.');
        return { remoteId: created.id, ...secretOnly(session) };
      } catch (err) {
        throw withSecret(writeFailure(err, 'add'), session.newSecret);
      }
    },

    async deleteEvent(target, remoteId, ctx) {
      const session = new GoogleSession(ctx.config, target.secret, now);
      try {
        await session.call((api) => api.events.delete({ calendarId: target.calendarId, eventId: remoteId, sendUpdates: 'none' }));
      } catch (err) {
        const gone = err instanceof GoogleHttpError && (err.status === 404 || err.status === 410);
        if (!gone) throw withSecret(writeFailure(err, 'remove'), session.newSecret);
      }
      return secretOnly(session);
    },
  };
}

/** The writer the server registers (event-writers.ts). */
export const googleWriter: EventWriter = createGoogleWriter();
