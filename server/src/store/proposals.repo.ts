/**
 * SQL of visitors' proposals (`proposals`), a shared table: the proposals module (create, decide,
 * list), the replication module (the replicated `proposals` collection) and the public free windows
 * (a confirmed meeting is busy at once) read it. Instants are UTC epoch ms.
 *
 * The visitor's name, e-mail and note and the owner's messages (`message`, `request_message`) and the name of the calendar a confirmed meeting was written
 * to (`calendar_name`) are
 * sealed at rest (issue 26; lib/crypto.ts sealContent with AVAIL_SECRET_KEY, the `key` parameter):
 * every write here seals them, every read here returns them opened (a legacy plain value as is; the
 * start-up pass seals those: store/sealed-text.repo.ts). Nothing looks proposals up by these texts.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Db } from '../db/kysely.ts';
import type { Database, ProposalRow } from '../db/schema.ts';
import { openContent, openNullable, sealContent, sealNullable } from '../lib/crypto.ts';
import { eventUidKey } from './calendar-events.repo.ts';

type Q = Kysely<Database> | Transaction<Database>;

/** The columns a new proposal is inserted with (the rest take their defaults: pending, sequence 0 …). */
export type NewProposal = Pick<ProposalRow, 'id' | 'user_id' | 'start_ms' | 'end_ms' | 'name' | 'email' | 'note' | 'visitor_timezone' | 'visitor_language' | 'created_at' | 'updated_at' | 'edited_at' | 'share_link_id'>;

/** The texts sealed at rest (module comment). */
const SEALED_TEXT = ['name', 'email', 'note', 'message'] as const;
/** …and the nullable ones: the device's request message, the name of the calendar a meeting was written to. */
const SEALED_NULLABLE = ['request_message', 'calendar_name'] as const;

/** `row` with its sealed texts opened with `key` (also for rows read elsewhere, e.g. replication pages). */
export function openProposalTexts(row: ProposalRow, key: Uint8Array): ProposalRow {
  const out = { ...row };
  for (const f of SEALED_TEXT) out[f] = openContent(row[f], key);
  for (const f of SEALED_NULLABLE) out[f] = openNullable(row[f], key);
  return out;
}

/** The fields of `set` with its texts sealed with `key`. */
function sealedSet<T extends Partial<ProposalRow>>(set: T, key: Uint8Array): T {
  const out: Partial<ProposalRow> = { ...set };
  for (const f of SEALED_TEXT) if (typeof set[f] === 'string') out[f] = sealContent(set[f], key);
  for (const f of SEALED_NULLABLE) if (set[f] !== undefined) out[f] = sealNullable(set[f] ?? null, key);
  return out as T;
}

/** Stores one proposal (stamped by the caller's replicatedWrite), its texts sealed with `key`. */
export async function insertProposal(db: Q, row: NewProposal, key: Uint8Array): Promise<void> {
  await db.insertInto('proposals').values({ ...sealedSet(row, key), device_id: 'server' }).execute();
}

