/**
 * Keyed hash of a derived event's UID (issue 26 review): `calendar_events.uid` is stored sealed
 * with a random IV since 65fc865, so SQL can no longer compare it. `uid_key` = HMAC-SHA256 with the
 * server key of `uid\n<UID>` (hex; store/calendars.repo.ts eventUidKey) is written by every sync
 * and is what a confirmed meeting finds its calendar copy by (store/proposals.repo.ts
 * confirmedMeetingTimes), indexed with the owner. Rows of earlier versions (null) are keyed by the
 * start-up pass (store/calendars.repo.ts keyPlainEventUids). Schema builder only: runs on SQLite
 * and PostgreSQL.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('calendar_events').addColumn('uid_key', 'text').execute();
  await db.schema.createIndex('calendar_events_uid_key_idx').on('calendar_events').columns(['user_id', 'uid_key']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('calendar_events_uid_key_idx').execute();
  await db.schema.alterTable('calendar_events').dropColumn('uid_key').execute();
}
