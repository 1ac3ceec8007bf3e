/**
 * Sealed paths of raw calendar objects (issue 26): `calendar_sources.calendar_url` and
 * `object_href` (CalDAV collection and object paths often carry the login or the event's UID) are
 * stored sealed with the server key from now on (lib/crypto.ts sealContent); a sync finds a stored
 * object by keyed hashes instead (HMAC-SHA256 with the server key, hex):
 * - `calendar_key` = HMAC of the calendar's key (`cal\n<calendar_url>`),
 * - `object_key` = HMAC of the object (`obj\n<calendar_url>\n<object_href>`),
 * indexed with the connection. Rows of earlier versions (keys null, paths in clear) are sealed and
 * keyed by the start-up pass (store/calendars.repo.ts sealPlainSourcePaths). Schema builder only:
 * runs on SQLite and PostgreSQL.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('calendar_sources').addColumn('calendar_key', 'text').execute();
  await db.schema.alterTable('calendar_sources').addColumn('object_key', 'text').execute();
  await db.schema.createIndex('calendar_sources_object_key_idx').on('calendar_sources').columns(['connection_id', 'object_key']).execute();
  await db.schema.createIndex('calendar_sources_calendar_key_idx').on('calendar_sources').columns(['connection_id', 'calendar_key']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('calendar_sources_calendar_key_idx').execute();
  await db.schema.dropIndex('calendar_sources_object_key_idx').execute();
  await db.schema.alterTable('calendar_sources').dropColumn('object_key').execute();
  await db.schema.alterTable('calendar_sources').dropColumn('calendar_key').execute();
}
