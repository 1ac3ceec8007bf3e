/**
 * Password reset and visitors' proposals (issue 4):
 * - `password_resets`: one pending reset code per user (a new request replaces it). Only the
 *   HMAC-SHA256 of the code is stored (auth.service.ts `hashCode`), never the code; `expires_at`
 *   (30 minutes after the request) and `attempts` (at most 5 guesses) bound its use.
 * - `proposals`: a time a visitor proposed on the owner's public page, relayed by e-mail. Nothing
 *   is booked or reserved; the owner lists and dismisses them. `start_ms`/`end_ms` are the proposed
 *   half-open interval; name/email/note are the visitor's own words (never logged).
 * Schema builder only: runs on SQLite and PostgreSQL. Instants are UTC epoch ms (bigint).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('password_resets')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('proposals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('start_ms', 'bigint', (c) => c.notNull())
    .addColumn('end_ms', 'bigint', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('visitor_timezone', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // Set when the owner dismisses it: hidden from the list, still counted by the daily cap.
    .addColumn('dismissed_at', 'bigint')
    .execute();
  await db.schema.createIndex('proposals_user_start_idx').on('proposals').columns(['user_id', 'start_ms']).execute();
  // The per-owner daily cap counts an owner's proposals of the last 24 h.
  await db.schema.createIndex('proposals_user_created_idx').on('proposals').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('proposals').ifExists().execute();
  await db.schema.dropTable('password_resets').ifExists().execute();
}
