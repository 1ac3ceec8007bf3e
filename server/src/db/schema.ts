/**
 * Kysely's `Database`: every table by name, and the row types the store and modules read. Conventions:
 * instants are epoch milliseconds (`bigint` columns, read as `number` on both dialects); booleans are
 * integers 0/1; ids are text (crypto.randomUUID()). The table interfaces live by area:
 * schema-accounts.ts (users, sign-in), schema-calendars.ts (connections, sources, events, busy time,
 * OAuth, push), schema-replication.ts (rules, exceptions, blocks, tombstones, conflicts),
 * schema-visitors.ts (page views, personal links, proposals).
 */
import type { Insertable, Selectable, Updateable } from 'kysely';
import type {
  AuthTokensTable,
  EmailChangesTable,
  EmailVerificationsTable,
  LoginThrottleTable,
  PasswordResetsTable,
  TwoFactorRecoveryCodesTable,
  TwoFactorSecretsTable,
  UserAvatarsTable,
  UsersTable,
} from './schema-accounts.ts';
import type {
  BusyIntervalsTable,
  CalendarConnectionsTable,
  CalendarEventsTable,
  CalendarSourcesTable,
  OAuthStatesTable,
  PushChannelsTable,
} from './schema-calendars.ts';
import type {
  AvailabilityExceptionsTable,
  AvailabilityRulesTable,
  BusyBlocksTable,
  ReplicationConflictsTable,
  ReplicationTombstonesTable,
} from './schema-replication.ts';
import type { PageViewsTable, ProposalsTable, ShareLinkViewsTable, ShareLinksTable } from './schema-visitors.ts';

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
export type PushChannelRow = Selectable<PushChannelsTable>;
export type OAuthStateRow = Selectable<OAuthStatesTable>;
export type ProposalRow = Selectable<ProposalsTable>;
export type BusyBlockRow = Selectable<BusyBlocksTable>;
