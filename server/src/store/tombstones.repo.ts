/**
 * Tombstones of hard-deleted read-only replicated documents (calendar_events, calendar_connections):
 * a pull returns them as `{ id, …placeholders, _deleted: true }` so devices drop the document
 * (RxDB HTTP replication, https://rxdb.info/replication-http.html: deletes travel as `_deleted`).
 */
import type { Kysely, Transaction } from 'kysely';
import type { CollectionName } from '@avail/shared/rx/replication-protocol.ts';
import type { Database } from '../db/schema.ts';

type Q = Kysely<Database> | Transaction<Database>;
const BATCH = 300;

/** Records (or re-stamps) tombstones for `ids`; `updatedAt` is the write's replication stamp (epoch ms). */
export async function writeTombstones(
  db: Q,
  userId: string,
  collection: CollectionName,
  ids: readonly string[],
  updatedAt: number,
): Promise<void> {
  for (let i = 0; i < ids.length; i += BATCH) {
    await db
      .insertInto('replication_tombstones')
      .values(ids.slice(i, i + BATCH).map((id) => ({ user_id: userId, collection, id, updated_at: updatedAt })))
      .onConflict((oc) => oc.columns(['user_id', 'collection', 'id']).doUpdateSet({ updated_at: updatedAt }))
      .execute();
  }
}

/** Removes tombstones of ids that exist again (a re-created event), so a pull sees one state per id. */
export async function clearTombstones(db: Q, userId: string, collection: CollectionName, ids: readonly string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += BATCH) {
    await db
      .deleteFrom('replication_tombstones')
      .where('user_id', '=', userId)
      .where('collection', '=', collection)
      .where('id', 'in', ids.slice(i, i + BATCH))
      .execute();
  }
}
