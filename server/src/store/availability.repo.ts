/**
 * SQL for weekly rules and date exceptions. Deletes are soft (is_deleted = 1) so they replicate;
 * every write carries the replication stamp (`updated_at`) and the edit's `edited_at`/`device_id`.
 */
import type { Db } from '../db/kysely.ts';
import type { AvailabilityExceptionRow, AvailabilityRuleRow } from '../db/schema.ts';

/** Live weekly rules of the user, by weekday (0 = Monday), start, end, id. */
export function listRules(db: Db, userId: string): Promise<AvailabilityRuleRow[]> {
  return db
    .selectFrom('availability_rules')
    .selectAll()
    .where('user_id', '=', userId)
    .where('is_deleted', '=', 0)
    .orderBy('weekday')
    .orderBy('start_time_local')
    .orderBy('end_time_local')
    .orderBy('id')
    .execute();
}

/** The two writable replicated tables: weekly rules and date exceptions. */
export type ScheduleTable = 'availability_rules' | 'availability_exceptions';
type RowOf<T extends ScheduleTable> = T extends 'availability_rules' ? AvailabilityRuleRow : AvailabilityExceptionRow;

/** Rows of `table` (any owner, deleted too) with these ids. */
export async function findScheduleRowsByIds<T extends ScheduleTable>(db: Db, table: T, ids: readonly string[]): Promise<RowOf<T>[]> {
  if (ids.length === 0) return [];
  return (await db.selectFrom(table as ScheduleTable).selectAll().where('id', 'in', [...ids]).execute()) as RowOf<T>[];
}

/**
 * Inserts `row` into `table`, or (`exists`) overwrites its replicated fields where the id AND the
 * owner match — never another user's row.
 */
export async function writeScheduleRow<T extends ScheduleTable>(db: Db, table: T, row: RowOf<T>, exists: boolean): Promise<void> {
  if (!exists) {
    await db.insertInto(table as ScheduleTable).values(row as AvailabilityRuleRow & AvailabilityExceptionRow).execute();
    return;
  }
  const { id, user_id, created_at: _created, ...fields } = row;
  await db
    .updateTable(table as ScheduleTable)
    .set(fields as Partial<AvailabilityRuleRow & AvailabilityExceptionRow>)
    .where('id', '=', id)
    .where('user_id', '=', user_id)
    .execute();
}

/** One live rule of the user, or undefined. */
export function findLiveRule(db: Db, userId: string, id: string): Promise<AvailabilityRuleRow | undefined> {
  return db
    .selectFrom('availability_rules')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('is_deleted', '=', 0)
    .executeTakeFirst();
}

/** Live exceptions of the user, by date then start time. */
export function listExceptions(db: Db, userId: string): Promise<AvailabilityExceptionRow[]> {
  return db
    .selectFrom('availability_exceptions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('is_deleted', '=', 0)
    .orderBy('date')
    .orderBy('start_time_local')
    .orderBy('id')
    .execute();
}

/** Live exceptions of the user on local dates in [fromDate, toDate] (YYYY-MM-DD, inclusive). */
export function listExceptionsBetween(db: Db, userId: string, fromDate: string, toDate: string): Promise<AvailabilityExceptionRow[]> {
  return db
    .selectFrom('availability_exceptions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('is_deleted', '=', 0)
    .where('date', '>=', fromDate)
    .where('date', '<=', toDate)
    .execute();
}

/** One live exception of the user, or undefined. */
export function findLiveException(db: Db, userId: string, id: string): Promise<AvailabilityExceptionRow | undefined> {
  return db
    .selectFrom('availability_exceptions')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('is_deleted', '=', 0)
    .executeTakeFirst();
}

/** True when the user has at least one live weekly rule. */
export async function hasAnyRule(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('availability_rules')
    .select('id')
    .where('user_id', '=', userId)
    .where('is_deleted', '=', 0)
    .limit(1)
    .executeTakeFirst();
  return !!row;
}
