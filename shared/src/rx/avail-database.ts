/**
 * The owner's local database: one RxDB database per signed-in user, with the seven replicated
 * collections of `rx-schemas.ts` and local (never replicated) documents for device state.
 *
 * The caller passes the storage: the browser and the desktop renderer pass
 * `getRxStorageDexie()` (IndexedDB); Node tests pass `getRxStorageDexie({ indexedDB, IDBKeyRange })`
 * from fake-indexeddb.
 */
import { addRxPlugin, createRxDatabase, type RxCollection, type RxDatabase, type RxStorage } from 'rxdb';
import { RxDBLocalDocumentsPlugin } from 'rxdb/plugins/local-documents';
import { RxDBLeaderElectionPlugin } from 'rxdb/plugins/leader-election';
import { conflictHandlerFor } from './conflict-resolution.ts';
import {
  availabilityExceptionRxSchema,
  availabilityRuleRxSchema,
  busyBlockRxSchema,
  calendarConnectionRxSchema,
  calendarEventRxSchema,
  profileRxSchema,
  proposalRxSchema,
  type BlockDoc,
  type ConnectionDoc,
  type EventDoc,
  type ExceptionDoc,
  type ProfileDoc,
  type ProposalDoc,
  type RuleDoc,
} from './rx-schemas.ts';

addRxPlugin(RxDBLocalDocumentsPlugin);
addRxPlugin(RxDBLeaderElectionPlugin);

interface AvailCollections {
  availability_rules: RxCollection<RuleDoc>;
  availability_exceptions: RxCollection<ExceptionDoc>;
  busy_blocks: RxCollection<BlockDoc>;
  calendar_events: RxCollection<EventDoc>;
  calendar_connections: RxCollection<ConnectionDoc>;
  profile: RxCollection<ProfileDoc>;
  proposals: RxCollection<ProposalDoc>;
}
export type AvailDatabase = RxDatabase<AvailCollections>;

/** Database name of a user's local data: lower-case letters, digits and '-' only (RxDB rule). */
export function databaseNameFor(userId: string): string {
  return `avail-${userId.toLowerCase().replace(/[^a-z0-9]/g, '')}`;
}

export interface CreateAvailDatabaseOptions {
  /** RxDB storage (Dexie in browsers and tests). */
  storage: RxStorage<any, any>;
  /** The signed-in user's id; one database per user. */
  userId: string;
  /** Several tabs share one database (BroadcastChannel + leader election). Default true. */
  multiInstance?: boolean;
  /** Overrides the database name (tests that simulate two devices of one user). */
  name?: string;
}

/**
 * Opens (or creates) the user's database with all collections.
 * @throws RxError from RxDB when the storage is unavailable or a schema changed without a migration.
 */
export async function createAvailDatabase(opts: CreateAvailDatabaseOptions): Promise<AvailDatabase> {
  const db = await createRxDatabase<AvailCollections>({
    name: opts.name ?? databaseNameFor(opts.userId),
    storage: opts.storage,
    multiInstance: opts.multiInstance ?? true,
    eventReduce: true,
    localDocuments: true,
    closeDuplicates: true,
  });
  await db.addCollections({
    availability_rules: { schema: availabilityRuleRxSchema, conflictHandler: conflictHandlerFor<RuleDoc>() },
    availability_exceptions: { schema: availabilityExceptionRxSchema, conflictHandler: conflictHandlerFor<ExceptionDoc>() },
    busy_blocks: { schema: busyBlockRxSchema, conflictHandler: conflictHandlerFor<BlockDoc>() },
    calendar_events: { schema: calendarEventRxSchema },
    calendar_connections: { schema: calendarConnectionRxSchema },
    profile: { schema: profileRxSchema },
    proposals: { schema: proposalRxSchema, conflictHandler: conflictHandlerFor<ProposalDoc>() },
  });
  return db;
}

/** This device's id (random, created once per database, kept in a local document). */
export async function deviceIdOf(db: AvailDatabase): Promise<string> {
  const existing = await db.getLocal<{ id: string }>('device');
  if (existing) return existing.get('id');
  const id = `d-${crypto.randomUUID()}`;
  await db.insertLocal('device', { id }).catch(() => undefined);
  return (await db.getLocal<{ id: string }>('device'))!.get('id');
}

/**
 * Read-modify-write of local document `id` that holds across tabs: `fn` gets the stored data (or
 * null) and returns the new data; when another tab wrote the document in between, RxDB's write
 * queue runs `fn` again on that tab's data (incrementalModify), so concurrent writers merge
 * instead of overwriting each other.
 */
export async function modifyLocal<T extends object>(db: AvailDatabase, id: string, fn: (cur: T | null) => T): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const doc = await db.getLocal<T>(id);
    if (doc) {
      await doc.incrementalModify((data) => fn(data as T));
      return;
    }
    try {
      await db.insertLocal<T>(id, fn(null));
      return;
    } catch (e) {
      // Inserted by another tab meanwhile (409): modify that one.
      if (attempt > 2) throw e;
    }
  }
}
