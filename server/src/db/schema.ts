/**
 * Kysely table interfaces. Conventions: instants are epoch milliseconds (`bigint` columns, read as
 * `number` on both dialects); booleans are integers 0/1; ids are text (crypto.randomUUID()).
 */
import type { Insertable, Selectable, Updateable } from 'kysely';

/** Columns with a database default may be omitted on insert. */
type Generated<T> = import('kysely').Generated<T>;

export interface UsersTable {
  id: string;
  name: string;
  /** Lower-cased, unique. */
  email: string;
  password_hash: string;
  timezone: Generated<string>;
  username: string | null;
  /** Lower-cased username, unique: usernames are unique case-insensitively. */
  username_lower: string | null;
  username_changed_at: number | null;
  email_verified_at: number | null;
  created_at: number;
  /** Profile document stamp (replication): from `repl_clock` on every profile write. */
  updated_at: number;
  /** Last replication stamp handed out for this user (epoch ms, strictly increasing); see store/repl-clock.repo.ts. */
  repl_clock: Generated<number>;
  /** 1 = the plain `/{username}` link is off: only personal links (share_links) open the page. */
  plain_link_off: Generated<number>;
  /** One-line introduction on the public page (≤ 160 characters, trimmed); null = none. */
  intro: Generated<string | null>;
  /** Version of the owner's picture (`user_avatars.version`), the `v` of its public URL; null = no picture. */
  avatar_version: Generated<string | null>;
  /** Locale (BCP 47) of the dates and times on the owner's screens (0012_owner_formats); null = the browser's own. */
  format_locale: Generated<string | null>;
  /** 1 = 12-hour clock, 0 = 24-hour on the owner's screens; null = the locale's own. */
  hour12: Generated<number | null>;
  /** First day of the week on the owner's screens, 0 = Sunday … 6 = Saturday; null = automatic (Monday, spec Z-11). */
  week_start: Generated<number | null>;
  /** Issue 24: the calendar confirmed meetings go to, sealed JSON `{ connection_id, calendar_id }`; null = the default. */
  proposal_target: Generated<string | null>;
  /** Issue 26: when two-factor sign-in (TOTP) was turned on (UTC ms); null = off. Secrets: two_factor_secrets. */
  two_factor_enabled_at: Generated<number | null>;
}

/** The owner's picture (issue 22): the server's 256×256 WebP re-encoding, one row per owner. */
export interface UserAvatarsTable {
  user_id: string;
  /** First 16 hex digits of the sha256 of `image`. */
  version: string;
  /** WebP bytes, 256×256 px, no metadata. */
  image: Buffer;
  /** Last upload (UTC ms). */
  updated_at: number;
}

export interface AuthTokensTable {
  id: string;
  user_id: string;
  /** sha256 hex of the bearer token; the token itself is never stored. */
  token_hash: string;
  created_at: number;
  /** Written at most once a minute (http/authenticate.ts). */
  last_used_at: number;
  /** The device, from the User-Agent at issuance ('Chrome on macOS'; 'Unknown device'); ≤ 100 chars. */
  label: Generated<string>;
}

/** A pending e-mail change (issue 26): one row per user (modules/auth/email-change.*). */
export interface EmailChangesTable {
  user_id: string;
  /** The address asked for, lower-cased. */
  new_email: string;
  /** HMAC-SHA256 hex of `user_id:code` (auth.service.ts hashCode); never the code. */
  code_hash: string;
  /** Guesses made with this code (at most 5). */
  attempts: number;
  /** UTC epoch ms; the code is refused from this instant on. */
  expires_at: number;
  /** Codes sent since `window_started_at` (UTC ms): at most 6 an hour. */
  sends: number;
  window_started_at: number;
  created_at: number;
}

export interface EmailVerificationsTable {
  user_id: string;
  code_hash: string;
  expires_at: number;
  attempts: number;
  last_sent_at: number;
  created_at: number;
}

export interface AvailabilityRulesTable {
  id: string;
  user_id: string;
  /** 0 = Monday … 6 = Sunday. */
  weekday: number;
  start_time_local: string;
  end_time_local: string;
  created_at: number;
  /** Replication stamp (epoch ms) from users.repl_clock; orders pulls. */
  updated_at: number;
  is_deleted: Generated<number>;
  /** When the edit was made (epoch ms, the editing device's clock; REST: server now). Decides conflicts. */
  edited_at: Generated<number>;
  /** Author of the edit: a device id, or 'server' for REST writes. */
  device_id: Generated<string>;
}

export interface AvailabilityExceptionsTable {
  id: string;
  user_id: string;
  /** YYYY-MM-DD in the owner's zone. */
  date: string;
  start_time_local: string | null;
  end_time_local: string | null;
  created_at: number;
  /** Replication stamp (epoch ms) from users.repl_clock; orders pulls. */
  updated_at: number;
  is_deleted: Generated<number>;
  /** When the edit was made (epoch ms, the editing device's clock; REST: server now). Decides conflicts. */
  edited_at: Generated<number>;
  /** Author of the edit: a device id, or 'server' for REST writes. */
  device_id: Generated<string>;
}

