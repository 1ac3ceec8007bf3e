/**
 * SQL of the replication endpoints: pages of one user's documents strictly after a checkpoint in
 * (updated_at, id) order, the latest checkpoint of a collection, and the conflict log.
 * Ids compare byte-wise on both dialects (PostgreSQL: COLLATE "C"), so the database order, the
 * `>` filter and the merge of live rows with tombstones all agree.
 */
import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';
import type { WithDeleted } from 'rxdb';
import type { Checkpoint, CollectionName, DocTypes } from '@avail/shared/rx/replication-protocol.ts';
import type { Db } from '../../db/kysely.ts';
import type { AvailabilityExceptionRow, AvailabilityRuleRow, BusyBlockRow, CalendarConnectionRow, CalendarEventRow, ProposalRow } from '../../db/schema.ts';
import { openContent, sealContent } from '../../lib/crypto.ts';
import { openConnectionTexts } from '../../store/calendars.repo.ts';
import { openProposalTexts } from '../../store/proposals.repo.ts';
import {
  blockDoc,
  connectionDoc,
  connectionTombstoneDoc,
  eventDoc,
  eventTombstoneDoc,
  exceptionDoc,
  profileDoc,
  proposalDoc,
  ruleDoc,
} from './replication.presenter.ts';

type AnyDoc = WithDeleted<DocTypes[CollectionName]>;

export interface Page {
  documents: AnyDoc[];
  /** Checkpoint of the last document, or the given one when the page is empty. */
  checkpoint: Checkpoint | null;
}

function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

function idExpr(db: Db, column: string): RawBuilder<string> {
  return isPostgres(db) ? sql<string>`${sql.ref(column)} collate "C"` : sql<string>`${sql.ref(column)}`;
}

/** Rows of `table` of `userId` after `cp`, ordered by (updated_at, id), at most `limit`. */
async function pageRows<T>(db: Db, table: string, userId: string, cp: Checkpoint | null, limit: number, extra?: (q: any) => any): Promise<T[]> {
  const id = idExpr(db, `${table}.id`);
  let q = (db as unknown as Kysely<any>)
    .selectFrom(table)
    .selectAll()
    .where(`${table}.user_id`, '=', userId);
  if (extra) q = extra(q);
  if (cp) {
    q = q.where((eb: any) =>
      eb.or([eb(`${table}.updated_at`, '>', cp.updated_at), eb.and([eb(`${table}.updated_at`, '=', cp.updated_at), eb(id, '>', cp.id)])]),
    );
  }
  return (await q.orderBy(`${table}.updated_at`, 'asc').orderBy(id, 'asc').limit(limit).execute()) as T[];
}

