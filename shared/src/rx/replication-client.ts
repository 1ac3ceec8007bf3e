/**
 * Device side of the replication protocol (replication-protocol.ts): one RxDB HTTP replication
 * per collection (pull by checkpoint, push of writable collections, live pull over one shared
 * Server-Sent Events stream), plus the device's sync status and pending-write bookkeeping.
 * Follows https://rxdb.info/replication-http.html. Its parts: replication-request.ts (the HTTP
 * requests, the clock read from each answer, 401/426) and replication-stream.ts (the live stream).
 *
 * Status: 'offline' (no network / server unreachable), 'syncing' (a pull or push is running or
 * local writes are pending), 'online' (in sync), 'outdated' (server answered 426: this client is too
 * old), 'unauthorized' (401: the session ended).
 */
import { Subject, combineLatest, distinctUntilChanged, map, type Observable } from 'rxjs';
import type { WithDeleted } from 'rxdb';
import { replicateRxCollection, type RxReplicationState } from 'rxdb/plugins/replication';
import type { AvailDatabase } from './avail-database.ts';
import { clockOf } from './clock-store.ts';
import type { HybridClock } from './hlc.ts';
import { clearPending, pendingKey, PENDING_LOCAL_ID, readPending, recordSentStamps, type PendingMap } from './local-writes.ts';
import {
  COLLECTION_NAMES,
  PULL_LIMIT_MAX,
  PUSH_BATCH_MAX,
  REPLICATED_COLLECTIONS,
  type Checkpoint,
  type CollectionName,
  type PullResponse,
  type PushRow,
  type WritableCollectionName,
} from './replication-protocol.ts';
import { ReplicationHttpError, replicationRequests, type ReplicationRequests } from './replication-request.ts';
import { startReplicationStream } from './replication-stream.ts';
import { correctPushRows, pendingEditOf } from './stamp-correction.ts';

export type SyncStatus = 'online' | 'syncing' | 'offline' | 'outdated' | 'unauthorized';
export interface StartReplicationOptions {
  db: AvailDatabase;
  /** Server origin, e.g. `http://localhost:3000` ('' = same origin in the browser). */
  baseUrl: string;
  /** Current bearer token (null = signed out: requests are not sent). */
  getToken: () => string | null;
  fetch?: typeof fetch;
  /** ms between retries of a failed pull/push (RxDB retryTime). Default 2000. */
  retryTime?: number;
  /** Only the leader tab replicates (browser). Default false. */
  waitForLeadership?: boolean;
  /** Pull batch size (≤ PULL_LIMIT_MAX). Default 1000. */
  pullBatchSize?: number;
  /**
   * Called once when the server answers 401 (session over), with the answer's `code` and `error`
   * ('session_expired' and its message for an expired session, issue 26).
   */
  onUnauthorized?: (answer: { code?: string; error?: string }) => void;
  /** The conflict clock to advance and correct (default: the database's, `clockOf(db)`). */
  clock?: HybridClock;
}

/** Counters of the replication's clock handling since it started (issue 25). */
interface ReplicationDiagnostics {
  /** Remote stamps not merged into the clock: more than MAX_CLOCK_AHEAD_MS ahead of it. */
  ignoredRemoteStamps: number;
  /** Pushed documents whose stamp was corrected (stamp-correction.ts). */
  restampedEdits: number;
  /** Pushes the server refused with 422 `clock_ahead` (each retried once, re-stamped). */
  clockAheadRefusals: number;
  /** The clock's offset from the server (server − device, ms) and whether it was measured in this run. */
  offsetMs: number;
  measured: boolean;
}

export interface AvailReplication {
  states: { [K in CollectionName]: RxReplicationState<any, Checkpoint> };
  /** Current sync status (see file doc). */
  status$: Observable<SyncStatus>;
  /** `collection/id` keys of local writes not yet acknowledged by the server. */
  pending$: Observable<string[]>;
  /** Resolves when every collection is in sync (initial pull done, nothing left to push). */
  awaitInSync(): Promise<void>;
  /** Retries now: after coming back online or on tab focus. */
  reconnect(): void;
  /** The clock counters (see {@link ReplicationDiagnostics}). */
  diagnostics(): ReplicationDiagnostics;
  /** Stops replicating and closes the stream; the database stays open. */
  cancel(): Promise<void>;
}

