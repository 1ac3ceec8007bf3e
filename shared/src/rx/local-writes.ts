/**
 * Local-first writes of the owner's weekly rules, date exceptions and busy blocks: each write lands
 * in the device's RxDB at once (the UI updates from its reactive queries) and is marked pending
 * until the server acknowledges it (see replication-client.ts). Inputs are validated with the same
 * zod schemas as the REST calls, so a device never queues a write the server would refuse.
 *
 * Units: times `HH:MM` local to the owner's zone, weekday 0 = Monday, dates `YYYY-MM-DD`; busy
 * blocks' `start_ms`/`end_ms` are UTC epoch ms.
 */
import { exceptionSchema, weeklyRulesSchema } from '../schemas/availability.schema.ts';
import { busyBlockSchemaAt } from '../schemas/block.schema.ts';
import { modifyLocal, type AvailDatabase } from './avail-database.ts';
import { clockOf } from './clock-store.ts';
import type { WritableCollectionName } from './replication-protocol.ts';
import { pendingEditOf, stampEdit, type PendingEdit, type StoredPendingEdit } from './stamp-correction.ts';
import type { BlockDoc, ExceptionDoc, RuleDoc } from './rx-schemas.ts';

/**
 * Local document holding `{ [collection/id]: PendingEdit }` of writes the server has not
 * acknowledged yet: the edit's stamp, and the wall-clock time, offset and causal floor it was made
 * with, so a push can re-stamp it (stamp-correction.ts). Entries written before issue 25 are bare
 * stamps.
 */
export const PENDING_LOCAL_ID = 'pending-writes';
export type PendingMap = Record<string, StoredPendingEdit>;

/** One local write to mark pending: the document and its edit (stamp `edited_at` and clock context). */
export interface PendingWrite {
  collection: WritableCollectionName;
  id: string;
  edit: PendingEdit;
}

export function pendingKey(collection: WritableCollectionName, id: string): string {
  return `${collection}/${id}`;
}

const queues = new WeakMap<AvailDatabase, Promise<unknown>>();
/**
 * Serializes read-modify-write of the pending map per database; `modifyLocal` re-applies `fn` to
 * the stored map when another tab wrote it meanwhile, so no tab's entry is lost or revived.
 */
function updatePending(db: AvailDatabase, fn: (m: PendingMap) => PendingMap): Promise<void> {
  const prev = queues.get(db) ?? Promise.resolve();
  const next = prev.then(async () => {
    if (db.closed) return;
    await modifyLocal<{ map: PendingMap }>(db, PENDING_LOCAL_ID, (cur) => ({ map: fn({ ...(cur?.map ?? {}) }) }));
  });
  queues.set(db, next.catch(() => undefined));
  return next;
}

/** Marks writes pending (called by every local write). */
export function markPending(db: AvailDatabase, entries: ReadonlyArray<PendingWrite>): Promise<void> {
  return updatePending(db, (m) => {
    for (const e of entries) m[pendingKey(e.collection, e.id)] = e.edit;
    return m;
  });
}

/** Clears acknowledged writes; a newer local edit of the same doc (larger edited_at) stays pending. */
export function clearPending(db: AvailDatabase, acked: ReadonlyArray<{ collection: WritableCollectionName; id: string; edited_at: number }>): Promise<void> {
  return updatePending(db, (m) => {
    for (const a of acked) {
      const k = pendingKey(a.collection, a.id);
      const cur = pendingEditOf(m[k]);
      if (cur !== undefined && cur.at <= a.edited_at) delete m[k];
    }
    return m;
  });
}

/**
 * Remembers the stamp each pending edit is pushed with (`PendingEdit.sent`), so a retry whose
 * answer was lost sends the same one. Entries edited again meanwhile (another `at`) are left alone.
 */
export function recordSentStamps(db: AvailDatabase, sent: ReadonlyArray<{ collection: WritableCollectionName; id: string; at: number; sent: number }>): Promise<void> {
  if (sent.length === 0) return Promise.resolve();
  return updatePending(db, (m) => {
    for (const s of sent) {
      const k = pendingKey(s.collection, s.id);
      const cur = pendingEditOf(m[k]);
      if (cur && cur.at === s.at) m[k] = { ...cur, sent: s.sent };
    }
    return m;
  });
}

/** Current pending map (`{}` when nothing is pending). */
export async function readPending(db: AvailDatabase): Promise<PendingMap> {
  const doc = await db.getLocal<{ map: PendingMap }>(PENDING_LOCAL_ID);
  return { ...(doc?.get('map') ?? {}) };
}

export interface RuleInput {
  weekday: number;
  start_time_local: string;
  end_time_local: string;
}

/** A soft delete stamped with the edit's time and device (RxDB replicates `_deleted`). */
function markDeleted<T extends { edited_at: number; device_id: string; updated_at: number }>(data: T, now: number, deviceId: string): T {
  const out = { ...data, edited_at: now, device_id: deviceId, updated_at: now } as T & { _deleted: boolean };
  out._deleted = true;
  return out;
}

/**
 * A local edit of `db`: its stamp from the database's hybrid logical clock (hlc.ts, larger than
 * every stamp this device has sent or seen) and the context to re-stamp it (stamp-correction.ts).
 */
export function newEdit(db: AvailDatabase): PendingEdit {
  return stampEdit(clockOf(db));
}

