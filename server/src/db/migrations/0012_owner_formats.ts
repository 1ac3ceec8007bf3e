/**
 * The owner's date and time format (issue 22 item 3): how the owner's own screens write dates and
 * times, stored per owner so the choice follows them to every device. The owner's texts stay English.
 *  - `users.format_locale`: BCP 47 locale of the formats ('en-US', 'de-DE'); null = the browser's own.
 *  - `users.hour12`: 1 = 12-hour clock, 0 = 24-hour; null = the locale's own.
 *  - `users.week_start`: first day of the week, 0 = Sunday … 6 = Saturday; null = automatic (the owner
 *    app starts weeks on Monday then, the spec's business constant Z-11).
 * Schema builder only (same on SQLite and PostgreSQL); existing owners get null everywhere (Automatic).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('format_locale', 'text').execute();
  await db.schema.alterTable('users').addColumn('hour12', 'integer').execute();
  await db.schema.alterTable('users').addColumn('week_start', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('week_start').execute();
  await db.schema.alterTable('users').dropColumn('hour12').execute();
  await db.schema.alterTable('users').dropColumn('format_locale').execute();
}
