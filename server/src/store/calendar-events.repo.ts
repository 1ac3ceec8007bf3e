/**
 * SQL of the derived events (calendar_events) and busy intervals (busy_intervals) of a connection:
 * the diffing write of a re-derivation (replaceDerived), the owner's reads, and the keyed hash a
 * confirmed meeting's copy is found by (eventUidKey). Titles, UIDs and source calendars are sealed
 * at rest with the server key (lib/crypto.ts sealContent, the `key` parameters).
 */
import { createHash } from 'node:crypto';
import { openContent, openNullable, sealContent, sealNullable, secretFingerprint } from '../lib/crypto.ts';
import type { Kysely, Transaction } from 'kysely';
import type { CalendarEventRow, Database } from '../db/schema.ts';
import type { Stamper } from './repl-clock.repo.ts';
import { clearTombstones, writeTombstones } from './tombstones.repo.ts';

type Q = Kysely<Database> | Transaction<Database>;

const INSERT_BATCH = 400;

/**
 * Lets the event loop run between two batches of a big write (timers, sockets, requests that do
 * not need this connection). The write stays one transaction: all-or-nothing.
 */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * The keyed hash a derived event is found by in SQL (0018_event_uid_key): HMAC-SHA256 with `key`
 * (the server key) of `uid\n<UID>`, 64 hex chars. The UID itself is stored sealed with a random IV,
 * so equal UIDs differ on disk; this hash does not. Used by store/proposals.repo.ts
 * confirmedMeetingTimes to find a confirmed meeting's calendar copy.
 */
export function eventUidKey(uid: string, key: Uint8Array): string {
  return secretFingerprint(`uid\n${uid}`, key);
}

export interface DerivedRows {
  events: Array<{
    uid: string;
    title: string;
    start: number;
    end: number;
    allDay: boolean;
    isBusy: boolean;
    dependsOnOwnerZone: boolean;
    /** single | recurring | override (shared/src/ical/calendar.ts EventInstance.origin). */
    origin?: 'single' | 'recurring' | 'override';
    /** The source's calendar_url; null when unknown. */
    calendar?: string | null;
  }>;
  intervals: Array<{ start: number; end: number; dependsOnOwnerZone: boolean }>;
}

/**
 * Stable id of a derived event: sha256(connection id, UID, start ms), 32 hex chars; the n-th
 * duplicate of the same (UID, start) in one derivation gets `n` mixed in. Same data → same ids, so
 * a re-sync can diff instead of delete + insert.
 */
function eventId(connectionId: string, uid: string, startMs: number, duplicate = 0): string {
  const h = createHash('sha256').update(`${connectionId}\n${uid}\n${startMs}`);
  if (duplicate > 0) h.update(`\n${duplicate}`);
  return h.digest('hex').slice(0, 32);
}

/**
 * Replaces a connection's derived events and busy intervals. Call inside replicatedWrite.
 * Events are diffed by their stable id: new rows are inserted and changed rows updated with the
 * write's stamp, vanished rows are deleted and leave a tombstone; unchanged events are not written
 * at all (an unchanged re-sync writes zero event rows). Busy intervals (not replicated) are replaced.
 * Rows go in batches of 400 with a yield to the event loop between batches; the derivation's
 * budgets (sync/derive.ts: ≤ 20,000 events and busy intervals per connection) bound the whole write.
 * Event titles, UIDs and source calendars are stored sealed with `key` (lib/crypto.ts sealContent; a UID often
 * carries an e-mail address or host name — issue 26). Events are matched in memory (their id is
 * derived from connection, UID and start); SQL that needs an event by UID selects by its keyed hash
 * `uid_key` (eventUidKey), written with every inserted or updated row.
 */
export async function replaceDerived(db: Q, conn: { id: string; user_id: string }, derived: DerivedRows, stamp: Stamper, key: Uint8Array): Promise<void> {
  await db.deleteFrom('busy_intervals').where('connection_id', '=', conn.id).execute();
  await syncEvents(db, conn, derived.events, stamp, key);
  for (let i = 0; i < derived.intervals.length; i += INSERT_BATCH) {
    await yieldToEventLoop();
    await db
      .insertInto('busy_intervals')
      .values(
        derived.intervals.slice(i, i + INSERT_BATCH).map((b) => ({
          id: crypto.randomUUID(),
          user_id: conn.user_id,
          connection_id: conn.id,
          start_ms: b.start,
          end_ms: b.end,
          depends_on_owner_zone: b.dependsOnOwnerZone ? 1 : 0,
        })),
      )
      .execute();
  }
}

/** The columns of a derived event a re-derivation compares and writes (the row without its owner, connection and stamp). */
type EventFields = Omit<CalendarEventRow, 'user_id' | 'connection_id' | 'updated_at' | 'uid_key'>;

function sameEvent(a: EventFields, b: EventFields): boolean {
  return (
    a.uid === b.uid &&
    a.title === b.title &&
    Number(a.start_ms) === Number(b.start_ms) &&
    Number(a.end_ms) === Number(b.end_ms) &&
    Number(a.all_day) === Number(b.all_day) &&
    Number(a.is_busy) === Number(b.is_busy) &&
    Number(a.depends_on_owner_zone) === Number(b.depends_on_owner_zone) &&
    a.origin === b.origin &&
    a.source_calendar === b.source_calendar
  );
}

