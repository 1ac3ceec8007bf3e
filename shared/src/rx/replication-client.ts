/**
 * Device side of the replication protocol (replication-protocol.ts): one RxDB HTTP replication
 * per collection (pull by checkpoint, push of writable collections, live pull over one shared
 * Server-Sent Events stream), plus the device's sync status and pending-write bookkeeping.
 * Follows https://rxdb.info/replication-http.html.
 *
 * Status: 'offline' (no network / server unreachable), 'syncing' (a pull or push is running or
 * local writes are pending), 'online' (in sync), 'outdated' (server answered 426: this client is too
 * old), 'unauthorized' (401: the session ended).
 */
import { BehaviorSubject, Subject, combineLatest, distinctUntilChanged, map, type Observable } from 'rxjs';
import type { WithDeleted } from 'rxdb';
import { replicateRxCollection, type RxReplicationState } from 'rxdb/plugins/replication';
import type { AvailDatabase } from './avail-database.ts';
import { clockOf } from './clock-store.ts';
import { SERVER_TIME_HEADER, type HybridClock } from './hlc.ts';
import { clearPending, pendingKey, PENDING_LOCAL_ID, readPending, recordSentStamps, type PendingMap } from './local-writes.ts';
import {
  COLLECTION_NAMES,
  PULL_LIMIT_MAX,
  PUSH_BATCH_MAX,
  REPLICATED_COLLECTIONS,
  REPLICATION_SCHEMA_VERSION,
  SCHEMA_HEADER,
  type Checkpoint,
  type CollectionName,
  type PullResponse,
  type PushRow,
  type StreamMessage,
  type WritableCollectionName,
} from './replication-protocol.ts';
import { correctPushRows, pendingEditOf } from './stamp-correction.ts';

export type SyncStatus = 'online' | 'syncing' | 'offline' | 'outdated' | 'unauthorized';