export type CalendarProvider = 'ics' | 'caldav' | 'apple' | 'google' | 'microsoft';
export type ConnectionStatus = 'active' | 'expired' | 'error';

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

export interface PageViewsTable {
  user_id: string;
  /** YYYY-MM-DD, the owner's calendar date (their zone) when the view happened. */
  day: string;
  /** sha256(secret + day + ip + user-agent); the IP is never stored. */
  visitor_hash: string;
  created_at: number;
}

/** A personal link (issue 14): a token the owner gave one person or group; see 0008_share_links. */
export interface ShareLinksTable {
  id: string;
  user_id: string;
  label: string;
  /** sha256 hex of the token; what a visitor's request is looked up by. */
  token_hash: string;
  /** The token sealed with the server key (lib/crypto.ts sealContent), for the owner's copy button. */
  token_sealed: string;
  /** UTC epoch ms; null = never expires. */
  expires_at: number | null;
  created_at: number;
}

/** One distinct visitor of a personal link on one owner-zone day. */
export interface ShareLinkViewsTable {
  link_id: string;
  day: string;
  visitor_hash: string;
  created_at: number;
}

/** A hard-deleted read-only replicated document (calendar_events, calendar_connections): pulls return it as `_deleted`. */
export interface ReplicationTombstonesTable {
  user_id: string;
  /** A CollectionName of shared/src/rx/replication-protocol.ts. */
  collection: string;
  id: string;
  updated_at: number;
}

