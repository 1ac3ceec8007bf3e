/**
 * Device databases for tests: RxDB on Dexie over fake-indexeddb, one per call with a random user,
 * all removed after each test (RxDB's free version allows 13 open collections per process).
 */
import 'fake-indexeddb/auto';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { afterEach } from 'vitest';
import { createAvailDatabase, type AvailDatabase } from '../../src/rx/avail-database.ts';

const open: AvailDatabase[] = [];

/** A fresh, single-tab device database; removed after the current test. */
export async function newTestDatabase(): Promise<AvailDatabase> {
  const db = await createAvailDatabase({ storage: getRxStorageDexie(), userId: crypto.randomUUID(), multiInstance: false });
  open.push(db);
  return db;
}

afterEach(async () => {
  while (open.length) await open.pop()!.remove();
});
