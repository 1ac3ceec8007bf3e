/**
 * Initial schema. Instants are epoch ms in `bigint` columns, booleans integer 0/1, ids text.
 * Written with Kysely's schema builder only, so it runs on SQLite and PostgreSQL alike.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull().defaultTo('Europe/Brussels'))
    .addColumn('username', 'text')
    .addColumn('username_lower', 'text', (c) => c.unique())
    .addColumn('username_changed_at', 'bigint')
    .addColumn('email_verified_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('auth_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('auth_tokens_user_id_idx').on('auth_tokens').column('user_id').execute();

  await db.schema
    .createTable('email_verifications')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_sent_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('availability_rules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('weekday', 'integer', (c) => c.notNull())
    .addColumn('start_time_local', 'text', (c) => c.notNull())
    .addColumn('end_time_local', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('is_deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('availability_rules_user_id_idx').on('availability_rules').column('user_id').execute();

  await db.schema
    .createTable('availability_exceptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('start_time_local', 'text')
    .addColumn('end_time_local', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('is_deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('availability_exceptions_user_date_idx')
    .on('availability_exceptions')
    .columns(['user_id', 'date'])
    .execute();

  await db.schema
    .createTable('calendar_connections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('account', 'text')
    .addColumn('config_json', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('secret_enc', 'text')
    .addColumn('sync_state_json', 'text')
    .addColumn('calendars_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('included_calendars_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('warnings_json', 'text')
    .addColumn('last_error', 'text')
    .addColumn('last_synced_at', 'bigint')
    .addColumn('connected_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('calendar_connections_user_id_idx').on('calendar_connections').column('user_id').execute();

  await db.schema
    .createTable('calendar_sources')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('connection_id', 'text', (c) => c.notNull().references('calendar_connections.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('calendar_url', 'text', (c) => c.notNull())
    .addColumn('object_href', 'text', (c) => c.notNull())
    .addColumn('etag', 'text')
    .addColumn('ics_text', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('calendar_sources_connection_id_idx').on('calendar_sources').column('connection_id').execute();

  await db.schema
    .createTable('calendar_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('connection_id', 'text', (c) => c.notNull().references('calendar_connections.id').onDelete('cascade'))
    .addColumn('uid', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('start_ms', 'bigint', (c) => c.notNull())
    .addColumn('end_ms', 'bigint', (c) => c.notNull())
    .addColumn('all_day', 'integer', (c) => c.notNull())
    .addColumn('is_busy', 'integer', (c) => c.notNull())
    .addColumn('depends_on_owner_zone', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('calendar_events_user_start_idx')
    .on('calendar_events')
    .columns(['user_id', 'start_ms'])
    .execute();

  await db.schema
    .createTable('busy_intervals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('connection_id', 'text', (c) => c.notNull().references('calendar_connections.id').onDelete('cascade'))
    .addColumn('start_ms', 'bigint', (c) => c.notNull())
    .addColumn('end_ms', 'bigint', (c) => c.notNull())
    .addColumn('depends_on_owner_zone', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('busy_intervals_user_start_idx')
    .on('busy_intervals')
    .columns(['user_id', 'start_ms'])
    .execute();

  await db.schema
    .createTable('page_views')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('visitor_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('page_views_user_day_visitor_unique', ['user_id', 'day', 'visitor_hash'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'page_views',
    'busy_intervals',
    'calendar_events',
    'calendar_sources',
    'calendar_connections',
    'availability_exceptions',
    'availability_rules',
    'email_verifications',
    'auth_tokens',
    'users',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
