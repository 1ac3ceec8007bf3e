/**
 * The device replication's live pull: one Server-Sent Events stream for all collections
 * (`GET /api/replication/stream`, replication-protocol.ts; browsers allow ~6 connections per
 * host), fed into each collection's RxDB `pull.stream$` (https://rxdb.info/replication-http.html).
 * On (re)connection every collection resyncs by checkpoint; a dropped stream is retried after 1 s,
 * doubling to 30 s; 401 and 426 end it. Used by replication-client.ts.
 */
import { BehaviorSubject, type Subject } from 'rxjs';
import { COLLECTION_NAMES, REPLICATED_COLLECTIONS, type CollectionName, type StreamMessage } from './replication-protocol.ts';
import { ReplicationHttpError, type ReplicationRequests } from './replication-request.ts';

function isNetworkError(err: unknown): boolean {
  return err instanceof TypeError || (err instanceof Error && (err.name === 'AbortError' || /fetch failed|network/i.test(err.message)));
}

/** A running live stream. */
export interface ReplicationStream {
  /** true while the stream is connected. */
  up$: BehaviorSubject<boolean>;
  /** When the stream is down: connects again at once, the back-off reset. */
  reconnect(): void;
  /** Closes the stream for good (no more retries). */
  stop(): void;
}

/**
 * Opens the live stream at once. Each message's documents go to `streams[collection]` (with their
 * checkpoint), `'RESYNC'` to every collection on connection and on a `resync` message; `merge`
 * sees the stamps of writable collections' documents (the conflict clock, hlc.ts).
 */
export function startReplicationStream(
  request: ReplicationRequests['request'],
  streams: Record<CollectionName, Subject<any>>,
  merge: (stamp: unknown) => void,
): ReplicationStream {
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

  return {
    up$: streamUp$,
    reconnect() {
      if (!streamUp$.value) {
        if (retryTimer) clearTimeout(retryTimer);
        retryDelay = 1000;
        streamAbort?.abort();
        void runStream();
      }
    },
    stop() {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      streamAbort?.abort();
    },
  };
}
