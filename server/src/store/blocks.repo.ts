/**
 * SQL for the owner's manual busy blocks (`busy_blocks`). Deletes are soft (is_deleted = 1) so they
 * replicate; every write carries the replication stamp (`updated_at`) and the edit's
 * `edited_at`/`device_id`. Instants are UTC epoch ms; a block is the half-open [start_ms, end_ms).
 */
import { BUSY_BLOCK_MAX_MS } from '@avail/shared/constants.ts';
import type { Db } from '../db/kysely.ts';
import type { BusyBlockRow } from '../db/schema.ts';

/**
 * Live blocks of the user overlapping [from, to) (either bound may be left out: unbounded on that
 * side), ordered by start, end, id.
 */
export function listLiveBlocks(db: Db, userId: string, range: { from?: number; to?: number } = {}): Promise<BusyBlockRow[]> {
  let q = db.selectFrom('busy_blocks').selectAll().where('user_id', '=', userId).where('is_deleted', '=', 0);
  if (range.to !== undefined) q = q.where('start_ms', '<', range.to);
  if (range.from !== undefined) q = q.where('end_ms', '>', range.from);
  return q.orderBy('start_ms').orderBy('end_ms').orderBy('id').execute();
}

/**
 * Only the times `{ start, end }` (UTC ms) of the user's live blocks overlapping [start, end) — never
 * the note. A live block lasts at most BUSY_BLOCK_MAX_MS (every write path checks it), so blocks
 * starting that long before `start` cannot overlap: the lower bound keeps this an index range scan
 * on (user_id, start_ms).
 */
export function liveBlockTimesOverlapping(db: Db, userId: string, start: number, end: number): Promise<Array<{ start: number; end: number }>> {
  return db
    .selectFrom('busy_blocks')
    .select(['start_ms as start', 'end_ms as end'])
    .where('user_id', '=', userId)
    .where('is_deleted', '=', 0)
    .where('start_ms', '>', start - BUSY_BLOCK_MAX_MS)
    .where('start_ms', '<', end)
    .where('end_ms', '>', start)
    .execute();
}

/** Rows (any owner, deleted too) with these ids. */
export async function findBlockRowsByIds(db: Db, ids: readonly string[]): Promise<BusyBlockRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('busy_blocks').selectAll().where('id', 'in', [...ids]).execute();
}

/** One live block of the user, or undefined. */
export function findLiveBlock(db: Db, userId: string, id: string): Promise<BusyBlockRow | undefined> {
  return db
    .selectFrom('busy_blocks')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('is_deleted', '=', 0)
    .executeTakeFirst();
}

/**
 * Inserts `row`, or (`exists`) overwrites its replicated fields where the id AND the owner match —
 * never another user's row.
 */
export async function writeBlockRow(db: Db, row: BusyBlockRow, exists: boolean): Promise<void> {
  if (!exists) {
    await db.insertInto('busy_blocks').values(row).execute();
    return;
  }
  const { id, user_id, ...fields } = row;
  await db.updateTable('busy_blocks').set(fields).where('id', '=', id).where('user_id', '=', user_id).execute();
}
