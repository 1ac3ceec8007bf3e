/**
 * Writing a confirmed meeting into an Outlook calendar through Microsoft Graph (issue 24;
 * EventWriter of event-writer.ts), over a MicrosoftSession (microsoft-session.ts: our Graph client
 * chain, token refresh 60 s before expiry or once after a 401, 429/503 → ProviderRateLimitError).
 *
 * - Create: `POST /me/calendars/{id}/events` (https://learn.microsoft.com/graph/api/calendar-post-events)
 *   with `{ subject, body?: { contentType: 'text', content: note }, start: { dateTime, timeZone:
 *   'UTC' }, end, attendees: [{ emailAddress: { address, name? }, type: 'required' }],
 *   transactionId: meeting.uid }` (`dateTime` = `2030-01-07T09:00:00`, UTC). `transactionId` makes
 *   a retried POST return the event already created instead of a second one. Exchange itself
 *   mails the attendee the invitation (`sendsInvitation: true`) and, on delete, the cancellation.
 *   Returns `{ remoteId: event id, uid: the event's iCalUId (Exchange assigns its own) }`.
 * - Delete: `DELETE /me/events/{id}` (https://learn.microsoft.com/graph/api/event-delete); 404 and
 *   410 succeed.
 *
 * Scope: `Calendars.ReadWrite` (microsoft-session.ts MICROSOFT_SCOPE). A grant made before issue
 * 24 holds `Calendars.Read` only: Graph answers its POST with 403 ErrorAccessDenied, as it does for
 * a calendar shared with the owner read-only (`canEdit: false`) → ProviderWriteDeniedError
 * ("Reconnect it to allow adding events…").
 *
 * Errors: ProviderAuthError (refused grant, 401 after a refresh), ProviderWriteDeniedError (any
 * 403), ProviderRateLimitError, ProviderError (the calendar is gone, other statuses, network; safe
 * text). Errors thrown after a token refresh carry `newSecret` (oauth-provider.ts `secretOfError`).
 * Never logs; no message carries a token, subject, note or address.
 */
import { CALENDAR_FETCH_TIMEOUT_MS } from '@avail/shared/constants.ts';
import type { Meeting } from '../../lib/meeting-ical.ts';
import { ProviderWriteDeniedError, type EventWriter, type WrittenEvent } from '../event-writer.ts';
import { ProviderError } from '../provider.ts';
import { MicrosoftSession, errorCodeOf, type MicrosoftProviderOptions, type SessionOptions } from './microsoft-session.ts';
import { DELTA_PAGE_SIZE } from './microsoft-sync.ts';

/**
 * Graph's `dateTime` of a UTC epoch ms value (`1893920400000` → `2030-01-07T09:00:00`), sent with
 * `timeZone: 'UTC'` (dateTimeTimeZone, https://learn.microsoft.com/graph/api/resources/datetimetimezone).
 */
function graphUtcDateTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/**
 * The `POST /me/calendars/{id}/events` body of a meeting (event resource,
 * https://learn.microsoft.com/graph/api/resources/event): subject, the note as a text body only
 * when not empty, start/end in UTC, the visitor as the one required attendee (`name` only when
 * named), `transactionId` = meeting.uid. Pure; never throws.
 */
function graphEventBody(meeting: Meeting): Record<string, unknown> {
  return {
    subject: meeting.summary,
    ...(meeting.description ? { body: { contentType: 'text', content: meeting.description } } : {}),
    start: { dateTime: graphUtcDateTime(meeting.startMs), timeZone: 'UTC' },
    end: { dateTime: graphUtcDateTime(meeting.endMs), timeZone: 'UTC' },
    attendees: [
      {
        emailAddress: { address: meeting.attendee.email, ...(meeting.attendee.name ? { name: meeting.attendee.name } : {}) },
        type: 'required',
      },
    ],
    transactionId: meeting.uid,
  };
}

/**
 * Builds the Microsoft EventWriter (`sendsInvitation: true`). `writeEvent(target, meeting, ctx)`:
 * `target.secret` = the token JSON, `target.calendarId` = the Graph calendar id; `ctx.config`
 * gives MICROSOFT_* endpoints and the client → `{ remoteId, uid?, newSecret? }`.
 * `deleteEvent(target, eventId, ctx)` → `{ newSecret? }`. `options` as createMicrosoftProvider's
 * (clock, injected fetch, per-request timeout in ms). Errors: see the module doc.
 */
function createMicrosoftWriter(options: MicrosoftProviderOptions = {}): EventWriter {
  const opts: SessionOptions = {
    now: options.now ?? Date.now,
    fetch: options.fetch,
    timeoutMs: options.timeoutMs ?? CALENDAR_FETCH_TIMEOUT_MS,
    pageSize: options.pageSize ?? DELTA_PAGE_SIZE,
  };
  const secretOnly = (s: MicrosoftSession) => {
    const newSecret = s.newSecret();
    return newSecret ? { newSecret } : {};
  };

  return {
    sendsInvitation: true,

    async writeEvent(target, meeting, ctx): Promise<WrittenEvent> {
      const s = new MicrosoftSession(ctx.config, opts, target.secret);
      try {
        const url = s.graphUrl(`/me/calendars/${encodeURIComponent(target.calendarId)}/events`);
        const res = await s.graph('POST', url, { body: graphEventBody(meeting), forbiddenIsAnswer: true });
        const body = (await res.json().catch(() => null)) as { id?: unknown; iCalUId?: unknown } | null;
        if (res.status === 403) throw new ProviderWriteDeniedError();
        if (res.status === 404) throw new ProviderError('This Outlook calendar no longer exists. Choose another calendar.');
        if (!res.ok) {
          const code = errorCodeOf(body);
          throw new ProviderError(`Microsoft Graph answered HTTP ${res.status}${code ? ` (${code})` : ''} when adding the event. Please try again.`);
        }
        if (typeof body?.id !== 'string' || !body.id) throw new ProviderError('Microsoft Graph answered without an event id.');
        const uid = typeof body.iCalUId === 'string' && body.iCalUId && body.iCalUId !== meeting.uid ? body.iCalUId : undefined;
        return { remoteId: body.id, ...(uid ? { uid } : {}), ...secretOnly(s) };
      } catch (err) {
        throw s.decorate(err);
      }
    },

    async deleteEvent(target, remoteId, ctx) {
      const s = new MicrosoftSession(ctx.config, opts, target.secret);
      try {
        const res = await s.graph('DELETE', s.graphUrl(`/me/events/${encodeURIComponent(remoteId)}`), { forbiddenIsAnswer: true });
        const body = res.status === 204 ? null : ((await res.json().catch(() => null)) as unknown);
        if (res.ok || res.status === 404 || res.status === 410) return secretOnly(s);
        if (res.status === 403) throw new ProviderWriteDeniedError();
        const code = errorCodeOf(body);
        throw new ProviderError(`Microsoft Graph answered HTTP ${res.status}${code ? ` (${code})` : ''} when removing the event. Please try again.`);
      } catch (err) {
        throw s.decorate(err);
      }
    },
  };
}

/** The writer the server registers (event-writers.ts). */
export const microsoftWriter: EventWriter = createMicrosoftWriter();
