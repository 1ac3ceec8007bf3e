/**
 * Busy rules per connection (issue 14 item 4): `calendar_connections.busy_rules_json`, the owner's
 * four choices as JSON (`{ all_day, tentative, unanswered, free_keywords }`, shared/src/ical/busy-rules.ts);
 * null = the semantics doc's defaults. Not replicated to devices (the owner edits them in Settings
 * over REST). Schema builder only: runs on SQLite and PostgreSQL.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('calendar_connections').addColumn('busy_rules_json', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('calendar_connections').dropColumn('busy_rules_json').execute();
}
