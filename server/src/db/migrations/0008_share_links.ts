/**
 * Personal links (issue 14 item 2): `share_links`, one row per link the owner gave someone.
 *  - `token_hash`: sha256 hex of the link's token (256 random bits, base64url), unique — the only
 *    column a visitor's request is looked up by; the token itself is never stored in the clear.
 *  - `token_sealed`: the token sealed with AES-256-GCM under the server key (lib/crypto.ts), so the
 *    owner can copy the link again; never read on the visitor path.
 *  - `expires_at` (UTC epoch ms, null = never). Revoking deletes the row (and its views).
 * `share_link_views`: one row per distinct visitor per owner-zone day per link (like page_views).
 * `users.plain_link_off`: 1 = only personal links open the page; `/{username}` answers 404.
 * Schema builder only: runs on SQLite and PostgreSQL.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('share_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('token_sealed', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('share_links_user_idx').on('share_links').columns(['user_id', 'created_at']).execute();
  await db.schema
    .createTable('share_link_views')
    .addColumn('link_id', 'text', (c) => c.notNull().references('share_links.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('visitor_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('share_link_views_uq', ['link_id', 'day', 'visitor_hash'])
    .execute();
  await db.schema.alterTable('users').addColumn('plain_link_off', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('plain_link_off').execute();
  await db.schema.dropTable('share_link_views').ifExists().execute();
  await db.schema.dropTable('share_links').ifExists().execute();
}
