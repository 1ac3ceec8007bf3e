/**
 * Table interfaces of connected calendars: connections, their raw objects (sources), the expanded
 * events, the busy intervals visitors' code reads, and the OAuth consents and push channels behind them.
 * Conventions (see schema.ts): instants are epoch milliseconds (`bigint` columns, read as `number`), booleans
 * integers 0/1, ids text (crypto.randomUUID()). `Generated<T>`: a column with a database default (may be omitted on insert).
 */
import type { Generated } from 'kysely';

type CalendarProvider = 'ics' | 'caldav' | 'apple' | 'google' | 'microsoft';
type ConnectionStatus = 'active' | 'expired' | 'error';

export interface CalendarConnectionsTable {
  id: string;
  user_id: string;
  provider: CalendarProvider;
  name: string;
  status: ConnectionStatus;
  account: string | null;
  config_json: Generated<string>;
  secret_enc: string | null;
  sync_state_json: string | null;
  calendars_count: Generated<number>;
  included_calendars_count: Generated<number>;
  warnings_json: string | null;
  last_error: string | null;
  last_synced_at: number | null;
  connected_at: number;
  updated_at: number;
  /** Back-off: no scheduled/backup sync before this instant (UTC epoch ms); null = no back-off. Not replicated. */
  next_sync_at: number | null;
  /** Consecutive failed syncs (0 after a success); drives the exponential back-off. */
  failure_count: Generated<number>;
  /** Sync lease (compare-and-set): a sync runs only while it holds an unexpired lease (UTC epoch ms). */
  sync_lease_until: number | null;
  /** Instance that holds the lease (random id per process). */
  sync_lease_owner: string | null;
  /** When the sync that last took the lease began (UTC epoch ms); a requested sync is claimed only if none began after the request. */
  sync_started_at: number | null;
  /** The owner's busy rules for this connection as JSON (shared/src/ical/busy-rules.ts); null = the defaults. */
  busy_rules_json: string | null;
  /** The owner's calendar switches, sealed JSON `{ busy, reviewed_at }` (0013_calendar_selection); null = provider defaults. */
  calendar_choices: string | null;
}

/** Raw ICS per calendar object; owner-only; used to re-derive busy time. */
export interface CalendarSourcesTable {
  id: string;
  connection_id: string;
  user_id: string;
  /** Sealed (lib/crypto.ts sealContent) since 0017_sealed_text; plain in rows of earlier versions until the start-up pass. */
  calendar_url: string;
  /** Sealed like calendar_url. */
  object_href: string;
  etag: string | null;
  ics_text: string;
  updated_at: number;
  /** HMAC (server key) of the calendar's key / of the object (0017_sealed_text): what a sync looks sources up by; null = not keyed yet. */
  calendar_key: Generated<string | null>;
  object_key: Generated<string | null>;
}

/** Expanded events with titles; owner-only. */
export interface CalendarEventsTable {
  id: string;
  user_id: string;
  connection_id: string;
  uid: string;
  title: string;
  start_ms: number;
  end_ms: number;
  all_day: number;
  is_busy: number;
  depends_on_owner_zone: number;
  /** 'single' | 'recurring' | 'override' (0010_event_origin); null = derived before it was recorded. Owner-only, not replicated. */
  origin: string | null;
  /** calendar_sources.calendar_url of the object the event came from; null = unknown. Owner-only, not replicated. */
  source_calendar: string | null;
  /** Replication stamp (epoch ms); only bumped when the event's content changes. */
  updated_at: Generated<number>;
  /** HMAC (server key) of the UID (0018_event_uid_key): what a confirmed meeting finds its calendar copy by (the uid is sealed); null = not keyed yet. Not replicated. */
  uid_key: Generated<string | null>;
}

/** Busy time without titles: the only table visitors' code reads. */
export interface BusyIntervalsTable {
  id: string;
  user_id: string;
  connection_id: string;
  start_ms: number;
  end_ms: number;
  depends_on_owner_zone: number;
}

/** A started OAuth consent (10 minutes, single use). The state is stored only as its sha256. */
export interface OAuthStatesTable {
  /** sha256 hex of the `state` parameter. */
  state_hash: string;
  user_id: string;
  provider: 'google' | 'microsoft';
  /** PKCE code verifier, AES-256-GCM encrypted (lib/crypto.ts). */
  code_verifier_enc: string;
  created_at: number;
}

/** A push channel (Google watch channel / Graph subscription) of an OAuth connection. */
export interface PushChannelsTable {
  id: string;
  user_id: string;
  connection_id: string;
  provider: 'google' | 'microsoft';
  /** Google channel id / Graph subscription id; unique. */
  channel_id: string;
  /** Google resourceId (for channels.stop); null for Graph. */
  resource_id: string | null;
  calendar_id: string;
  /** sha256 hex of our channel token (X-Goog-Channel-Token / clientState). */
  token_hash: string;
  expires_at: number;
  created_at: number;
  /** Set while the channel is being opened (a claim): the claim runs out at this instant (UTC epoch ms); null = open. */
  opening_until: number | null;
}
