/**
 * SQL for weekly rules and date exceptions. Deletes are soft (is_deleted = 1) so they replicate;
 * every write carries the replication stamp (`updated_at`) and the edit's `edited_at`/`device_id`.
 */
import type { Db } from '../../db/kysely.ts';
import type { AvailabilityExceptionRow, AvailabilityRuleRow } from '../../db/schema.ts';

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

/** Rows (any owner, deleted too) with these ids. */
export async function findRulesByIds(db: Db, ids: readonly string[]): Promise<AvailabilityRuleRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('availability_rules').selectAll().where('id', 'in', [...ids]).execute();
}

/** Rows (any owner, deleted too) with these ids. */
export async function findExceptionsByIds(db: Db, ids: readonly string[]): Promise<AvailabilityExceptionRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('availability_exceptions').selectAll().where('id', 'in', [...ids]).execute();
}

/** Inserts a rule row (all fields given). */
export async function insertRule(db: Db, row: AvailabilityRuleRow): Promise<void> {
  await db.insertInto('availability_rules').values(row).execute();
}

/** Overwrites the replicated fields of the user's rule `row.id`. */
export async function updateRule(db: Db, row: AvailabilityRuleRow): Promise<void> {
  await db
    .updateTable('availability_rules')
    .set({
      weekday: row.weekday,
      start_time_local: row.start_time_local,
      end_time_local: row.end_time_local,
      is_deleted: row.is_deleted,
      edited_at: row.edited_at,
      device_id: row.device_id,
      updated_at: row.updated_at,
    })
    .where('id', '=', row.id)
    .where('user_id', '=', row.user_id)
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

/** Inserts an exception row (all fields given). */
export async function insertException(db: Db, row: AvailabilityExceptionRow): Promise<void> {
  await db.insertInto('availability_exceptions').values(row).execute();
}

/** Overwrites the replicated fields of the user's exception `row.id`. */
export async function updateException(db: Db, row: AvailabilityExceptionRow): Promise<void> {
  await db
    .updateTable('availability_exceptions')
    .set({
      date: row.date,
      start_time_local: row.start_time_local,
      end_time_local: row.end_time_local,
      is_deleted: row.is_deleted,
      edited_at: row.edited_at,
      device_id: row.device_id,
      updated_at: row.updated_at,
    })
    .where('id', '=', row.id)
    .where('user_id', '=', row.user_id)
    .execute();
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
