/**
 * The per-user replication clock. Every write to a replicated row (rules, exceptions, busy blocks,
 * calendar events and connections, the profile, tombstones) takes its `updated_at` from
 * `nextStamp` inside the write's transaction. The UPDATE row-locks the user on PostgreSQL (SQLite
 * has one writer), so one user's writes are serialized and their stamps strictly increase: a pull
 * checkpoint (updated_at, id) never skips a row committed later (RxDB HTTP replication,
 * https://rxdb.info/replication-http.html — checkpoint iteration).
 */
import type { Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import type { CollectionName } from '@avail/shared/rx/replication-protocol.ts';
import type { Db } from '../db/kysely.ts';
import type { Database } from '../db/schema.ts';
import { changeBusFor, type BusLogger } from './change-bus.ts';

type Q = Kysely<Database> | Transaction<Database>;

/**
 * Hands out the user's next stamp (UTC epoch ms): `now`, or last stamp + 1 when the clock has not
 * moved past it. Call inside the write transaction.
 * @throws Error when the user does not exist.
 */
export async function nextStamp(trx: Q, userId: string, now: number): Promise<number> {
  const row = await trx
    .updateTable('users')
    .set({ repl_clock: sql<number>`case when repl_clock >= ${now} then repl_clock + 1 else ${now} end` })
    .where('id', '=', userId)
    .returning('repl_clock')
    .executeTakeFirst();
  if (!row) throw new Error('nextStamp: no such user');
  return Number(row.repl_clock);
}

/**
 * The stamp of the current write for rows of `collection` (one stamp per transaction; rows written
 * together tie on updated_at and are ordered by id). Naming the collection marks it changed, so the
 * change bus is told after commit.
 */
export type Stamper = (collection: CollectionName) => Promise<number>;

/**
 * Runs `fn` in one transaction with a Stamper for `userId`; after commit, publishes on the change
 * bus (always: owner-data listeners hear every write; streams hear the collections that took a
 * stamp) (so the SSE stream sees REST, push, sync-job and profile
 * writes alike). `now` is the deps clock at the start (epoch ms). Errors roll back and publish nothing.
 * The stamp is taken first thing, so every replicated write locks the user row before any other
 * row (one lock order: no deadlocks between a user's concurrent writes on PostgreSQL).
 * @throws Error when the user does not exist; whatever `fn` throws.
 */
export async function replicatedWrite<T>(
  deps: { db: Db; now: () => number; logger?: BusLogger },
  userId: string,
  fn: (trx: Transaction<Database>, stamp: Stamper, now: number) => Promise<T>,
): Promise<T> {
  const touched = new Set<CollectionName>();
  const now = deps.now();
  const result = await deps.db.transaction().execute(async (trx) => {
    const value = await nextStamp(trx, userId, now);
    const stamp: Stamper = async (collection) => {
      touched.add(collection);
      return value;
    };
    return fn(trx, stamp, now);
  });
  // Always published: owner-data listeners (the public availability cache) must hear writes that
  // touched no replicated collection too (busy intervals); streams only hear `touched`.
  await changeBusFor(deps.db).publish(userId, [...touched], deps.logger);
  return result;
}
