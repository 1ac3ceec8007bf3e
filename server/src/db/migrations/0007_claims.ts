/**
 * Uniqueness in the schema, not in timing (issue 13: several instances on one database):
 * - `calendar_connections.sync_started_at` (UTC epoch ms): when the sync that last took the lease
 *   began. A requested sync (Sync Now, a webhook) is claimed only when no sync began after the
 *   request (sync-lease.repo.ts: one compare-and-set with the lease), so two instances asked at
 *   the same moment fetch once.
 * - `push_channels`: one row per (connection_id, calendar_id), enforced by a unique index. A
 *   channel is claimed by inserting its row first (`opening_until` set: being opened, the claim
 *   runs out at that instant if its opener dies); only the instance whose insert went in asks the
 *   provider to open it. Duplicate rows left by earlier versions are dropped first (the newest of
 *   each pair is kept; the others' provider channels run out by themselves, Google ≈ 1 week,
 *   Graph ≤ 3 days).
 * Schema builder and portable SQL only: runs on SQLite and PostgreSQL.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('calendar_connections').addColumn('sync_started_at', 'bigint').execute();
  await db.schema.alterTable('push_channels').addColumn('opening_until', 'bigint').execute();
  await sql`
    delete from push_channels
    where exists (
      select 1 from push_channels newer
      where newer.connection_id = push_channels.connection_id
        and newer.calendar_id = push_channels.calendar_id
        and (newer.created_at > push_channels.created_at
             or (newer.created_at = push_channels.created_at and newer.id > push_channels.id))
    )`.execute(db);
  await db.schema
    .createIndex('push_channels_connection_calendar_uq')
    .on('push_channels')
    .columns(['connection_id', 'calendar_id'])
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('push_channels_connection_calendar_uq').ifExists().execute();
  await db.schema.alterTable('push_channels').dropColumn('opening_until').execute();
  await db.schema.alterTable('calendar_connections').dropColumn('sync_started_at').execute();
}
