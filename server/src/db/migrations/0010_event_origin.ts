/**
 * "Why is this time blocked?" (issue 14 item 6): each derived event remembers where it came from.
 *  - `calendar_events.origin`: 'single' | 'recurring' (an RRULE/RDATE instance) | 'override' (a
 *    RECURRENCE-ID instance); null for rows derived before this column existed (until their next sync).
 *  - `calendar_events.source_calendar`: the calendar_sources.calendar_url of the object it came from.
 * Owner-only, never read by visitors' code, not replicated (the device's events stay as they were).
 * Schema builder only: runs on SQLite and PostgreSQL.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('calendar_events').addColumn('origin', 'text').execute();
  await db.schema.alterTable('calendar_events').addColumn('source_calendar', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('calendar_events').dropColumn('source_calendar').execute();
  await db.schema.alterTable('calendar_events').dropColumn('origin').execute();
}
