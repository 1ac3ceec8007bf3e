/** SQL for weekly rules and date exceptions. Deletes are soft (is_deleted = 1, updated_at bumped) for replication. */
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

/** Inserts the rules (already validated) with new ids; returns the inserted rows. `now` is epoch ms. */
export async function insertRules(
  db: Db,
  userId: string,
  rules: ReadonlyArray<{ weekday: number; start_time_local: string; end_time_local: string }>,
  now: number,
): Promise<AvailabilityRuleRow[]> {
  if (rules.length === 0) return [];
  const rows: AvailabilityRuleRow[] = rules.map((r) => ({
    id: crypto.randomUUID(),
    user_id: userId,
    weekday: r.weekday,
    start_time_local: r.start_time_local,
    end_time_local: r.end_time_local,
    created_at: now,
    updated_at: now,
    is_deleted: 0,
  }));
  await db.insertInto('availability_rules').values(rows).execute();
  return rows;
}

/** Soft-deletes every live rule of the user. */
export async function softDeleteAllRules(db: Db, userId: string, now: number): Promise<void> {
  await db
    .updateTable('availability_rules')
    .set({ is_deleted: 1, updated_at: now })
    .where('user_id', '=', userId)
    .where('is_deleted', '=', 0)
    .execute();
}

/** Soft-deletes one live rule of the user; false when there is none with that id. */
export async function softDeleteRule(db: Db, userId: string, id: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable('availability_rules')
    .set({ is_deleted: 1, updated_at: now })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('is_deleted', '=', 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
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

/** Inserts one exception (already validated) with a new id; returns the row. `now` is epoch ms. */
export async function insertException(
  db: Db,
  userId: string,
  e: { date: string; start_time_local: string | null; end_time_local: string | null },
  now: number,
): Promise<AvailabilityExceptionRow> {
  const row: AvailabilityExceptionRow = {
    id: crypto.randomUUID(),
    user_id: userId,
    date: e.date,
    start_time_local: e.start_time_local,
    end_time_local: e.end_time_local,
    created_at: now,
    updated_at: now,
    is_deleted: 0,
  };
  await db.insertInto('availability_exceptions').values(row).execute();
  return row;
}

/** Soft-deletes one live exception of the user; false when there is none with that id. */
export async function softDeleteException(db: Db, userId: string, id: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable('availability_exceptions')
    .set({ is_deleted: 1, updated_at: now })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('is_deleted', '=', 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
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
