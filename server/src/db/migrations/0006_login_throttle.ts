/**
 * Per-account login throttle (issue 12): one row per e-mail key that has failed a password
 * recently. `key_hash` is an HMAC of the lower-cased e-mail (so unknown addresses are throttled
 * exactly like accounts: no hint which exist, and no address stored in clear); `failures` counts
 * consecutive wrong passwords; `locked_until` (UTC ms) refuses every attempt before it;
 * `notified_lock_at` is the `locked_until` the owner was last e-mailed about (one e-mail per lock).
 * Schema builder only: runs on SQLite and PostgreSQL.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('login_throttle')
    .addColumn('key_hash', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('locked_until', 'bigint')
    .addColumn('notified_lock_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_throttle_updated_idx').on('login_throttle').column('updated_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('login_throttle').ifExists().execute();
}
