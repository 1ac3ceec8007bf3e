/**
 * One adapter interface for every calendar provider that syncs by pulling calendar data
 * (ICS feeds, CalDAV, Apple iCloud). A provider only talks to the remote side: it returns which
 * raw calendar objects changed or disappeared; the sync service stores them and derives busy time
 * with the shared engine. Providers never touch the database and never log secrets or titles.
 */
import type { SafeFetch } from '../lib/safe-fetch.ts';

/** A raw calendar object we already hold (calendar_sources row). */
export interface StoredSource {
  calendarUrl: string;
  href: string;
  etag: string | null;
}

/** A new or changed raw calendar object. */
export interface SourceUpsert {
  calendarUrl: string;
  href: string;
  etag: string | null;
  icsText: string;
}

export interface ProviderSyncResult {
  /** True when the remote side reported nothing changed (HTTP 304, unchanged ctag/sync token). */
  notModified: boolean;
  upserts: SourceUpsert[];
  /** Objects that no longer exist remotely. */
  removals: Array<{ calendarUrl: string; href: string }>;
  /** Calendars that no longer exist (or no longer hold events): all their objects go. */
  removedCalendars: string[];
  /** Event calendars seen (whether or not the owner counts them as busy). */
  calendarsCount: number;
  /** Provider state to keep for the next sync (JSON-serialisable, no secrets). */
  newState: unknown;
  /** Owner addresses known to the provider (CalDAV calendar-user-address-set, login e-mail). */
  ownerEmails: string[];
  /** Suggested connection name on first connect (feed's X-WR-CALNAME, server host …). */
  suggestedName?: string;
  /**
   * The listed calendars' own display names by calendarUrl (CalDAV displayname, Google summary,
   * Graph name), for the owner's "why is this time blocked?" dialog; stored sealed, never public.
   * Absent: the names last stored are kept.
   */
  calendarNames?: Record<string, string>;
  /**
   * The listed event calendars with what the owner's calendar-selection switches need (issue 23):
   * names as the provider shows them, colour, whether we may write to it, and whether it makes
   * the owner busy by default. Absent: the list last stored is kept.
   */
  calendars?: ProviderCalendar[];
}

/** One calendar of a connection as its provider lists it. */
export interface ProviderCalendar {
  /** The calendar's key, as in calendar_sources.calendar_url (CalDAV collection URL, Google calendar id, Graph calendar id, `ics:<connection>`). */
  id: string;
  /** Display name (CalDAV displayname, Google summaryOverride/summary, Graph name). */
  name?: string;
  /** `#rrggbb` when the provider gives one (Apple calendar-color, Google backgroundColor, Graph hexColor). */
  color?: string;
  /** True when the account cannot write events to it (a subscription, a shared calendar read-only). */
  readOnly: boolean;
  /**
   * Whether it makes the owner busy until the owner says otherwise: the owner's own calendars yes;
   * subscribed holiday, birthday and other people's calendars no (Google accessRole other than
   * owner/writer, the primary always on; Graph canEdit false; CalDAV and ICS: all on).
   */
  busyByDefault: boolean;
}

/** `#rrggbb` (lower case) of a provider's colour value, or undefined when it is not one (Apple adds alpha: `#RRGGBBAA`). */
export function normalizeColor(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(value.trim());
  return m ? `#${m[1]!.toLowerCase()}` : undefined;
}

export interface ProviderSyncInput<Config> {
  config: Config;
  /** Decrypted secret (password), or null for providers without one. */
  secret: string | null;
  /** State returned by the previous successful sync, or null on first sync. */
  state: unknown;
  /** Raw objects held for this connection. */
  known: StoredSource[];
}

export interface ProviderContext {
  /** SSRF-guarded fetch (lib/safe-fetch.ts). */
  fetch: SafeFetch;
}

export interface CalendarProviderAdapter<Config = unknown> {
  readonly id: 'ics' | 'caldav' | 'apple';
  sync(input: ProviderSyncInput<Config>, ctx: ProviderContext): Promise<ProviderSyncResult>;
}

/** A provider failure whose message is safe to show to the owner (never contains secrets). */
export class ProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** The remote side refused our credentials (HTTP 401/403): the connection is 'expired'. */
export class ProviderAuthError extends ProviderError {
  constructor(message = 'The calendar server refused the saved credentials.') {
    super(message);
    this.name = 'ProviderAuthError';
  }
}
