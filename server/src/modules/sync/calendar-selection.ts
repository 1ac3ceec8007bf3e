/**
 * Calendar selection (issue 23): which calendars of a connection make the owner busy.
 *
 * Two inputs, kept apart so a sync never overwrites the owner's choice:
 * - the calendar list the last sync saw (provider names, colour, read-only, the provider default,
 *   when each was first seen), sealed in the connection's sync state (`calendarsSealed`);
 * - the owner's switches, sealed in `calendar_connections.calendar_choices`
 *   (`{ busy: Record<calendarId, boolean>, reviewed_at }`, 0013_calendar_selection).
 *
 * A calendar counts as busy when the owner switched it on, or, never switched, when its provider
 * default says so (ProviderCalendar.busyByDefault: own calendars yes, subscribed holiday, birthday
 * and other people's calendars no). A calendar the list does not know (data stored before the
 * list existed) counts as busy: nothing ever turns busy time free by accident.
 *
 * Pure functions plus sealing; the sync service derives with `excludedCalendarIds`, the calendars
 * module serves the switches.
 */
import type { ConnectionCalendar } from '@avail/shared/schemas/calendar.schema.ts';
import type { CalendarConnectionRow } from '../../db/schema.ts';
import { openContent, sealContent } from '../../lib/crypto.ts';
import type { ProviderCalendar } from '../../providers/provider.ts';

/** A calendar as the last sync listed it. */
export interface ListedCalendar extends ProviderCalendar {
  /** When a sync first listed it (UTC epoch ms). */
  firstSeenAt: number;
}

/** The owner's switches of one connection. */
export interface CalendarChoices {
  /** Calendar id → counts as busy. Absent ids follow the provider default. */
  busy: Record<string, boolean>;
  /** When the owner last saved the switches (UTC epoch ms): calendars first seen later are "new". */
  reviewed_at: number | null;
}

/** The switches as the owner sees them in Settings → My Calendars (shared ConnectionCalendar). */
export type CalendarSwitch = ConnectionCalendar;

const EMPTY_CHOICES: CalendarChoices = { busy: {}, reviewed_at: null };

/** The owner's stored switches of `conn`; no choice (or an unreadable one) = every default. */
export function readChoices(conn: Pick<CalendarConnectionRow, 'calendar_choices'>, key: Uint8Array): CalendarChoices {
  if (!conn.calendar_choices) return EMPTY_CHOICES;
  try {
    const v = JSON.parse(openContent(conn.calendar_choices, key)) as Partial<CalendarChoices>;
    const busy: Record<string, boolean> = {};
    if (v && typeof v.busy === 'object' && v.busy) for (const [id, on] of Object.entries(v.busy)) if (typeof on === 'boolean') busy[id] = on;
    return { busy, reviewed_at: typeof v?.reviewed_at === 'number' ? v.reviewed_at : null };
  } catch {
    return EMPTY_CHOICES;
  }
}

/** `choices` sealed for `calendar_connections.calendar_choices`. */
export function sealChoices(choices: CalendarChoices, key: Uint8Array): string {
  return sealContent(JSON.stringify(choices), key);
}

/** The stored calendar list (sealed JSON), or [] when none or unreadable. */
export function openCalendarList(sealed: string | undefined, key: Uint8Array): ListedCalendar[] {
  if (!sealed) return [];
  try {
    const list = JSON.parse(openContent(sealed, key)) as unknown;
    return Array.isArray(list) ? (list.filter((c) => c && typeof c === 'object' && typeof c.id === 'string') as ListedCalendar[]) : [];
  } catch {
    return [];
  }
}

export function sealCalendarList(list: readonly ListedCalendar[], key: Uint8Array): string {
  return sealContent(JSON.stringify(list), key);
}

/**
 * The list after a sync: the provider's calendars in its order, each keeping the instant it was
 * first seen (`now` for a new one). `listed` undefined (the provider said nothing, e.g. a 304
 * from a feed): the previous list unchanged.
 */
export function mergeCalendarList(previous: readonly ListedCalendar[], listed: readonly ProviderCalendar[] | undefined, now: number): ListedCalendar[] {
  if (!listed) return [...previous];
  const seen = new Map(previous.map((c) => [c.id, c.firstSeenAt]));
  return listed.map((c) => ({ ...c, firstSeenAt: seen.get(c.id) ?? now }));
}

/** True when calendar `c` makes the owner busy under `choices`. */
export function countsAsBusy(c: Pick<ListedCalendar, 'id' | 'busyByDefault'>, choices: CalendarChoices): boolean {
  return choices.busy[c.id] ?? c.busyByDefault;
}

/** Ids of the listed calendars that do not make the owner busy (their events derive as free). */
export function excludedCalendarIds(list: readonly ListedCalendar[], choices: CalendarChoices): string[] {
  return list.filter((c) => !countsAsBusy(c, choices)).map((c) => c.id);
}

/**
 * The switches of a connection: `list` with each calendar's effective busy flag; `fallbackName`
 * names a calendar the provider gave no name (the connection's name for a feed). A calendar is new
 * when it was first seen after the first listing and after the owner last saved.
 */
export function calendarSwitches(list: readonly ListedCalendar[], choices: CalendarChoices, fallbackName: string): CalendarSwitch[] {
  const firstListing = list.reduce((min, c) => Math.min(min, c.firstSeenAt), Number.POSITIVE_INFINITY);
  return list.map((c) => ({
    id: c.id,
    name: c.name ?? fallbackName,
    ...(c.color ? { color: c.color } : {}),
    busy: countsAsBusy(c, choices),
    read_only: c.readOnly,
    new: c.firstSeenAt > firstListing && c.firstSeenAt > (choices.reviewed_at ?? 0),
  }));
}
