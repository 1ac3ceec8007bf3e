/**
 * The host on the public page (issue 22 item 4): the owner's picture and one-line introduction.
 *  - `users.intro`: text shown under the name on the public page (≤ 160 characters, trimmed), null = none.
 *  - `users.avatar_version`: the current picture's version (first 16 hex digits of the sha256 of its
 *    bytes), the `v` of its public URL; null = no picture (the page shows initials).
 *  - `user_avatars`: the picture itself, one row per owner — always the server's own re-encoding
 *    (256×256 WebP, no metadata), never the uploaded bytes. Kept out of `users` so reading an account
 *    (every authenticated request) never loads it. Deleted with the account (cascade).
 * Schema builder only; the bytes column is `bytea` on PostgreSQL and `blob` on SQLite.
 */
import { PostgresAdapter, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const bytes = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
  await db.schema.alterTable('users').addColumn('intro', 'text').execute();
  await db.schema.alterTable('users').addColumn('avatar_version', 'text').execute();
  await db.schema
    .createTable('user_avatars')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('image', bytes, (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_avatars').ifExists().execute();
  await db.schema.alterTable('users').dropColumn('avatar_version').execute();
  await db.schema.alterTable('users').dropColumn('intro').execute();
}