/**
 * Replaces the weekly schedule with `rules` as a per-document diff: unchanged rules are kept
 * (their ids and revisions untouched, so another device's edit of a different rule never
 * conflicts), changed ones are updated, missing ones deleted, new ones inserted.
 * @throws ZodError (with the spec's messages) when a rule is invalid or slots of one day repeat or
 *   overlap (path `<i>.start_time_local`, the later slot); nothing is written then.
 */
export async function replaceRulesLocal(db: AvailDatabase, deviceId: string, rules: ReadonlyArray<RuleInput & { id?: string }>): Promise<void> {
  // The same rules as the server's list form: repeated or overlapping slots of a day are refused here too.
  weeklyRulesSchema.parse(rules);
  const current = await db.availability_rules.find().exec();
  const byId = new Map(current.map((d) => [d.id, d]));
  const edit = newEdit(db);
  const now = edit.at;
  const writes: RuleDoc[] = [];
  const keep = new Set<string>();
  for (const r of rules) {
    const old = r.id ? byId.get(r.id) : undefined;
    if (old) {
      keep.add(old.id);
      if (old.weekday === r.weekday && old.start_time_local === r.start_time_local && old.end_time_local === r.end_time_local) continue;
    }
    writes.push({
      id: old?.id ?? crypto.randomUUID(),
      weekday: r.weekday,
      start_time_local: r.start_time_local,
      end_time_local: r.end_time_local,
      edited_at: now,
      device_id: deviceId,
      updated_at: now,
    });
  }
  const removed = current.filter((d) => !keep.has(d.id));
  if (writes.length) await db.availability_rules.bulkUpsert(writes);
  // One revision per delete that carries this device's edit stamp (no intermediate live state
  // that could reach the server on its own).
  for (const d of removed) await d.incrementalModify((data) => markDeleted(data, now, deviceId));
  const deletes = removed.map((d) => ({ id: d.id }));
  await markPending(db, [...writes, ...deletes].map((d) => ({ collection: 'availability_rules' as const, id: d.id, edit })));
}

/** Adds or updates one date exception. @throws ZodError when invalid. Returns the stored doc. */
export async function putExceptionLocal(
  db: AvailDatabase,
  deviceId: string,
  input: { id?: string; date: string; start_time_local: string | null; end_time_local: string | null },
): Promise<ExceptionDoc> {
  exceptionSchema.parse({ date: input.date, start_time_local: input.start_time_local, end_time_local: input.end_time_local });
  const edit = newEdit(db);
  const now = edit.at;
  const doc: ExceptionDoc = {
    id: input.id ?? crypto.randomUUID(),
    date: input.date,
    start_time_local: input.start_time_local,
    end_time_local: input.end_time_local,
    edited_at: now,
    device_id: deviceId,
    updated_at: now,
  };
  await db.availability_exceptions.upsert(doc);
  await markPending(db, [{ collection: 'availability_exceptions', id: doc.id, edit }]);
  return doc;
}

/** Deletes one exception (soft delete that replicates). No-op when it does not exist. */
export async function deleteExceptionLocal(db: AvailDatabase, deviceId: string, id: string): Promise<void> {
  const cur = await db.availability_exceptions.findOne(id).exec();
  if (!cur) return;
  const edit = newEdit(db);
  await cur.incrementalModify((data) => markDeleted(data, edit.at, deviceId));
  await markPending(db, [{ collection: 'availability_exceptions', id, edit }]);
}

/** A new busy block: `[start_ms, end_ms)` in UTC epoch ms; `note` owner-only (≤ 200 characters, blank = none). */
export interface BlockInput {
  start_ms: number;
  end_ms: number;
  note?: string | null;
}

/**
 * Adds one busy block on the device (marked pending until the server has it). `now` (UTC epoch ms,
 * default the device clock) is the instant the "already over" check uses.
 * @returns the stored document (note trimmed; blank → null).
 * @throws ZodError with the message 'The end must be after the start.', 'A busy block can last at
 *   most 14 days.', 'The note can be at most 200 characters.' or 'This time is already over.'
 *   (end ≤ now); nothing is written then.
 */
export async function addBlockLocal(db: AvailDatabase, deviceId: string, input: BlockInput, now: number = Date.now()): Promise<BlockDoc> {
  const block = busyBlockSchemaAt(now).parse({ start_ms: input.start_ms, end_ms: input.end_ms, note: input.note });
  const edit = newEdit(db);
  const edited = edit.at;
  const doc: BlockDoc = {
    id: crypto.randomUUID(),
    start_ms: block.start_ms,
    end_ms: block.end_ms,
    note: block.note,
    edited_at: edited,
    device_id: deviceId,
    updated_at: edited,
  };
  await db.busy_blocks.insert(doc);
  await markPending(db, [{ collection: 'busy_blocks', id: doc.id, edit }]);
  return doc;
}

/** Deletes one busy block (soft delete that replicates; the time is free again). No-op when it does not exist. */
export async function deleteBlockLocal(db: AvailDatabase, deviceId: string, id: string): Promise<void> {
  const cur = await db.busy_blocks.findOne(id).exec();
  if (!cur) return;
  const edit = newEdit(db);
  await cur.incrementalModify((data) => markDeleted(data, edit.at, deviceId));
  await markPending(db, [{ collection: 'busy_blocks', id, edit }]);
}