/** How many proposals the owner received since `since` (UTC ms, inclusive). */
export async function countProposalsSince(db: Db, userId: string, since: number): Promise<number> {
  const { count } = await db
    .selectFrom('proposals')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('user_id', '=', userId)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** The owner's proposals not dismissed, newest first (then by id), at most `limit`. */
export async function listProposals(db: Db, userId: string, limit: number, key: Uint8Array): Promise<ProposalRow[]> {
  const rows = await db
    .selectFrom('proposals')
    .selectAll()
    .where('user_id', '=', userId)
    .where('dismissed_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => openProposalTexts(r, key));
}

/** One proposal of `userId` (undefined when it is not theirs), texts opened with `key`. */
export async function findProposal(db: Q, userId: string, id: string, key: Uint8Array): Promise<ProposalRow | undefined> {
  const row = await db.selectFrom('proposals').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return row && openProposalTexts(row, key);
}

/** One proposal by id, whoever owns it (the one-click links, replication's id check), texts opened with `key`. */
export async function findProposalById(db: Q, id: string, key: Uint8Array): Promise<ProposalRow | undefined> {
  const row = await db.selectFrom('proposals').selectAll().where('id', '=', id).executeTakeFirst();
  return row && openProposalTexts(row, key);
}

/** Proposals by ids (replication masters), texts opened with `key`. */
export async function findProposalsByIds(db: Q, ids: string[], key: Uint8Array): Promise<ProposalRow[]> {
  if (ids.length === 0) return [];
  return (await db.selectFrom('proposals').selectAll().where('id', 'in', ids).execute()).map((r) => openProposalTexts(r, key));
}

/** Writes `set` on the owner's proposal (texts sealed with `key`); @returns false when it is not theirs. */
export async function updateProposal(db: Q, userId: string, id: string, set: Partial<Omit<ProposalRow, 'id' | 'user_id'>>, key: Uint8Array): Promise<boolean> {
  const r = await db.updateTable('proposals').set(sealedSet(set, key)).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Marks the proposal dismissed (at `now`, UTC ms) only when it belongs to `userId`. The row stays, so
 * dismissing never frees room under the per-owner daily cap; it is removed with the account. A
 * confirmed meeting is never dismissed (it is cancelled first).
 * @returns false when there is no such (undismissed, unconfirmed) proposal of this owner.
 */
export async function dismissProposal(db: Q, userId: string, id: string, now: number, stamp: number): Promise<boolean> {
  const result = await db
    .updateTable('proposals')
    .set({ dismissed_at: now, updated_at: stamp })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('dismissed_at', 'is', null)
    .where('status', '!=', 'confirmed')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The owner's e-mail address and display name (to send the proposal to), or undefined. */
export function findOwnerContact(db: Q, userId: string) {
  return db.selectFrom('users').select(['email', 'name', 'timezone', 'username', 'proposal_target']).where('id', '=', userId).executeTakeFirst();
}

/** Keyed hashes looked up per query (an IN list well under every driver's parameter limit). */
const UID_KEY_BATCH = 500;

/**
 * Busy time of the owner's confirmed meetings overlapping [start, end) (UTC ms), sorted by start —
 * only until the calendar itself answers for the meeting. A meeting is left out once
 * - a BUSY copy of it (its UID: the provider's own, else ours) is among the owner's calendar
 *   events (that event, wherever the owner moved it, is the busy time), or
 * - the calendar it was written to finished a sync that began after the confirmation and holds
 *   no copy at all (the owner deleted it there: the calendar is the truth).
 * A copy that derives as free (a calendar switched off, a busy rule) leaves the meeting busy.
 * Meetings written to no calendar (no writable one; the .ics went to the owner) count while
 * confirmed. Times only: nothing else of a proposal is read.
 *
 * Events' UIDs are stored sealed with a random IV, so a copy is found by its keyed hash
 * (`calendar_events.uid_key`, 0018_event_uid_key): the meeting's UID is hashed here with `key`
 * (the server key, calendars.repo.ts eventUidKey) and looked up with the owner's id.
 */
export async function confirmedMeetingTimes(db: Db, userId: string, start: number, end: number, key: Uint8Array): Promise<Array<{ start: number; end: number }>> {
  const meetings = await db
    .selectFrom('proposals as p')
    .select((eb) => [
      'p.start_ms',
      'p.end_ms',
      'p.uid',
      'p.remote_uid',
      'p.target_connection_id',
      // The calendar it was written to finished a sync that began after the confirmation.
      eb
        .exists(
          eb
            .selectFrom('calendar_connections as c')
            .select(sql<number>`1`.as('one'))
            .whereRef('c.id', '=', 'p.target_connection_id')
            .where(sql<boolean>`c.sync_started_at > p.decided_at and c.last_synced_at >= c.sync_started_at`),
        )
        .as('answered'),
    ])
    .where('p.user_id', '=', userId)
    .where('p.status', '=', 'confirmed')
    .where('p.end_ms', '>', start)
    .where('p.start_ms', '<', end)
    .orderBy('p.start_ms', 'asc')
    .execute();
  if (meetings.length === 0) return [];
  const uidKey = (m: { uid: string | null; remote_uid: string | null }) => {
    const uid = m.remote_uid ?? m.uid;
    return uid == null ? null : eventUidKey(uid, key);
  };
  const keys = [...new Set(meetings.map(uidKey).filter((k): k is string => k !== null))];
  // uid_key → whether one of its copies is busy.
  const copies = new Map<string, boolean>();
  for (let i = 0; i < keys.length; i += UID_KEY_BATCH) {
    const rows = await db
      .selectFrom('calendar_events')
      .select(['uid_key', 'is_busy'])
      .where('user_id', '=', userId)
      .where('uid_key', 'in', keys.slice(i, i + UID_KEY_BATCH))
      .execute();
    for (const r of rows) copies.set(r.uid_key!, copies.get(r.uid_key!) === true || Number(r.is_busy) === 1);
  }
  return meetings
    .filter((m) => {
      const k = uidKey(m);
      const copy = k === null ? undefined : copies.get(k);
      if (copy === true) return false; // a busy copy answers for it
      return m.target_connection_id === null || copy === false || !Number(m.answered);
    })
    .map((m) => ({ start: Number(m.start_ms), end: Number(m.end_ms) }));
}

/** True when another confirmed meeting of the owner overlaps [start, end) (UTC ms): checked inside the confirmation's transaction. */
export async function overlapsConfirmed(db: Q, userId: string, id: string, start: number, end: number): Promise<boolean> {
  const row = await db
    .selectFrom('proposals')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', '=', 'confirmed')
    .where('id', '!=', id)
    .where('start_ms', '<', end)
    .where('end_ms', '>', start)
    .executeTakeFirst();
  return row !== undefined;
}

/** Owners with a device request waiting (startup sweep). */
export async function usersWithRequests(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('proposals').select('user_id').distinct().where('request_action', 'is not', null).where('request_error', 'is', null).execute();
  return rows.map((r) => r.user_id);
}

/**
 * Takes the owner's waiting device requests for this instance: sets `request_claimed_at = now` on
 * each request nobody took in the last `staleMs` and returns those rows (compare-and-set per row, so
 * two instances never carry out the same request).
 */
export async function claimRequests(db: Db, userId: string, now: number, staleMs: number, key: Uint8Array): Promise<ProposalRow[]> {
  const waiting = await db
    .selectFrom('proposals')
    .select(['id', 'request_claimed_at'])
    .where('user_id', '=', userId)
    .where('request_action', 'is not', null)
    .where('request_error', 'is', null)
    .execute();
  const claimed: ProposalRow[] = [];
  for (const w of waiting) {
    if (w.request_claimed_at != null && Number(w.request_claimed_at) > now - staleMs) continue;
    let q = db.updateTable('proposals').set({ request_claimed_at: now }).where('id', '=', w.id).where('request_action', 'is not', null);
    q = w.request_claimed_at == null ? q.where('request_claimed_at', 'is', null) : q.where('request_claimed_at', '=', w.request_claimed_at);
    const r = await q.executeTakeFirst();
    if (Number(r.numUpdatedRows) > 0) {
      const row = await findProposalById(db, w.id, key);
      if (row) claimed.push(row);
    }
  }
  return claimed;
}

/** Stores the owner's sealed choice of calendar for confirmed meetings (null = the default). */
export async function setProposalTarget(db: Q, userId: string, sealed: string | null): Promise<void> {
  await db.updateTable('users').set({ proposal_target: sealed }).where('id', '=', userId).execute();
}

/** Marks the one-click links of proposal `id` used at `now` unless they already were; @returns false then. */
export async function spendLinks(db: Q, id: string, now: number): Promise<boolean> {
  const r = await db.updateTable('proposals').set({ link_used_at: now }).where('id', '=', id).where('link_used_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Gives the links back (the action failed and changed nothing). */
export async function unspendLinks(db: Q, id: string): Promise<void> {
  await db.updateTable('proposals').set({ link_used_at: null }).where('id', '=', id).execute();
}

