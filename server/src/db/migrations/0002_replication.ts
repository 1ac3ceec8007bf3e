/**
 * Replication (issue 3; RxDB HTTP replication https://rxdb.info/replication-http.html):
 * - `users.repl_clock`: the per-user monotonic stamp every replicated write takes its `updated_at` from;
 * - `edited_at` + `device_id` on rules and exceptions (conflict resolution, shared/src/rx/conflict-resolution.ts);
 * - `calendar_events.updated_at`;
 * - `replication_tombstones`: hard-deleted read-only documents (events, connections) so pulls see the delete;
 * - `replication_conflicts`: the conflict log (the loser is recorded, never silently dropped);
 * - indexes for the pull order (user_id, updated_at, id).
 * Schema builder plus portable SQL only: runs on SQLite and PostgreSQL.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('repl_clock', 'bigint', (c) => c.notNull().defaultTo(0)).execute();

  for (const table of ['availability_rules', 'availability_exceptions']) {
    await db.schema.alterTable(table).addColumn('edited_at', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable(table).addColumn('device_id', 'text', (c) => c.notNull().defaultTo('server')).execute();
    await sql`update ${sql.table(table)} set edited_at = updated_at`.execute(db);
  }
  await db.schema.alterTable('calendar_events').addColumn('updated_at', 'bigint', (c) => c.notNull().defaultTo(0)).execute();

  // Start every user's clock at the latest stamp already written, so new stamps sort after old rows.
  await sql`update users set repl_clock = updated_at`.execute(db);
  for (const table of ['availability_rules', 'availability_exceptions', 'calendar_connections']) {
    const latest = sql`(select max(t.updated_at) from ${sql.table(table)} t where t.user_id = users.id)`;
    await sql`update users set repl_clock = ${latest} where ${latest} > repl_clock`.execute(db);
  }

  await db.schema
    .createTable('replication_tombstones')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('collection', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('replication_tombstones_pk', ['user_id', 'collection', 'id'])
    .execute();
  await db.schema
    .createIndex('replication_tombstones_pull_idx')
    .on('replication_tombstones')
    .columns(['user_id', 'collection', 'updated_at', 'id'])
    .execute();

  await db.schema
    .createTable('replication_conflicts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('collection', 'text', (c) => c.notNull())
    .addColumn('doc_id', 'text', (c) => c.notNull())
    .addColumn('winner_json', 'text', (c) => c.notNull())
    .addColumn('loser_json', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('device_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('replication_conflicts_user_idx')
    .on('replication_conflicts')
    .columns(['user_id', 'created_at'])
    .execute();

  for (const table of ['availability_rules', 'availability_exceptions', 'calendar_events', 'calendar_connections']) {
    await db.schema.createIndex(`${table}_pull_idx`).on(table).columns(['user_id', 'updated_at', 'id']).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['availability_rules', 'availability_exceptions', 'calendar_events', 'calendar_connections']) {
    await db.schema.dropIndex(`${table}_pull_idx`).ifExists().execute();
  }
  await db.schema.dropTable('replication_conflicts').ifExists().execute();
  await db.schema.dropTable('replication_tombstones').ifExists().execute();
  await db.schema.alterTable('calendar_events').dropColumn('updated_at').execute();
  for (const table of ['availability_rules', 'availability_exceptions']) {
    await db.schema.alterTable(table).dropColumn('device_id').execute();
    await db.schema.alterTable(table).dropColumn('edited_at').execute();
  }
  await db.schema.alterTable('users').dropColumn('repl_clock').execute();
}