/** An HTTP answer the replication cannot retry its way out of. */
export class ReplicationHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The answer's `code` (e.g. `clock_ahead`), when it had one. */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ReplicationHttpError';
  }
}

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
export interface ReplicationDiagnostics {
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

function isNetworkError(err: unknown): boolean {
  return err instanceof TypeError || (err instanceof Error && (err.name === 'AbortError' || /fetch failed|network/i.test(err.message)));
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
  const reachable$ = new BehaviorSubject<boolean>(true);
  const fatal$ = new BehaviorSubject<SyncStatus | null>(null);
  let unauthorizedSent = false;

  async function request(path: string, init: RequestInit = {}): Promise<Response> {
    const token = opts.getToken();
    if (!token) throw new ReplicationHttpError(401, 'Signed out');
    let res: Response;
    const sentAt = clock.reading();
    try {
      res = await doFetch(`${base}${path}`, {
        ...init,
        headers: { ...(init.headers ?? {}), Authorization: `Bearer ${token}`, [SCHEMA_HEADER]: String(REPLICATION_SCHEMA_VERSION) },
      });
    } catch (err) {
      reachable$.next(false);
      throw err;
    }
    reachable$.next(true);
    // The server's clock corrects this device's conflict clock (hlc.ts).
    const receivedAt = clock.reading();
    const serverTime = Number(res.headers.get(SERVER_TIME_HEADER));
    if (serverTime > 0) clock.observeServerTime(serverTime, sentAt, receivedAt);
    if (res.ok) return res;
    const body = (await res.json().catch(() => ({}))) as { error?: string; code?: string };
    // Refused as ahead of the server's clock: the estimate in use is wrong — this reading replaces it whatever its round trip.
    if (body.code === 'clock_ahead' && serverTime > 0) clock.observeServerTime(serverTime, sentAt, receivedAt, true);
    if (res.status === 426) fatal$.next('outdated');
    if (res.status === 401) {
      fatal$.next('unauthorized');
      if (!unauthorizedSent) {
        unauthorizedSent = true;
        opts.onUnauthorized?.({ code: body.code, error: body.error });
      }
    }
    throw new ReplicationHttpError(res.status, body.error ?? `Replication request failed (${res.status})`, body.code);
  }

  /**
   * Pushes `rows` of `name` with their stamps corrected by the clock measured in this run
   * (stamp-correction.ts): when nothing was measured yet, the server's clock is read first
   * (`GET /api/replication/time`). A 422 `clock_ahead` (the answer itself corrects the clock)
   * re-stamps and pushes again at once — one retry per batch, never a loop.
   * @returns the conflicting masters (RxDB push handler contract).
   */
  async function pushCorrected(name: WritableCollectionName, rows: PushRow<any>[]): Promise<WithDeleted<any>[]> {
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

  const streams = Object.fromEntries(COLLECTION_NAMES.map((c) => [c, new Subject<any>()])) as Record<CollectionName, Subject<any>>;

  const states = {} as AvailReplication['states'];
  for (const name of COLLECTION_NAMES) {
    const writable = REPLICATED_COLLECTIONS[name].writable;
    const collection = db[name];
    states[name] = replicateRxCollection<any, Checkpoint>({
      replicationIdentifier: `avail-http-${name}-${base || 'same-origin'}`,
      collection: collection as any,
      live: true,
      retryTime: opts.retryTime ?? 2000,
      waitForLeadership: opts.waitForLeadership ?? false,
      autoStart: true,
      pull: {
        batchSize: Math.min(opts.pullBatchSize ?? PULL_LIMIT_MAX, PULL_LIMIT_MAX),
        stream$: streams[name].asObservable(),
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
              const conflicts = await pushCorrected(name as WritableCollectionName, rows as PushRow<any>[]);
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

  // The shared live stream (one HTTP connection for all collections; browsers allow ~6 per host).
  let stopped = false;
  let streamAbort: AbortController | null = null;
  let retryDelay = 1000;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  const streamUp$ = new BehaviorSubject<boolean>(false);

  function resyncAll() {
    for (const c of COLLECTION_NAMES) streams[c].next('RESYNC');
  }

  async function runStream(): Promise<void> {
    if (stopped) return;
    streamAbort = new AbortController();
    try {
      const res = await request('/api/replication/stream', { signal: streamAbort.signal, headers: { Accept: 'text/event-stream' } });
      if (!res.body) throw new Error('No stream body');
      streamUp$.next(true);
      retryDelay = 1000;
      resyncAll(); // anything missed while disconnected is pulled by checkpoint
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buf = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += value;
        let idx: number;
        while ((idx = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, idx);
          buf = buf.slice(idx + 2);
          const data = block
            .split('\n')
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).trimStart())
            .join('\n');
          if (!data) continue;
          const msg = JSON.parse(data) as StreamMessage;
          if ('resync' in msg) resyncAll();
          else if (streams[msg.collection]) {
            // Edits seen live advance the conflict clock like pulled ones.
            if (REPLICATED_COLLECTIONS[msg.collection].writable) for (const d of msg.documents) merge((d as { edited_at?: unknown })?.edited_at);
            streams[msg.collection].next({ documents: msg.documents, checkpoint: msg.checkpoint });
          }
        }
      }
    } catch (err) {
      if (!stopped && !isNetworkError(err) && !(err instanceof ReplicationHttpError)) console.error('Replication stream failed', err);
      if (err instanceof ReplicationHttpError && (err.status === 401 || err.status === 426)) {
        streamUp$.next(false);
        return; // fatal: do not retry
      }
    }
    streamUp$.next(false);
    if (stopped) return;
    retryTimer = setTimeout(() => void runStream(), retryDelay);
    retryDelay = Math.min(retryDelay * 2, 30_000);
  }
  void runStream();

  const pendingDoc$ = db.getLocal$<{ map: PendingMap }>(PENDING_LOCAL_ID);
  const pending$ = pendingDoc$.pipe(
    map((d) => Object.keys((d?.get('map') as PendingMap | undefined) ?? {}).sort()),
    distinctUntilChanged((a, b) => a.join() === b.join()),
  );
  const active$ = combineLatest(COLLECTION_NAMES.map((c) => states[c].active$)).pipe(map((xs) => xs.some(Boolean)));
  const status$ = combineLatest([fatal$, reachable$, streamUp$, active$, pending$]).pipe(
    map(([fatal, reachable, up, active, pending]): SyncStatus => {
      if (fatal) return fatal;
      if (!reachable || (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine === false) return 'offline';
      if (active || pending.length > 0 || !up) return 'syncing';
      return 'online';
    }),
    distinctUntilChanged(),
  );

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
      if (!streamUp$.value) {
        if (retryTimer) clearTimeout(retryTimer);
        retryDelay = 1000;
        streamAbort?.abort();
        void runStream();
      }
    },
    async cancel() {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      streamAbort?.abort();
      await Promise.all(COLLECTION_NAMES.map((c) => states[c].cancel()));
    },
  };
}
