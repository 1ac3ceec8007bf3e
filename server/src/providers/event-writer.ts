/**
 * Writing a confirmed meeting into the owner's calendar (issue 24): one interface for every
 * provider that can write (CalDAV and Apple iCloud, Google Calendar, Microsoft Graph; an ICS feed
 * cannot). The proposals service builds the meeting; an adapter only talks to the remote side.
 *
 * - CalDAV (RFC 4791 §5.3.2): `PUT {calendarUrl}{uid-derived name}.ics` with `If-None-Match: *`,
 *   the VCALENDAR of `meetingCalendar(meeting, null)` (lib/meeting-ical.ts; ATTENDEE with
 *   SCHEDULE-AGENT=CLIENT so a scheduling server sends no second invitation); delete = `DELETE`
 *   of that href. Through tsdav (createCalendarObject / deleteCalendarObject).
 * - Google: `events.insert` (https://developers.google.com/calendar/api/v3/reference/events/insert)
 *   with `iCalUID` = the meeting's UID, `sendUpdates: 'none'` (Avail sends the iMIP itself),
 *   organizer is the calendar's owner, `attendees: [{ email, displayName, responseStatus: 'needsAction' }]`,
 *   description = the visitor's note; delete = `events.delete` with `sendUpdates: 'none'`.
 * - Microsoft Graph: `POST /me/calendars/{id}/events`
 *   (https://learn.microsoft.com/graph/api/calendar-post-events) with the attendee (`type: required`),
 *   `body` = the note (text), start/end in UTC; Exchange sends its own invitation, so the service
 *   sends no iMIP for this provider (`sendsInvitation: true`); the event's `iCalUId` comes back as
 *   `uid`. Delete = `DELETE /me/events/{id}` (Exchange sends the attendee its cancellation).
 *
 * Errors: ProviderAuthError (token or password refused: the connection is expired),
 * ProviderWriteDeniedError (the calendar or the granted scope does not allow writing: the owner
 * must reconnect or choose another calendar), ProviderError (anything else, a safe message).
 * A delete of an event the provider no longer has (404/410) succeeds.
 */
import type { Meeting } from '../lib/meeting-ical.ts';
import { ProviderError } from './provider.ts';

/** What the adapter needs of the connection (decrypted). */
export interface WriteTarget {
  /** The connection's config (CalDAV: `{ serverUrl, username }`; OAuth providers: `{}`). */
  config: Record<string, unknown>;
  /** Decrypted secret: the CalDAV password, or the OAuth token JSON. */
  secret: string | null;
  /** The calendar's id as in calendar_sources.calendar_url (CalDAV collection URL, Google calendar id, Graph calendar id). */
  calendarId: string;
}

export interface WrittenEvent {
  /** What `deleteEvent` needs to find the event again: CalDAV href (absolute URL), Google event id, Graph event id. */
  remoteId: string;
  /** The provider's own iCalendar UID when it differs from the meeting's (Graph assigns one), else undefined. */
  uid?: string;
  /** Refreshed OAuth token JSON to store encrypted (OAuth providers), when it changed. */
  newSecret?: string;
}

export interface EventWriter {
  /** True when the provider mails the attendee the invitation and cancellation itself (Microsoft Graph). */
  readonly sendsInvitation: boolean;
  /** Creates the meeting. @throws ProviderAuthError | ProviderWriteDeniedError | ProviderError. */
  writeEvent(target: WriteTarget, meeting: Meeting, ctx: EventWriterContext): Promise<WrittenEvent>;
  /** Removes it; an event already gone succeeds. @returns refreshed token JSON when it changed. */
  deleteEvent(target: WriteTarget, remoteId: string, ctx: EventWriterContext): Promise<{ newSecret?: string }>;
}

export interface EventWriterContext {
  /** Server config (OAuth client ids, the fakes' base URLs in tests). */
  config: import('../config.ts').Config;
  /** SSRF-guarded fetch (lib/safe-fetch.ts) for CalDAV servers the owner typed in. */
  fetch: import('../lib/safe-fetch.ts').SafeFetch;
}

/** The calendar refused the write (read-only calendar, or a token granted without the write scope). */
export class ProviderWriteDeniedError extends ProviderError {
  constructor(message = 'This calendar does not let Avail add events. Reconnect it to allow adding events, or choose another calendar.') {
    super(message);
    this.name = 'ProviderWriteDeniedError';
  }
}
