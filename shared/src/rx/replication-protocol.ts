/**
 * The HTTP replication protocol between a device's RxDB and the server (RxDB "HTTP replication":
 * https://rxdb.info/replication-http.html). One set of endpoints, the collection in the path.
 *
 * - `GET  /api/replication/:collection/pull?id=&updated_at=&limit=` → 200 `PullResponse`:
 *   documents with (updated_at, id) strictly after the checkpoint, ordered by updated_at then id,
 *   at most `limit` (1..1000, default 200). No `id`/`updated_at` = from the beginning.
 * - `POST /api/replication/:collection/push` body `PushRow[]` (≤ 500 rows) → 200 `Doc[]`: only the
 *   conflicting master documents (empty array = all applied). The whole batch is applied in one
 *   transaction. Read-only collections answer 405.
 * - `GET  /api/replication/time` → 200 `{ server_time }` (UTC epoch ms): the server's clock.
 * - `GET  /api/replication/stream` → `text/event-stream`; each `data:` line is a `StreamMessage`
 *   (JSON). Changes made by any device, REST call or sync job reach the stream within a second.
 *
 * All three: `Authorization: Bearer <token>` (the session token; verified owners only: 401/403);
 * header `X-Avail-Schema: <REPLICATION_SCHEMA_VERSION>` — a client below `MIN_CLIENT_SCHEMA_VERSION`
 * gets 426 `{ error, code: 'client_outdated' }`; unknown collection 404; bad input 400/422.
 */
import type { WithDeleted } from 'rxdb';
import type { BlockDoc, ConnectionDoc, EventDoc, ExceptionDoc, ProfileDoc, ProposalDoc, RuleDoc } from './rx-schemas.ts';

/**
 * Schema version this client speaks; sent as `X-Avail-Schema`. Bump with any wire-shape change.
 * - 1: rules, exceptions, events, connections, profile; later busy blocks (issue 16) and proposals
 *   (issue 24) were added without a bump.
 * - 2 (issue 25): the busy blocks and proposals collections with their fields as they are now;
 *   stamps at most 5 minutes ahead of the server (422 `clock_ahead` with `server_time`, which the
 *   client answers by re-stamping and pushing once); `GET /api/replication/time`.
 */
export const REPLICATION_SCHEMA_VERSION = 2;
/**
 * Oldest client schema version the server still accepts; older clients get HTTP 426
 * `{ error, code: 'client_outdated' }`, which every version shows as "outdated" (reload or
 * update) — a version-1 client would otherwise retry a `clock_ahead` refusal forever.
 */
export const MIN_CLIENT_SCHEMA_VERSION = 2;
export const SCHEMA_HEADER = 'X-Avail-Schema';

export const PULL_LIMIT_DEFAULT = 200;
export const PULL_LIMIT_MAX = 1000;
export const PUSH_BATCH_MAX = 500;
/** The stream sends a comment line this often so proxies keep it open and dead clients are noticed (ms). */
export const STREAM_HEARTBEAT_MS = 15_000;

/** Collections a device replicates, with whether the device may push to them. */
export const REPLICATED_COLLECTIONS = {
  availability_rules: { writable: true },
  availability_exceptions: { writable: true },
  busy_blocks: { writable: true },
  calendar_events: { writable: false },
  calendar_connections: { writable: false },
  profile: { writable: false },
  proposals: { writable: true },
} as const;
export type CollectionName = keyof typeof REPLICATED_COLLECTIONS;
export const COLLECTION_NAMES = Object.keys(REPLICATED_COLLECTIONS) as CollectionName[];
export type WritableCollectionName = {
  [K in CollectionName]: (typeof REPLICATED_COLLECTIONS)[K]['writable'] extends true ? K : never;
}[CollectionName];

export function isCollectionName(name: string): name is CollectionName {
  return Object.prototype.hasOwnProperty.call(REPLICATED_COLLECTIONS, name);
}

export interface DocTypes {
  availability_rules: RuleDoc;
  availability_exceptions: ExceptionDoc;
  busy_blocks: BlockDoc;
  calendar_events: EventDoc;
  calendar_connections: ConnectionDoc;
  profile: ProfileDoc;
  proposals: ProposalDoc;
}

/** Pull position: the last document seen, ordered by (updated_at, id). */
export interface Checkpoint {
  id: string;
  updated_at: number;
}

export interface PullResponse<T> {
  documents: WithDeleted<T>[];
  /** Checkpoint of the last returned document; the request's own checkpoint when none returned. */
  checkpoint: Checkpoint | null;
}

/** One pushed document: what the device believes the server has, and its new state. */
export interface PushRow<T> {
  assumedMasterState?: WithDeleted<T> | null;
  newDocumentState: WithDeleted<T>;
}

/** One SSE message: changed documents of one collection since the stream's last checkpoint, or RESYNC. */
export type StreamMessage =
  | { collection: CollectionName; documents: WithDeleted<DocTypes[CollectionName]>[]; checkpoint: Checkpoint }
  | { resync: true };

/**
 * A version of a weekly rule, date exception or busy block that lost to another device's
 * (GET /me/conflicts). `replaced` / `kept` hold `id`, `edited_at`, `device_id`, `_deleted` and the
 * collection's fields (rules: weekday, start_time_local, end_time_local; exceptions: date,
 * start_time_local, end_time_local; blocks: start_ms, end_ms, note).
 */
export interface ReplacedVersion {
  id: string;
  collection: 'availability_rules' | 'availability_exceptions' | 'busy_blocks';
  docId: string;
  /** 'delete_wins' (the other device deleted it), 'latest_edit' (a later edit won), 'device_tiebreak'. */
  reason: string;
  /** When the server decided (ISO 8601, UTC). */
  decidedAt: string;
  replaced: Record<string, unknown>;
  kept: Record<string, unknown>;
  /** Device id of the winning version ('server' for a change made through the web API). */
  byDevice: string;
}
