/**
 * Calendar selection (issue 23): `calendar_connections.calendar_choices`, the owner's switches —
 * which of a connection's calendars make them busy — sealed with the server key (lib/crypto.ts
 * sealContent; calendar ids are often e-mail addresses) as JSON
 * `{ busy: Record<calendarId, boolean>, reviewed_at: number | null }` (see
 * modules/calendars/calendar-selection.ts). null = nothing chosen yet: every calendar follows its
 * provider default. Not replicated (the owner edits them in Settings over REST). Schema builder
 * only: runs on SQLite and PostgreSQL.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('calendar_connections').addColumn('calendar_choices', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('calendar_connections').dropColumn('calendar_choices').execute();
}
