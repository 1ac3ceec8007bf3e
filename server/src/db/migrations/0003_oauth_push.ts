/**
 * Google and Microsoft calendars (issue 5):
 * - `oauth_states`: one row per started OAuth consent (POST /me/calendar/{provider}/connect). The
 *   state itself is never stored, only its sha256 (hex); the PKCE code verifier is AES-256-GCM
 *   encrypted (lib/crypto.ts). A row lives 10 minutes and is deleted by the callback that uses it.
 * - `push_channels`: Google `events.watch` channels / Graph subscriptions per connection and
 *   calendar. `token_hash` = sha256 (hex) of our channel token (Google X-Goog-Channel-Token,
 *   Graph clientState); the token itself is never stored.
 * - per-connection sync health on `calendar_connections`: `next_sync_at` (back-off: no sync before
 *   it), `failure_count` (consecutive failures), `sync_lease_until` + `sync_lease_owner` (a
 *   compare-and-set lease: never two syncs of one connection at once, across instances).
 * Schema builder only: runs on SQLite and PostgreSQL. Instants are UTC epoch ms (bigint).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('oauth_states')
    .addColumn('state_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('code_verifier_enc', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oauth_states_created_at_idx').on('oauth_states').column('created_at').execute();

  await db.schema
    .createTable('push_channels')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('connection_id', 'text', (c) => c.notNull().references('calendar_connections.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('channel_id', 'text', (c) => c.notNull().unique())
    .addColumn('resource_id', 'text')
    .addColumn('calendar_id', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('push_channels_connection_idx').on('push_channels').column('connection_id').execute();
  await db.schema.createIndex('push_channels_expires_idx').on('push_channels').column('expires_at').execute();

  await db.schema.alterTable('calendar_connections').addColumn('next_sync_at', 'bigint').execute();
  await db.schema.alterTable('calendar_connections').addColumn('failure_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('calendar_connections').addColumn('sync_lease_until', 'bigint').execute();
  await db.schema.alterTable('calendar_connections').addColumn('sync_lease_owner', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const col of ['sync_lease_owner', 'sync_lease_until', 'failure_count', 'next_sync_at']) {
    await db.schema.alterTable('calendar_connections').dropColumn(col).execute();
  }
  await db.schema.dropTable('push_channels').ifExists().execute();
  await db.schema.dropTable('oauth_states').ifExists().execute();
}