async function syncEvents(db: Q, conn: { id: string; user_id: string }, events: DerivedRows['events'], stamp: Stamper, key: Uint8Array): Promise<void> {
  const wanted = new Map<string, EventFields>();
  const seen = new Map<string, number>();
  for (const e of events) {
    const key = `${e.uid}\n${e.start}`;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    const id = eventId(conn.id, e.uid, e.start, n);
    wanted.set(id, {
      id,
      uid: e.uid,
      title: e.title,
      start_ms: e.start,
      end_ms: e.end,
      all_day: e.allDay ? 1 : 0,
      is_busy: e.isBusy ? 1 : 0,
      depends_on_owner_zone: e.dependsOnOwnerZone ? 1 : 0,
      origin: e.origin ?? null,
      source_calendar: e.calendar ?? null,
    });
  }
  const current = await db
    .selectFrom('calendar_events')
    .select(['id', 'uid', 'title', 'start_ms', 'end_ms', 'all_day', 'is_busy', 'depends_on_owner_zone', 'origin', 'source_calendar'])
    .where('connection_id', '=', conn.id)
    .execute();
  // Titles are stored sealed (random IV, so equal titles differ on disk): compare the opened ones,
  // opening them (~6 µs each) in batches that yield to the event loop, like the writes below.
  // Legacy plain titles are sealed by the start-up pass (sealCalendarContent), not here.
  const have = new Map(current.map((r) => [r.id, r]));
  const inserts: EventFields[] = [];
  const updates: EventFields[] = [];
  let compared = 0;
  for (const [id, e] of wanted) {
    const old = have.get(id);
    if (!old) {
      inserts.push(e);
      continue;
    }
    if (++compared % INSERT_BATCH === 0) await yieldToEventLoop();
    if (!sameEvent({ ...old, title: openContent(old.title, key), uid: openContent(old.uid, key), source_calendar: openNullable(old.source_calendar, key) }, e)) updates.push(e);
  }
  const removed = current.filter((r) => !wanted.has(r.id)).map((r) => r.id);
  if (inserts.length === 0 && updates.length === 0 && removed.length === 0) return;
  const updatedAt = await stamp('calendar_events');
  for (let i = 0; i < removed.length; i += INSERT_BATCH) {
    await yieldToEventLoop();
    await db.deleteFrom('calendar_events').where('id', 'in', removed.slice(i, i + INSERT_BATCH)).execute();
  }
  await writeTombstones(db, conn.user_id, 'calendar_events', removed, updatedAt);
  for (let n = 0; n < updates.length; n++) {
    if (n % INSERT_BATCH === 0) await yieldToEventLoop();
    const { id, ...fields } = updates[n]!;
    await db
      .updateTable('calendar_events')
      .set({
        ...fields,
        title: sealContent(fields.title, key),
        uid: sealContent(fields.uid, key),
        uid_key: eventUidKey(fields.uid, key),
        source_calendar: sealNullable(fields.source_calendar, key),
        updated_at: updatedAt,
      })
      .where('id', '=', id)
      .execute();
  }
  await clearTombstones(db, conn.user_id, 'calendar_events', inserts.map((e) => e.id));
  for (let i = 0; i < inserts.length; i += INSERT_BATCH) {
    await yieldToEventLoop();
    await db
      .insertInto('calendar_events')
      .values(
        inserts
          .slice(i, i + INSERT_BATCH)
          .map((e) => ({
            ...e,
            title: sealContent(e.title, key),
            uid: sealContent(e.uid, key),
            uid_key: eventUidKey(e.uid, key),
            source_calendar: sealNullable(e.source_calendar, key),
            user_id: conn.user_id,
            connection_id: conn.id,
            updated_at: updatedAt,
          })),
      )
      .execute();
  }
}

/** The owner's events overlapping [start, end), with their connection's provider; titles opened with `key`. */
export async function listEvents(db: Q, userId: string, start: number, end: number, key: Uint8Array) {
  const rows = await db
    .selectFrom('calendar_events')
    .innerJoin('calendar_connections', 'calendar_connections.id', 'calendar_events.connection_id')
    .select([
      'calendar_events.id',
      'calendar_events.title',
      'calendar_events.start_ms',
      'calendar_events.end_ms',
      'calendar_events.all_day',
      'calendar_events.is_busy',
      'calendar_events.connection_id',
      'calendar_connections.provider',
    ])
    .where('calendar_events.user_id', '=', userId)
    .where('calendar_connections.user_id', '=', userId)
    .where('calendar_events.start_ms', '<', end)
    .where('calendar_events.end_ms', '>', start)
    .orderBy('calendar_events.start_ms')
    .orderBy('calendar_events.id')
    .execute();
  return rows.map((r) => ({ ...r, title: openContent(r.title, key) }));
}

/** One of the owner's events with the columns that explain it (title and UID opened), or undefined. */
export async function findEventOfUser(db: Q, userId: string, id: string, key: Uint8Array) {
  const row = await db
    .selectFrom('calendar_events')
    .select(['id', 'connection_id', 'uid', 'title', 'start_ms', 'end_ms', 'all_day', 'is_busy', 'origin', 'source_calendar'])
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? { ...row, title: openContent(row.title, key), uid: openContent(row.uid, key), source_calendar: openNullable(row.source_calendar, key) } : undefined;
}
