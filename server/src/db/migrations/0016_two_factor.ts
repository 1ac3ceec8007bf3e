/**
 * Two-factor sign-in (issue 26; TOTP, RFC 6238; docs/account-security.md "Two-factor sign-in").
 *
 * - `users.two_factor_enabled_at` (UTC ms; null = off): the only 2FA column on `users`, so every
 *   `user` answer can say `two_factor_enabled` without reading secrets.
 * - `two_factor_secrets`: one row per owner who started a setup or has two-factor on.
 *   `secret` (the active TOTP secret, base32) and `pending_secret` (the one shown by setup, not yet
 *   confirmed) are sealed (lib/crypto.ts sealContent: AES-256-GCM with the server key), never in
 *   clear; `last_step` is the RFC 6238 time step (T, 30 s) of the last accepted code: a code of that
 *   step or an earlier one is refused (replay, RFC 6238 §5.2).
 * - `two_factor_recovery_codes`: 10 per owner, only an HMAC-SHA256 (server key) of the normalised
 *   code; `used_at` (UTC ms) set when spent (each works once).
 * Schema builder only: runs on SQLite and PostgreSQL.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('two_factor_enabled_at', 'bigint').execute();
  await db.schema
    .createTable('two_factor_secrets')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret', 'text')
    .addColumn('pending_secret', 'text')
    .addColumn('last_step', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('two_factor_recovery_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('two_factor_recovery_codes_user_idx').on('two_factor_recovery_codes').columns(['user_id', 'code_hash']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('two_factor_recovery_codes').ifExists().execute();
  await db.schema.dropTable('two_factor_secrets').ifExists().execute();
  await db.schema.alterTable('users').dropColumn('two_factor_enabled_at').execute();
}
