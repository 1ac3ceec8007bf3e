/**
 * Manual busy blocks (issue 10): `busy_blocks`, a writable replicated collection like the weekly
 * rules and exceptions (0002_replication): soft deletes (`is_deleted`) so deletes replicate, the
 * replication stamp `updated_at` (users.repl_clock) and the edit's `edited_at`/`device_id` (conflict
 * rule). `[start_ms, end_ms)` is the busy interval, UTC epoch ms (bigint), at most 14 days;
 * `note` is the owner's own words (null = none), never shown to visitors.
 * Indexes: (user_id, start_ms) for the public free-window lookup and the owner's list;
 * (user_id, updated_at, id) for the pull order.
 * Schema builder only: runs on SQLite and PostgreSQL.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('busy_blocks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('start_ms', 'bigint', (c) => c.notNull())
    .addColumn('end_ms', 'bigint', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('edited_at', 'bigint', (c) => c.notNull())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('is_deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('busy_blocks_user_start_idx').on('busy_blocks').columns(['user_id', 'start_ms']).execute();
  await db.schema.createIndex('busy_blocks_pull_idx').on('busy_blocks').columns(['user_id', 'updated_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('busy_blocks').ifExists().execute();
}