/** Conflict log of pushes: the losing state is kept here, never silently dropped. */
export interface ReplicationConflictsTable {
  id: string;
  user_id: string;
  collection: string;
  doc_id: string;
  winner_json: string;
  loser_json: string;
  /** 'delete_wins' | 'latest_edit' | 'device_tiebreak'. */
  reason: string;
  /** device_id of the pushed (incoming) state. */
  device_id: string | null;
  created_at: number;
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

/** A pending password-reset code (one per user; a new request replaces it). Only the code's HMAC is stored. */
export interface PasswordResetsTable {
  user_id: string;
  /** HMAC-SHA256 hex of `user_id:code` (auth.service.ts hashCode); never the code. */
  code_hash: string;
  /** UTC epoch ms; the code is refused from this instant on. */
  expires_at: number;
  /** Guesses made with this code (at most 5). */
  attempts: number;
  created_at: number;
}

/** A time proposed by a visitor on the owner's public page (relayed by e-mail; nothing is booked). */
export interface ProposalsTable {
  /** crypto.randomUUID(). */
  id: string;
  /** The owner. */
  user_id: string;
  /** Proposed interval, UTC epoch ms, half-open. */
  start_ms: number;
  end_ms: number;
  /** The visitor's name, e-mail (lower-cased) and note ('' when none): never logged. */
  name: string;
  email: string;
  note: Generated<string>;
  /** The visitor's IANA zone. */
  visitor_timezone: string;
  created_at: number;
  /** UTC ms when the owner dismissed it (hidden from the list; still counted by the per-owner cap), else null. */
  dismissed_at: Generated<number | null>;
  /** Issue 24 (migration 0014): the owner's decision. */
  status: Generated<'pending' | 'confirmed' | 'declined' | 'cancelled'>;
  /** The visitor's language (en, de, fr, es, nl, pt). */
  visitor_language: Generated<string>;
  decided_at: Generated<number | null>;
  /** The owner's message of a decline or cancel ('' none). */
  message: Generated<string>;
  /** The meeting's RFC 5545 UID (set when confirmed) and SEQUENCE. */
  uid: Generated<string | null>;
  sequence: Generated<number>;
  /** Where the event was written: connection, sealed calendar id, sealed remote id (href / event id), the provider's own iCalUID (Graph), the calendar's name. */
  target_connection_id: Generated<string | null>;
  target_calendar: Generated<string | null>;
  remote_id: Generated<string | null>;
  remote_uid: Generated<string | null>;
  calendar_name: Generated<string | null>;
  /** Replication: the per-user stamp, the edit's time and author. */
  updated_at: Generated<number>;
  edited_at: Generated<number>;
  device_id: Generated<string>;
  /** A device's request (also made offline), carried out by the server; its failure reason. */
  request_action: Generated<'confirm' | 'decline' | 'cancel' | null>;
  request_message: Generated<string | null>;
  request_connection_id: Generated<string | null>;
  request_calendar_id: Generated<string | null>;
  request_error: Generated<string | null>;
  /** When an instance took the request to carry it out (others leave it alone for 5 minutes). */
  request_claimed_at: Generated<number | null>;
  /** When one of the e-mail's one-click links was used (both are spent). */
  link_used_at: Generated<number | null>;
  /** The personal link (share_links.id) the visitor proposed through; null = the plain link. */
  share_link_id: Generated<string | null>;
}

/** A time the owner marked busy by hand (issue 10); replicated (writable) like rules and exceptions. */
export interface BusyBlocksTable {
  /** crypto.randomUUID() (or the device's id for blocks made offline). */
  id: string;
  user_id: string;
  /** Busy interval [start_ms, end_ms), UTC epoch ms; end > start, at most 14 days. */
  start_ms: number;
  end_ms: number;
  /** The owner's note (≤ 200 characters), null = none. Owner-only: never in a public answer. */
  note: string | null;
  /** When the edit was made (epoch ms, the editing device's clock; REST: server now). Decides conflicts. */
  edited_at: number;
  /** Author of the edit: a device id, or 'server' for REST writes. */
  device_id: string;
  /** Replication stamp (epoch ms) from users.repl_clock; orders pulls. */
  updated_at: number;
  /** 1 = deleted (kept so the delete replicates). */
  is_deleted: Generated<number>;
}

/** Two-factor sign-in (issue 26, migration 0016): one row per owner who started a setup or has it on. */
export interface TwoFactorSecretsTable {
  user_id: string;
  /** The active TOTP secret (base32), sealed (lib/crypto.ts sealContent); null while only a setup is pending. */
  secret: string | null;
  /** The secret shown by the last setup, not yet confirmed by a code, sealed; null = none. */
  pending_secret: string | null;
  /** RFC 6238 time step (T = floor(unix s / 30)) of the last accepted code; codes of this step or earlier are refused. */
  last_step: number | null;
  updated_at: number;
}

/** Two-factor recovery codes (issue 26): 10 per owner, only an HMAC of each; each works once. */
export interface TwoFactorRecoveryCodesTable {
  id: string;
  user_id: string;
  /** HMAC-SHA256 (AVAIL_SECRET_KEY) hex of `user_id:` + the code upper-cased without spaces and dashes. */
  code_hash: string;
  /** UTC ms when spent; null = unused. */
  used_at: number | null;
  created_at: number;
}

/** Consecutive failed passwords per e-mail key (issue 12): the per-account login throttle. */
export interface LoginThrottleTable {
  /** HMAC-SHA256 (AVAIL_SECRET_KEY) of the lower-cased, trimmed e-mail, hex. Accounts or not. */
  key_hash: string;
  /** Wrong passwords in a row (reset by a right one or a password reset). */
  failures: number;
  /** UTC ms before which every attempt is refused (429); null = not locked. */
  locked_until: number | null;
  /** The `locked_until` the owner was e-mailed about (one e-mail per lock); null = none. */
  notified_lock_at: number | null;
  /** Last change (UTC ms); rows untouched for a day are purged. */
  updated_at: number;
}

export interface Database {
  users: UsersTable;
  auth_tokens: AuthTokensTable;
  email_verifications: EmailVerificationsTable;
  email_changes: EmailChangesTable;
  availability_rules: AvailabilityRulesTable;
  availability_exceptions: AvailabilityExceptionsTable;
  calendar_connections: CalendarConnectionsTable;
  calendar_sources: CalendarSourcesTable;
  calendar_events: CalendarEventsTable;
  busy_intervals: BusyIntervalsTable;
  page_views: PageViewsTable;
  replication_tombstones: ReplicationTombstonesTable;
  replication_conflicts: ReplicationConflictsTable;
  oauth_states: OAuthStatesTable;
  push_channels: PushChannelsTable;
  password_resets: PasswordResetsTable;
  proposals: ProposalsTable;
  busy_blocks: BusyBlocksTable;
  login_throttle: LoginThrottleTable;
  share_links: ShareLinksTable;
  share_link_views: ShareLinkViewsTable;
  user_avatars: UserAvatarsTable;
  two_factor_secrets: TwoFactorSecretsTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
}

export type UserRow = Selectable<UsersTable>;
export type ShareLinkRow = Selectable<ShareLinksTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type AvailabilityRuleRow = Selectable<AvailabilityRulesTable>;
export type AvailabilityExceptionRow = Selectable<AvailabilityExceptionsTable>;
export type CalendarConnectionRow = Selectable<CalendarConnectionsTable>;
export type CalendarEventRow = Selectable<CalendarEventsTable>;
export type BusyIntervalRow = Selectable<BusyIntervalsTable>;
export type PushChannelRow = Selectable<PushChannelsTable>;
export type OAuthStateRow = Selectable<OAuthStatesTable>;
export type PasswordResetRow = Selectable<PasswordResetsTable>;
export type ProposalRow = Selectable<ProposalsTable>;
export type BusyBlockRow = Selectable<BusyBlocksTable>;
