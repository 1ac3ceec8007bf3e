/**
 * /api/replication/* — the RxDB HTTP replication endpoints (https://rxdb.info/replication-http.html);
 * the contract is shared/src/rx/replication-protocol.ts. Every endpoint: header
 * `X-Avail-Schema` ≥ MIN_CLIENT_SCHEMA_VERSION (else 426 `client_outdated`), then
 * `Authorization: Bearer <token>` (401) of a verified owner (403). A user only ever reads and
 * writes their own documents. Instants are UTC epoch ms.
 */
import { Router, type NextFunction, type Request, type Response } from 'express';
import {
  MIN_CLIENT_SCHEMA_VERSION,
  REPLICATED_COLLECTIONS,
  SCHEMA_HEADER,
  isCollectionName,
  type CollectionName,
  type WritableCollectionName,
} from '@avail/shared/rx/replication-protocol.ts';
import { authenticate, currentUser, requireVerified } from '../../http/authenticate.ts';
import type { Deps } from '../../http/deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { SERVER_TIME_HEADER } from '@avail/shared/rx/hlc.ts';
import { parsePullQuery, pull, push } from './replication.service.ts';
import { serveStream, type StreamOptions } from './replication.stream.ts';

const CLIENT_OUTDATED_MESSAGE = 'This version of Avail is too old to sync. Please reload or update the app.';

/** Middleware: 426 `{ error, code: 'client_outdated' }` when X-Avail-Schema is missing, malformed or too old. */
function requireSchemaVersion(req: Request, _res: Response, next: NextFunction) {
  const raw = req.get(SCHEMA_HEADER);
  const version = raw !== undefined && /^\s*\d{1,6}\s*$/.test(raw) ? Number(raw) : NaN;
  if (!(version >= MIN_CLIENT_SCHEMA_VERSION)) throw new HttpError(426, 'client_outdated', CLIENT_OUTDATED_MESSAGE);
  next();
}

function collectionOf(req: Request): CollectionName {
  const name = String(req.params.collection);
  if (!isCollectionName(name)) throw notFound('Unknown collection');
  return name;
}

export interface ReplicationRouterOptions {
  stream?: StreamOptions;
}

/** Router for /api/replication (mount under /api). */
export function replicationRouter(deps: Deps, options: ReplicationRouterOptions = {}) {
  const r = Router();
  // Every replication answer (errors included) carries the server's clock, which corrects the
  // device's conflict clock (shared/src/rx/hlc.ts).
  r.use('/replication', (_req, res, next) => {
    res.setHeader(SERVER_TIME_HEADER, String(deps.now()));
    next();
  });
  r.use('/replication', requireSchemaVersion, authenticate(deps), requireVerified);

  /**
   * GET /api/replication/stream → 200 `text/event-stream`. `data:` lines are StreamMessage JSON:
   * `{ collection, documents, checkpoint }` with the caller's documents changed since the last
   * message (any device, REST call or sync job, within a second), or `{ resync: true }` after a
   * server-side problem (the client then pulls by checkpoint). `retry:` on connect, a comment
   * heartbeat every STREAM_HEARTBEAT_MS. 401/403/426 as above.
   */
  r.get('/replication/stream', async (req, res) => {
    await serveStream(deps, currentUser(req).id, req, res, options.stream);
  });

  /**
   * GET /api/replication/time → 200 `{ server_time }` (UTC epoch ms; also in `X-Avail-Time`, as on
   * every replication answer): a device reads the server's clock before its first push of an app
   * run, so edits it made offline are re-stamped with the offset measured now
   * (shared/src/rx/stamp-correction.ts). Nothing is read or written.
   */
  r.get('/replication/time', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ server_time: deps.now() });
  });

  /**
   * GET /api/replication/:collection/pull?id=&updated_at=&limit= → 200
   * `{ documents: Doc[] (with _deleted), checkpoint: { id, updated_at } | null }`: documents with
   * (updated_at, id) strictly after the checkpoint (none = from the beginning), ordered by
   * updated_at then id, at most `limit` (1..1000, default 200). 400 bad query; 404 unknown collection.
   */
  r.get('/replication/:collection/pull', async (req, res) => {
    const collection = collectionOf(req);
    const query = parsePullQuery(req.query as Record<string, unknown>);
    res.json(await pull(deps.db, currentUser(req).id, collection, query, deps.config.AVAIL_SECRET_KEY));
  });

  /**
   * POST /api/replication/:collection/push, body `PushRow[]` (≤ 500) → 200 `Doc[]`: the master
   * documents that won a conflict (empty = all applied); one transaction per batch.
   * 400 malformed body; 404 unknown collection; 405 read-only collection; 409 `id_taken` (an id
   * of another account; nothing applied); 413 more than 500 rows; 422 an invalid document
   * (`errors` keyed `<row>.<field>`; nothing applied), or an `edited_at` stamp more than 5 minutes
   * ahead of the server's clock (code `clock_ahead`, with `server_time` in UTC epoch ms; nothing
   * applied).
   */
  r.post('/replication/:collection/push', async (req, res) => {
    const collection = collectionOf(req);
    if (!REPLICATED_COLLECTIONS[collection].writable) {
      res.setHeader('Allow', 'GET');
      throw new HttpError(405, 'read_only', 'This collection is read-only on devices');
    }
    res.json(await push(deps, currentUser(req).id, collection as WritableCollectionName, req.body));
  });

  return r;
}
