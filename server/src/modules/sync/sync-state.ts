/**
 * What a sync keeps on a connection and reads back: the deps and outcome shapes of the sync code,
 * the stored sync state (calendar_connections.sync_state_json: provider state, owner e-mails, the
 * sealed calendar list), the owner's calendar switches as the engine needs them, the connection's
 * owner and its decrypted secret. No network, no writes: sync.service.ts and rederive.service.ts
 * build on these.
 */
import type { CalendarConnectionRow } from '../../db/schema.ts';
import type { Deps } from '../../http/deps.ts';
import { decryptSecret, openContent } from '../../lib/crypto.ts';
import type { SafeFetch } from '../../lib/safe-fetch.ts';
import { ProviderAuthError } from '../../providers/provider.ts';
import { findSyncOwner } from '../../store/users.repo.ts';
import { excludedCalendarIds, openCalendarList, readChoices, type ListedCalendar } from './calendar-selection.ts';

/** Deps of the sync code; `calendarFetch` lets tests inject a guarded fetch (e.g. a short timeout). */
export type SyncDeps = Pick<Deps, 'db' | 'config' | 'logger' | 'now' | 'oauthProviders'> & { calendarFetch?: SafeFetch };

/** What we keep in calendar_connections.sync_state_json. */
export interface StoredSyncState {
  provider: unknown;
  ownerEmails: string[];
  derivedAt: number;
  /** OAuth connections: calendars to watch with push channels. */
  calendarIds?: string[];
  /** Legacy (before issue 23): the calendars' display names (`Record<calendarUrl, name>` as JSON), sealed. Read, no longer written. */
  calendarNamesSealed?: string;
  /** The calendars the last sync listed (calendar-selection.ts ListedCalendar[] as JSON), sealed (lib/crypto.ts sealContent): owner-only. */
  calendarsSealed?: string;
}

export interface SyncOutcome {
  connectionId: string;
  ok: boolean;
  /** True when the provider reported no change. */
  notModified: boolean;
  error?: string;
  /** True when another sync of this connection held the lease (nothing was done). */
  busy?: boolean;
  /** True when the claim no longer held: the connection was already synced (in this window, or after the request). */
  skipped?: boolean;
  /** After a failure: the earliest next attempt (UTC epoch ms), null when not retried (expired). */
  nextSyncAt?: number | null;
}

/**
 * The calendars' display names kept by the last sync (`Record<calendarUrl, name>`), or an empty
 * record (none stored, or unreadable: labels then fall back to derived ones).
 */
export function calendarNamesOf(conn: Pick<CalendarConnectionRow, 'sync_state_json'>, key: Uint8Array): Record<string, string> {
  const state = readState(conn);
  const list = openCalendarList(state?.calendarsSealed, key);
  if (list.length) return Object.fromEntries(list.filter((c) => c.name).map((c) => [c.id, c.name!]));
  const sealed = state?.calendarNamesSealed;
  if (!sealed) return {};
  try {
    const names = JSON.parse(openContent(sealed, key)) as unknown;
    return names && typeof names === 'object' ? (names as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** The calendars the last sync of `conn` listed (names, colours, defaults, first seen), or [] before any. */
export function calendarListOf(conn: Pick<CalendarConnectionRow, 'sync_state_json'>, key: Uint8Array): ListedCalendar[] {
  return openCalendarList(readState(conn)?.calendarsSealed, key);
}

/**
 * What the engine needs of the owner's calendar switches for `conn` with calendar list `list`:
 * the ids to derive as free, and how many calendars count as busy (calendar-selection.ts).
 */
export function selectionOf(deps: SyncDeps, conn: Pick<CalendarConnectionRow, 'calendar_choices'>, list: readonly ListedCalendar[]) {
  const excludedCalendars = excludedCalendarIds(list, readChoices(conn, deps.config.AVAIL_SECRET_KEY));
  return { excludedCalendars, included: list.length - excludedCalendars.length };
}

/** The connection's stored sync state, or null (never synced, unreadable). */
export function readState(conn: Pick<CalendarConnectionRow, 'sync_state_json'>): StoredSyncState | null {
  if (!conn.sync_state_json) return null;
  try {
    const s = JSON.parse(conn.sync_state_json) as StoredSyncState;
    return s && typeof s === 'object' ? s : null;
  } catch {
    // Unreadable state = no state: the next sync is a full one, which rebuilds it.
    return null;
  }
}

/** The owner of a connection (zone, e-mail) as the sync reads it; throws for a connection without user. */
export async function ownerOf(deps: SyncDeps, userId: string) {
  const user = await findSyncOwner(deps.db, userId);
  if (!user) throw new Error('connection without user');
  return user;
}

/** The owner's addresses (login e-mail + the provider's), trimmed, lower-cased, without duplicates: what marks an event's organizer or attendee as the owner. */
export function ownerEmailsFor(userEmail: string, providerEmails: readonly string[]): string[] {
  return [...new Set([userEmail, ...providerEmails].map((e) => e.trim().toLowerCase()).filter(Boolean))];
}

/** Decrypted secret of a connection, or null; an unreadable secret means: reconnect (ProviderAuthError). */
export function secretOf(deps: Pick<SyncDeps, 'config'>, conn: Pick<CalendarConnectionRow, 'secret_enc'>): string | null {
  if (!conn.secret_enc) return null;
  try {
    return decryptSecret(conn.secret_enc, deps.config.AVAIL_SECRET_KEY);
  } catch {
    throw new ProviderAuthError('Saved credentials could not be read (the server key changed). Please reconnect this calendar.');
  }
}
