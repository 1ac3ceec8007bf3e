/** SQL for visitors' proposals (`proposals`). Instants are UTC epoch ms. */
import type { Db } from '../../db/kysely.ts';
import type { ProposalRow } from '../../db/schema.ts';

/** Stores one proposal. */
export async function insertProposal(db: Db, row: ProposalRow): Promise<void> {
  await db.insertInto('proposals').values(row).execute();
}

/** How many proposals the owner received since `since` (UTC ms, inclusive). */
export async function countProposalsSince(db: Db, userId: string, since: number): Promise<number> {
  const { count } = await db
    .selectFrom('proposals')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('user_id', '=', userId)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** The owner's proposals ending after `now` (UTC ms), soonest start first (then oldest first), at most `limit`. */
export function listUpcomingProposals(db: Db, userId: string, now: number, limit: number): Promise<ProposalRow[]> {
  return db
    .selectFrom('proposals')
    .selectAll()
    .where('user_id', '=', userId)
    .where('end_ms', '>', now)
    .where('dismissed_at', 'is', null)
    .orderBy('start_ms', 'asc')
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .limit(limit)
    .execute();
}

/**
 * Marks the proposal dismissed (at `now`, UTC ms) only when it belongs to `userId`. The row stays, so
 * dismissing never frees room under the per-owner daily cap; it is removed with the account.
 * @returns false when there is no such (undismissed) proposal of this owner.
 */
export async function dismissProposal(db: Db, userId: string, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('proposals')
    .set({ dismissed_at: now })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('dismissed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The owner's e-mail address and display name (to send the proposal to), or undefined. */
export function findOwnerContact(db: Db, userId: string) {
  return db.selectFrom('users').select(['email', 'name']).where('id', '=', userId).executeTakeFirst();
}
