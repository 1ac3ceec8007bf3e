/**
 * Table interfaces of the owner's writable replicated documents (availability rules and exceptions,
 * busy blocks) and of the replication bookkeeping (tombstones of hard deletes, the conflict log).
 * Conventions (see schema.ts): instants are epoch milliseconds (`bigint` columns, read as `number`), booleans
 * integers 0/1, ids text (crypto.randomUUID()). `Generated<T>`: a column with a database default (may be omitted on insert).
 */
import type { Generated } from 'kysely';

export interface AvailabilityRulesTable {
  id: string;
  user_id: string;
  /** 0 = Monday … 6 = Sunday. */
  weekday: number;
  start_time_local: string;
  end_time_local: string;
  created_at: number;
  /** Replication stamp (epoch ms) from users.repl_clock; orders pulls. */
  updated_at: number;
  is_deleted: Generated<number>;
  /** When the edit was made (epoch ms, the editing device's clock; REST: server now). Decides conflicts. */
  edited_at: Generated<number>;
  /** Author of the edit: a device id, or 'server' for REST writes. */
  device_id: Generated<string>;
}

export interface AvailabilityExceptionsTable {
  id: string;
  user_id: string;
  /** YYYY-MM-DD in the owner's zone. */
  date: string;
  start_time_local: string | null;
  end_time_local: string | null;
  created_at: number;
  /** Replication stamp (epoch ms) from users.repl_clock; orders pulls. */
  updated_at: number;
  is_deleted: Generated<number>;
  /** When the edit was made (epoch ms, the editing device's clock; REST: server now). Decides conflicts. */
  edited_at: Generated<number>;
  /** Author of the edit: a device id, or 'server' for REST writes. */
  device_id: Generated<string>;
}

/** A time the owner marked busy by hand (issue 10); replicated (writable) like rules and exceptions. */
export interface BusyBlocksTable {
  /** crypto.randomUUID() (or the device's id for blocks made offline). */
  id: string;
  user_id: string;
  /** Busy interval [start_ms, end_ms), UTC epoch ms; end > start, at most 14 days. */
  start_ms: number;
  end_ms: number;
  /** The owner's note (≤ 200 characters), null = none. Owner-only: never in a public answer. */
  note: string | null;
  /** When the edit was made (epoch ms, the editing device's clock; REST: server now). Decides conflicts. */
  edited_at: number;
  /** Author of the edit: a device id, or 'server' for REST writes. */
  device_id: string;
  /** Replication stamp (epoch ms) from users.repl_clock; orders pulls. */
  updated_at: number;
  /** 1 = deleted (kept so the delete replicates). */
  is_deleted: Generated<number>;
}

/** A hard-deleted read-only replicated document (calendar_events, calendar_connections): pulls return it as `_deleted`. */
export interface ReplicationTombstonesTable {
  user_id: string;
  /** A CollectionName of shared/src/rx/replication-protocol.ts. */
  collection: string;
  id: string;
  updated_at: number;
}

/** Conflict log of pushes: the losing state is kept here, never silently dropped. */
export interface ReplicationConflictsTable {
  id: string;
  user_id: string;
  collection: string;
  doc_id: string;
  winner_json: string;
  loser_json: string;
  /** 'delete_wins' | 'latest_edit' | 'device_tiebreak'. */
  reason: string;
  /** device_id of the pushed (incoming) state. */
  device_id: string | null;
  created_at: number;
}