/** What the pull and push handlers share: the database, the clock with its counters, and the requests. */
interface ReplicationContext {
  db: AvailDatabase;
  clock: HybridClock;
  counters: { ignoredRemoteStamps: number; restampedEdits: number; clockAheadRefusals: number };
  /** Merges a pulled or returned stamp into the clock (one far ahead is left out and counted). */
  merge: (stamp: unknown) => void;
  request: ReplicationRequests['request'];
}

/**
 * Pushes `rows` of `name` with their stamps corrected by the clock measured in this run
 * (stamp-correction.ts): when nothing was measured yet, the server's clock is read first
 * (`GET /api/replication/time`). A 422 `clock_ahead` (the answer itself corrects the clock)
 * re-stamps and pushes again at once — one retry per batch, never a loop.
 * @returns the conflicting masters (RxDB push handler contract).
 */
async function pushCorrected(ctx: ReplicationContext, name: WritableCollectionName, rows: PushRow<any>[]): Promise<WithDeleted<any>[]> {
  const { db, clock, counters, merge, request } = ctx;
  if (!clock.measuredThisSession()) await request('/api/replication/time');
  const send = async (again: boolean) => {
    const pending = await readPending(db);
    const corrected = correctPushRows(rows as any[], (id) => pendingEditOf(pending[pendingKey(name, id)]), clock, { again });
    // The stamps sent are kept: a retry after a lost answer sends the same revision.
    await recordSentStamps(
      db,
      corrected.rows.map((r, i) => ({ collection: name, id: r.newDocumentState.id, at: (rows[i]!.newDocumentState as { edited_at: number }).edited_at, sent: r.newDocumentState.edited_at })),
    );
    const res = await request(`/api/replication/${name}/push`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(corrected.rows),
    });
    counters.restampedEdits += corrected.restamped;
    return { conflicts: (await res.json()) as WithDeleted<any>[], sent: corrected.rows };
  };
  let result: Awaited<ReturnType<typeof send>>;
  try {
    result = await send(false);
  } catch (err) {
    if (!(err instanceof ReplicationHttpError && err.status === 422 && err.code === 'clock_ahead')) throw err;
    counters.clockAheadRefusals += 1;
    result = await send(true);
  }
  const conflictIds = new Set(result.conflicts.map((m) => m?.id));
  // Applied versions are the server's now: their stamps are seen (a later edit comes after them).
  for (const r of result.sent) if (!conflictIds.has(r.newDocumentState.id)) merge(r.newDocumentState.edited_at);
  for (const m of result.conflicts) merge(m?.edited_at);
  return result.conflicts;
}

/**
 * One collection's RxDB HTTP replication (https://rxdb.info/replication-http.html): the pull
 * handler reads `GET /api/replication/{name}/pull` from the checkpoint (stamps of writable
 * collections advance the clock), `stream$` is the live stream's feed, and writable collections
 * push through {@link pushCorrected}, each pushed row leaving the pending writes once decided.
 */
function replicateCollection(
  ctx: ReplicationContext,
  opts: StartReplicationOptions,
  base: string,
  name: CollectionName,
  stream: Subject<any>,
): RxReplicationState<any, Checkpoint> {
  const { db, merge, request } = ctx;
  const writable = REPLICATED_COLLECTIONS[name].writable;
  const collection = db[name];
  return replicateRxCollection<any, Checkpoint>({
    replicationIdentifier: `avail-http-${name}-${base || 'same-origin'}`,
    collection: collection as any,
    live: true,
    retryTime: opts.retryTime ?? 2000,
    waitForLeadership: opts.waitForLeadership ?? false,
    autoStart: true,
    pull: {
      batchSize: Math.min(opts.pullBatchSize ?? PULL_LIMIT_MAX, PULL_LIMIT_MAX),
      stream$: stream.asObservable(),
      async handler(checkpoint, batchSize) {
        const q = new URLSearchParams({ limit: String(batchSize) });
        if (checkpoint) {
          q.set('id', checkpoint.id);
          q.set('updated_at', String(checkpoint.updated_at));
        }
        const res = await request(`/api/replication/${name}/pull?${q}`);
        const body = (await res.json()) as PullResponse<any>;
        // Edits seen from elsewhere advance the conflict clock: a later edit here is stamped after them.
        if (writable) for (const d of body.documents) merge(d?.edited_at);
        return { documents: body.documents, checkpoint: body.checkpoint ?? checkpoint };
      },
    },
    push: writable
      ? {
          batchSize: Math.min(100, PUSH_BATCH_MAX),
          async handler(rows) {
            const conflicts = await pushCorrected(ctx, name as WritableCollectionName, rows as PushRow<any>[]);
            // Every pushed row was decided by the server (applied, or lost to the returned master):
            // either way this device's write is no longer pending (acknowledged by its stamp on the
            // device; a re-stamped copy comes back by the pull).
            await clearPending(
              db,
              rows.map((r) => ({ collection: name as WritableCollectionName, id: r.newDocumentState.id, edited_at: r.newDocumentState.edited_at })),
            );
            return conflicts;
          },
        }
      : undefined,
  });
}

