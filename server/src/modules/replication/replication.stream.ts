/**
 * GET /api/replication/stream — the live part of the RxDB HTTP replication
 * (https://rxdb.info/replication-http.html, "pull.stream$"): a `text/event-stream` whose `data:`
 * lines are StreamMessage JSON (shared/src/rx/replication-protocol.ts).
 *
 * Per connection: a checkpoint per collection, initialised to the user's newest document at
 * connect (the client pulls everything older itself: its stream wrapper emits RESYNC on every
 * (re)connect). When the change bus says a collection of this user changed, the documents after
 * that checkpoint are read and sent as `{ collection, documents, checkpoint }` (pages of at most
 * PULL_LIMIT_MAX); a server-side error sends `{ resync: true }` and starts again from the newest
 * documents. A comment line every STREAM_HEARTBEAT_MS keeps proxies open. Everything is released
 * when the client goes away. The stream ends when its session does (issue 26: signed out from
 * another device, a password change, expiry): checked at every heartbeat and before every read, so
 * an ended session receives no document; the client's reconnect then answers 401.
 */
import type { Request, Response } from 'express';
import { COLLECTION_NAMES, PULL_LIMIT_MAX, STREAM_HEARTBEAT_MS, type Checkpoint, type CollectionName, type StreamMessage } from '@avail/shared/rx/replication-protocol.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/kysely.ts';
import { sessionAlive } from '../../http/authenticate.ts';
import { changeBusFor, type ChangeSignal } from '../../store/change-bus.ts';
import { latestCheckpoint, pullPage } from './replication.repo.ts';

/** Enders of the streams open in this process (closeAllStreams). */
const openStreams = new Set<() => void>();

/**
 * Ends every open stream (graceful shutdown: http.Server.close() would otherwise wait for them).
 * Clients reconnect to another instance, or to this one after the restart, and resync.
 */
export function closeAllStreams(): void {
  for (const end of [...openStreams]) end();
}

export interface StreamOptions {
  /** Heartbeat comment interval (ms); default STREAM_HEARTBEAT_MS. */
  heartbeatMs?: number;
  /** Client reconnect delay announced with `retry:` (ms). */
  retryMs?: number;
}

/** Serves one stream for `userId` on `res` until the request closes. Resolves once set up. */
export async function serveStream(
  deps: { db: Db; now: () => number; logger: { warn(obj: object, msg: string): void }; config: { AVAIL_SECRET_KEY: Uint8Array } & Pick<Config, 'SESSION_IDLE_DAYS' | 'SESSION_MAX_DAYS'> },
  userId: string,
  req: Request,
  res: Response,
  options: StreamOptions = {},
): Promise<void> {
  const { db } = deps;
  let closed = false;
  let running = true; // set-up counts as running: signals only mark collections dirty meanwhile
  let resync = false;
  const dirty = new Set<CollectionName>();
  const checkpoints = new Map<CollectionName, Checkpoint | null>();

  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  req.socket.setNoDelay(true);
  req.socket.setTimeout(0);

  const write = (chunk: string) => {
    if (!closed && !res.writableEnded) res.write(chunk);
  };
  const send = (msg: StreamMessage) => write(`data: ${JSON.stringify(msg)}\n\n`);
  write(`retry: ${options.retryMs ?? 2000}\n\n`);

  const bus = changeBusFor(db);
  const onSignal = (signal: ChangeSignal) => {
    if ('resync' in signal) resync = true;
    else for (const c of signal.collections) dirty.add(c);
    kick();
  };
  const unsubscribe = bus.subscribe(userId, onSignal);
  // The session of the request (authenticate): the stream lives only as long as it does.
  const sessionId = req.authTokenId;
  const stillSignedIn = async (): Promise<boolean> => {
    if (sessionId && !(await sessionAlive(deps, sessionId))) {
      end();
      return false;
    }
    return true;
  };
  const heartbeat = setInterval(() => {
    void stillSignedIn()
      .then((ok) => ok && write(': heartbeat\n\n'))
      .catch(() => write(': heartbeat\n\n'));
  }, options.heartbeatMs ?? STREAM_HEARTBEAT_MS);

  const cleanup = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    unsubscribe();
    openStreams.delete(end);
  };
  const end = () => {
    cleanup();
    if (!res.writableEnded) res.end();
  };
  openStreams.add(end);
  // res 'close' = the connection went away (req 'close' may fire once the request is read).
  res.on('close', cleanup);

  async function initCheckpoints() {
    for (const c of COLLECTION_NAMES) checkpoints.set(c, await latestCheckpoint(db, userId, c));
  }

  async function flush(collection: CollectionName) {
    for (;;) {
      const page = await pullPage(db, userId, collection, checkpoints.get(collection) ?? null, PULL_LIMIT_MAX, deps.config.AVAIL_SECRET_KEY);
      if (closed || page.documents.length === 0) return;
      checkpoints.set(collection, page.checkpoint);
      send({ collection, documents: page.documents, checkpoint: page.checkpoint! });
      if (page.documents.length < PULL_LIMIT_MAX) return;
    }
  }

  let failures = 0;
  async function pump() {
    while (!closed && (resync || dirty.size > 0)) {
      try {
        if (!(await stillSignedIn())) return;
        if (resync) {
          resync = false;
          dirty.clear();
          send({ resync: true });
          await initCheckpoints();
          continue;
        }
        const [collection] = dirty;
        dirty.delete(collection);
        await flush(collection);
        failures = 0;
      } catch (err) {
        deps.logger.warn({ userId, errName: (err as Error)?.name, errCode: (err as { code?: unknown })?.code }, 'replication stream: read failed, asking the client to resync');
        if (++failures >= 3) {
          // The database keeps failing: end the stream; the client reconnects with back-off and pulls.
          send({ resync: true });
          end();
          return;
        }
        resync = true;
        await new Promise((r) => setTimeout(r, 200 * failures));
      }
    }
  }

  function kick() {
    if (running || closed) return;
    running = true;
    void pump().finally(() => {
      running = false;
      if (!closed && (resync || dirty.size > 0)) kick();
    });
  }

  try {
    await bus.ready();
    await initCheckpoints();
  } catch (err) {
    deps.logger.warn({ userId, errName: (err as Error)?.name, errCode: (err as { code?: unknown })?.code }, 'replication stream: set-up failed');
    end();
    return;
  }
  running = false;
  kick();
}
