/**
 * Sessions, and e-mail change while signed in (issue 26; docs/account-security.md).
 *
 * - `auth_tokens.label`: the device a token was issued to, derived from the User-Agent at sign-in
 *   ("Chrome on macOS", "Avail desktop on Linux"; http/session-label.ts), at most 100
 *   characters, never the raw header. Tokens issued before this migration read 'Unknown device'.
 *   Index on `last_used_at` for the purge of idle sessions.
 * - `email_changes`: at most one pending change per user (`user_id` primary key): the new address,
 *   the HMAC of its 6-digit code (never the code), guesses made (`attempts`), `expires_at` (UTC ms),
 *   and the hourly budget of codes (`sends` since `window_started_at`, UTC ms).
 * Schema builder only: runs on SQLite and PostgreSQL.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('auth_tokens')
    .addColumn('label', 'text', (c) => c.notNull().defaultTo('Unknown device'))
    .execute();
  await db.schema.createIndex('auth_tokens_last_used_idx').on('auth_tokens').column('last_used_at').execute();
  await db.schema
    .createTable('email_changes')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('new_email', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('sends', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('window_started_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('email_changes_expires_idx').on('email_changes').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('email_changes').ifExists().execute();
  await db.schema.dropIndex('auth_tokens_last_used_idx').ifExists().execute();
  await db.schema.alterTable('auth_tokens').dropColumn('label').execute();
}
