/**
 * The owner's calendar calls (product spec §7): connections (ICS, CalDAV, Apple, Google,
 * Microsoft), their calendars and busy rules, Sync Now and the synced events. Part of `api`
 * (`api-client.ts`).
 */
import { get, post, put, del } from './api-transport.ts';
import type { CalendarConnection, CalendarEvent, SyncNowResponse } from './api-shapes.ts';
import type { BusyRules } from '../ical/busy-rules.ts';
import type { ConnectionCalendar, EventSource } from '../schemas/calendar.schema.ts';

export const calendarCalls = {
  connections: () => get<{ connections: CalendarConnection[] }>('/me/calendar/connections'),
  /** GET /me/calendar/events/{id}/source: "why is this time blocked?" (owner-only); 404 when gone. */
  eventSource: (id: string | number) => get<EventSource>(`/me/calendar/events/${encodeURIComponent(String(id))}/source`),
  /** PUT /me/calendar/connections/{id}/busy-rules: 200 `{ connection }` re-derived; 422 `errors`; 404. */
  setBusyRules: (id: string, rules: BusyRules) => put<{ connection: CalendarConnection }>(`/me/calendar/connections/${encodeURIComponent(id)}/busy-rules`, rules),
  /** GET /me/calendar/connections/{id}/calendars: the connection's calendars with their busy switches (issue 23); 404. */
  connectionCalendars: (id: string | number) =>
    get<{ calendars: ConnectionCalendar[] }>(`/me/calendar/connections/${encodeURIComponent(String(id))}/calendars`),
  /** PUT /me/calendar/connections/{id}/calendars: 200 `{ calendars, connection }` re-derived (the public page follows at once); 422 `errors`; 404. */
  setConnectionCalendars: (id: string | number, calendars: Array<{ id: string; busy: boolean }>) =>
    put<{ calendars: ConnectionCalendar[]; connection: CalendarConnection }>(`/me/calendar/connections/${encodeURIComponent(String(id))}/calendars`, { calendars }),
  connectIcs: (url: string) => post<{ connection?: CalendarConnection }>('/me/calendar/ics/connect', { url }),
  connectCaldav: (body: { server_url: string; username: string; password: string }) =>
    post<{ connection?: CalendarConnection }>('/me/calendar/caldav/connect', body),
  connectApple: (body: { apple_id: string; app_specific_password: string }) =>
    post<{ connection?: CalendarConnection }>('/me/calendar/apple/connect', body),
  /** DELETE /me/calendar/connections/{id}: ICS feeds and CalDAV servers (several per owner). */
  disconnect: (id: string | number) => del<unknown>(`/me/calendar/connections/${encodeURIComponent(String(id))}`),
  /** DELETE /me/calendar/{google|microsoft|apple}/disconnect (spec §7; one connection per provider). */
  disconnectProvider: (provider: 'google' | 'microsoft' | 'apple') => del<unknown>(`/me/calendar/${provider}/disconnect`),
  /** POST /me/calendar/sync (Sync Now): `success` only when every connection synced; `results` name each failure and why. */
  sync: () => post<SyncNowResponse>('/me/calendar/sync'),
  events: (start_date: string, end_date: string) =>
    get<{ events: CalendarEvent[] }>('/me/calendar/events', { query: { start_date, end_date } }),
};