function byCheckpoint(a: { id: string; updated_at: number }, b: { id: string; updated_at: number }): number {
  if (a.updated_at !== b.updated_at) return a.updated_at - b.updated_at;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

async function tombstonePage(db: Db, userId: string, collection: CollectionName, cp: Checkpoint | null, limit: number) {
  const rows = await pageRows<{ id: string; updated_at: number }>(db, 'replication_tombstones', userId, cp, limit, (q) =>
    q.where('replication_tombstones.collection', '=', collection),
  );
  return rows.map((r) => ({ id: r.id, updated_at: Number(r.updated_at) }));
}

/** Merges live documents and tombstone documents (each already ordered) and keeps the first `limit`. */
function mergePages(live: AnyDoc[], dead: AnyDoc[], limit: number): AnyDoc[] {
  return [...live, ...dead].sort(byCheckpoint).slice(0, limit);
}

/**
 * One page of `collection` for `userId`: documents with (updated_at, id) strictly after `cp`
 * (null = from the beginning), in that order, at most `limit`, as wire documents (`_deleted` set:
 * soft-deleted rules, exceptions and busy blocks; tombstones for events and connections).
 * `key` opens the sealed event titles (lib/crypto.ts).
 */
export async function pullPage(db: Db, userId: string, collection: CollectionName, cp: Checkpoint | null, limit: number, key: Uint8Array): Promise<Page> {
  let documents: AnyDoc[];
  switch (collection) {
    case 'availability_rules':
      documents = (await pageRows<AvailabilityRuleRow>(db, 'availability_rules', userId, cp, limit)).map(ruleDoc);
      break;
    case 'availability_exceptions':
      documents = (await pageRows<AvailabilityExceptionRow>(db, 'availability_exceptions', userId, cp, limit)).map(exceptionDoc);
      break;
    case 'busy_blocks':
      documents = (await pageRows<BusyBlockRow>(db, 'busy_blocks', userId, cp, limit)).map((b) => blockDoc(b, key));
      break;
    case 'proposals':
      // The visitor's texts and the owner's messages are sealed at rest (proposals.repo.ts).
      documents = (await pageRows<ProposalRow>(db, 'proposals', userId, cp, limit)).map((p) => proposalDoc(openProposalTexts(p, key)));
      break;
    case 'calendar_events': {
      // Titles are sealed at rest; the owner's own device gets them opened.
      const live = (await pageRows<CalendarEventRow>(db, 'calendar_events', userId, cp, limit)).map((e) => eventDoc({ ...e, title: openContent(e.title, key) }));
      const dead = (await tombstonePage(db, userId, collection, cp, limit)).map((t) => eventTombstoneDoc(t.id, t.updated_at));
      documents = mergePages(live, dead, limit);
      break;
    }
    case 'calendar_connections': {
      // The name and account are sealed at rest (calendars.repo.ts).
      const live = (await pageRows<CalendarConnectionRow>(db, 'calendar_connections', userId, cp, limit)).map((c) => connectionDoc(openConnectionTexts(c, key)));
      const dead = (await tombstonePage(db, userId, collection, cp, limit)).map((t) => connectionTombstoneDoc(t.id, t.updated_at));
      documents = mergePages(live, dead, limit);
      break;
    }
    case 'profile': {
      const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
      const doc = user ? profileDoc(user) : null;
      documents = doc && (!cp || byCheckpoint(doc, cp) > 0) && limit > 0 ? [doc] : [];
      break;
    }
  }
  const last = documents[documents.length - 1];
  return { documents, checkpoint: last ? { id: last.id, updated_at: last.updated_at } : cp };
}

async function latestOf(db: Db, table: string, userId: string, collection?: CollectionName): Promise<Checkpoint | null> {
  const id = idExpr(db, `${table}.id`);
  let q = (db as unknown as Kysely<any>)
    .selectFrom(table)
    .select([`${table}.id as id`, `${table}.updated_at as updated_at`])
    .where(`${table}.user_id`, '=', userId);
  if (collection) q = q.where(`${table}.collection`, '=', collection);
  const row = await q.orderBy(`${table}.updated_at`, 'desc').orderBy(id, 'desc').limit(1).executeTakeFirst();
  return row ? { id: String(row.id), updated_at: Number(row.updated_at) } : null;
}

/** The checkpoint of the user's newest document of `collection` (tombstones included), or null. */
export async function latestCheckpoint(db: Db, userId: string, collection: CollectionName): Promise<Checkpoint | null> {
  switch (collection) {
    case 'availability_rules':
    case 'availability_exceptions':
    case 'busy_blocks':
    case 'proposals':
      return latestOf(db, collection, userId);
    case 'calendar_events':
    case 'calendar_connections': {
      const candidates = [await latestOf(db, collection, userId), await latestOf(db, 'replication_tombstones', userId, collection)];
      const present = candidates.filter((c): c is Checkpoint => c !== null);
      return present.sort(byCheckpoint).pop() ?? null;
    }
    case 'profile': {
      const user = await db.selectFrom('users').select(['id', 'updated_at']).where('id', '=', userId).executeTakeFirst();
      return user ? { id: user.id, updated_at: Number(user.updated_at) } : null;
    }
  }
}

/**
 * Appends one entry to the conflict log (the losing state is kept, never silently dropped). The two
 * document states are sealed with `key` (they carry block notes: issue 26); listConflicts opens them.
 */
export async function logConflict(
  db: Db,
  entry: { userId: string; collection: CollectionName; docId: string; winner: unknown; loser: unknown; reason: string; deviceId: string | null; now: number },
  key: Uint8Array,
): Promise<void> {
  await db
    .insertInto('replication_conflicts')
    .values({
      id: crypto.randomUUID(),
      user_id: entry.userId,
      collection: entry.collection,
      doc_id: entry.docId,
      winner_json: sealContent(JSON.stringify(entry.winner), key),
      loser_json: sealContent(JSON.stringify(entry.loser), key),
      reason: entry.reason,
      device_id: entry.deviceId,
      created_at: entry.now,
    })
    .execute();
}

/** A stored conflict-log row. `winner_json` / `loser_json` are the two document states (JSON). */
export interface ConflictRow {
  id: string;
  collection: string;
  doc_id: string;
  winner_json: string;
  loser_json: string;
  reason: string;
  created_at: number;
}

/** The user's conflict-log rows created at or after `since` (UTC epoch ms), newest first, at most `limit`; the states opened with `key`. */
export async function listConflicts(db: Db, userId: string, since: number, limit: number, key: Uint8Array): Promise<ConflictRow[]> {
  const rows = await db
    .selectFrom('replication_conflicts')
    .select(['id', 'collection', 'doc_id', 'winner_json', 'loser_json', 'reason', 'created_at'])
    .where('user_id', '=', userId)
    .where('created_at', '>=', since)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, winner_json: openContent(r.winner_json, key), loser_json: openContent(r.loser_json, key), created_at: Number(r.created_at) }));
}