/** The sync status (see file doc) from the fatal answers, reachability, the stream, the replications' activity and the pending writes. */
function syncStatus$(
  fatal$: Observable<SyncStatus | null>,
  reachable$: Observable<boolean>,
  streamUp$: Observable<boolean>,
  active$: Observable<boolean>,
  pending$: Observable<string[]>,
): Observable<SyncStatus> {
  return combineLatest([fatal$, reachable$, streamUp$, active$, pending$]).pipe(
    map(([fatal, reachable, up, active, pending]): SyncStatus => {
      if (fatal) return fatal;
      if (!reachable || (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine === false) return 'offline';
      if (active || pending.length > 0 || !up) return 'syncing';
      return 'online';
    }),
    distinctUntilChanged(),
  );
}

/**
 * Starts replicating every collection of `db` with the server. Writable collections push; all pull
 * and listen on the shared stream. Returns at once; use `awaitInSync()` to wait for the first sync.
 */
export function startReplication(opts: StartReplicationOptions): AvailReplication {
  const doFetch = opts.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const { db } = opts;
  const clock = opts.clock ?? clockOf(db);
  const counters = { ignoredRemoteStamps: 0, restampedEdits: 0, clockAheadRefusals: 0 };
  /** Merges a pulled or returned stamp; one far ahead is left out, logged and counted. */
  const merge = (stamp: unknown) =>
    clock.recv(stamp, (s, ahead) => {
      counters.ignoredRemoteStamps += 1;
      console.warn(`Replication: ignored a stamp ${Math.round(ahead / 1000)} s ahead of this device's corrected clock (${new Date(s).toISOString()})`);
    });
  const base = opts.baseUrl.replace(/\/$/, '');
  const { request, reachable$, fatal$ } = replicationRequests({ base, getToken: opts.getToken, fetch: doFetch, clock, onUnauthorized: opts.onUnauthorized });
  const ctx: ReplicationContext = { db, clock, counters, merge, request };

  const streams = Object.fromEntries(COLLECTION_NAMES.map((c) => [c, new Subject<any>()])) as Record<CollectionName, Subject<any>>;
  const states = {} as AvailReplication['states'];
  for (const name of COLLECTION_NAMES) states[name] = replicateCollection(ctx, opts, base, name, streams[name]);

  // The shared live stream (one HTTP connection for all collections).
  let stopped = false;
  const stream = startReplicationStream(request, streams, merge);

  const pendingDoc$ = db.getLocal$<{ map: PendingMap }>(PENDING_LOCAL_ID);
  const pending$ = pendingDoc$.pipe(
    map((d) => Object.keys((d?.get('map') as PendingMap | undefined) ?? {}).sort()),
    distinctUntilChanged((a, b) => a.join() === b.join()),
  );
  const active$ = combineLatest(COLLECTION_NAMES.map((c) => states[c].active$)).pipe(map((xs) => xs.some(Boolean)));
  const status$ = syncStatus$(fatal$, reachable$, stream.up$, active$, pending$);

  return {
    states,
    status$,
    pending$,
    async awaitInSync() {
      await Promise.all(COLLECTION_NAMES.map((c) => states[c].awaitInSync()));
    },
    diagnostics() {
      return { ...counters, offsetMs: clock.offset(), measured: clock.measuredThisSession() };
    },
    reconnect() {
      if (stopped) return;
      for (const c of COLLECTION_NAMES) states[c].reSync();
      stream.reconnect();
    },
    async cancel() {
      stopped = true;
      stream.stop();
      await Promise.all(COLLECTION_NAMES.map((c) => states[c].cancel()));
    },
  };
}
