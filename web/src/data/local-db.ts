/**
 * The owner's device database (issue 3): one RxDB database on IndexedDB (Dexie storage) per
 * signed-in user, replicating with the server. This module is the only one of the web app that
 * imports RxDB at run time, and it is only ever reached through a dynamic `import()` from the
 * owner's screens (local-data.tsx) and from logout — the landing page and the visitor's public
 * page never load it.
 *
 * Lifecycle: `openLocalData(userId)` opens (or reuses) the user's database and starts the
 * replication; `closeLocalData({ remove: true })` (logout) cancels the replication and deletes the
 * database (spec §4: logout resets all data areas). A database of another user is closed before a
 * new one opens.
 */
import { BehaviorSubject } from 'rxjs';
import { removeRxDatabase } from 'rxdb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { apiOrigin, getToken } from '@avail/shared/api/api-client.ts';
import { createAvailDatabase, databaseNameFor, deviceIdOf, type AvailDatabase } from '@avail/shared/rx/avail-database.ts';
import { attachClock } from '@avail/shared/rx/clock-store.ts';
import { startReplication, type AvailReplication } from '@avail/shared/rx/replication-client.ts';
import { COLLECTION_NAMES } from '@avail/shared/rx/replication-protocol.ts';
import { SYNC_COMPLETED_EVENT } from './data-store.ts';

/** One open database of the signed-in user, with its replication. */
export interface LocalData {
  userId: string;
  db: AvailDatabase;
  replication: AvailReplication;
  /** This device's id (stamped on local edits). */
  deviceId: string;
  /**
   * true once this database has completed one full pull of every collection (persisted, so a
   * reload while offline reads local data at once). Until then screens fall back to REST.
   */
  synced$: BehaviorSubject<boolean>;
  /** Stops the window listeners (focus/online/sync-completed → reconnect) and subscriptions. */
  detach(): void;
}

/** Local document marking that the first full pull has completed: `{ at: epoch ms }`. */
const SYNCED_LOCAL_ID = 'initial-sync';
/** Focus/visibility reconnects closer together than this are skipped (ms). */
const FOCUS_RESYNC_MIN_GAP_MS = 5_000;

let storage: ReturnType<typeof getRxStorageDexie> | null = null;
function dexie() {
  storage ??= getRxStorageDexie();
  return storage;
}

let current: { userId: string; promise: Promise<LocalData> } | null = null;
let closing: Promise<void> = Promise.resolve();
let onUnauthorized: ((answer: { code?: string; error?: string }) => void) | null = null;

/**
 * What runs when the replication gets a 401 (the session ended or expired; `answer` is the server's
 * `code` and `error`): the session signs out with a notice.
 */
export function setUnauthorizedHandler(fn: ((answer: { code?: string; error?: string }) => void) | null): void {
  onUnauthorized = fn;
}

/**
 * Opens the user's database (or returns the one already open) and starts its replication with
 * this origin's `/api/replication/*`. Only the leader tab replicates; others see its writes.
 * @throws RxError when IndexedDB is unavailable (private mode of some browsers).
 */
export function openLocalData(userId: string): Promise<LocalData> {
  if (current?.userId === userId) return current.promise;
  const previous = current;
  const promise = (async () => {
    if (previous) await closeLocalData({ remove: false, target: previous });
    await closing;
    const db = await createAvailDatabase({ storage: dexie(), userId });
    // The conflict clock as this device last knew it (offset from the server, last stamps), shared
    // with the other tabs: restored before any edit or replication (issue 25).
    const detachClock = await attachClock(db);
    const deviceId = await deviceIdOf(db);
    const replication = startReplication({
      db,
      baseUrl: apiOrigin(),
      getToken,
      waitForLeadership: true,
      onUnauthorized: (answer) => onUnauthorized?.(answer),
    });
    const synced$ = new BehaviorSubject<boolean>(Boolean(await db.getLocal(SYNCED_LOCAL_ID)));
    const markSynced = () => {
      if (!synced$.value) synced$.next(true);
    };
    // The flag is set by whichever tab is the replication leader when the first pull completes.
    const flag = db.getLocal$(SYNCED_LOCAL_ID).subscribe((d) => d && markSynced());
    if (!synced$.value) {
      void Promise.all(COLLECTION_NAMES.map((c) => replication.states[c].awaitInitialReplication()))
        .then(async () => {
          if (db.closed) return;
          await db.upsertLocal(SYNCED_LOCAL_ID, { at: Date.now() });
          markSynced();
        })
        .catch(() => undefined);
    }
    const detachTriggers = attachReconnectTriggers(replication);
    const detach = () => {
      detachTriggers();
      flag.unsubscribe();
      detachClock();
    };
    return { userId, db, replication, deviceId, synced$, detach };
  })();
  current = { userId, promise };
  promise.catch(() => {
    if (current?.promise === promise) current = null;
  });
  return promise;
}

/** Reconnects on coming back online, on tab focus/visibility and after Settings' Sync Now. */
function attachReconnectTriggers(replication: AvailReplication): () => void {
  let last = 0;
  const soon = () => {
    const now = Date.now();
    if (now - last < FOCUS_RESYNC_MIN_GAP_MS) return;
    last = now;
    replication.reconnect();
  };
  const now = () => {
    last = Date.now();
    replication.reconnect();
  };
  const onVisible = () => {
    if (document.visibilityState === 'visible') soon();
  };
  window.addEventListener('online', now);
  window.addEventListener('focus', soon);
  window.addEventListener(SYNC_COMPLETED_EVENT, now);
  document.addEventListener('visibilitychange', onVisible);
  return () => {
    window.removeEventListener('online', now);
    window.removeEventListener('focus', soon);
    window.removeEventListener(SYNC_COMPLETED_EVENT, now);
    document.removeEventListener('visibilitychange', onVisible);
  };
}

/**
 * Closes the open database: cancels the replication, then closes it — or, with `remove`, deletes
 * it and its IndexedDB data (logout). With `userId` and nothing open, that user's stored
 * database is deleted without opening it.
 */
export function closeLocalData(opts: { remove: boolean; userId?: string; target?: typeof current }): Promise<void> {
  const target = opts.target ?? current;
  if (target && target === current) current = null;
  const task = closing.then(async () => {
    if (target) {
      const data = await target.promise.catch(() => null);
      if (data) {
        data.detach();
        await data.replication.cancel().catch(() => undefined);
        if (opts.remove) await data.db.remove().catch((e: unknown) => console.error('Removing the local database failed', e));
        else await data.db.close().catch(() => undefined);
      }
    } else if (opts.remove && opts.userId) {
      await removeRxDatabase(databaseNameFor(opts.userId), dexie(), true).catch(() => undefined);
    }
  });
  closing = task.catch(() => undefined);
  return task;
}
