/**
 * SQL of calendar connections, their raw sources, derived events and busy intervals.
 * Every query that takes a user id filters by it: one owner never reaches another's rows.
 */
import type { Kysely, Transaction } from 'kysely';
import type { CalendarConnectionRow, CalendarConnectionsTable, Database } from '../../db/schema.ts';
import type { Insertable, Updateable } from 'kysely';

type Q = Kysely<Database> | Transaction<Database>;

const INSERT_BATCH = 400;

export async function listConnections(db: Q, userId: string): Promise<CalendarConnectionRow[]> {
  return db.selectFrom('calendar_connections').selectAll().where('user_id', '=', userId).orderBy('connected_at', 'asc').orderBy('id', 'asc').execute();
}

export async function findConnection(db: Q, userId: string, id: string): Promise<CalendarConnectionRow | undefined> {
  return db.selectFrom('calendar_connections').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
}

export async function findConnectionById(db: Q, id: string): Promise<CalendarConnectionRow | undefined> {
  return db.selectFrom('calendar_connections').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findConnectionsByProvider(db: Q, userId: string, provider: CalendarConnectionRow['provider']) {
  return db.selectFrom('calendar_connections').selectAll().where('user_id', '=', userId).where('provider', '=', provider).execute();
}

export async function insertConnection(db: Q, row: Insertable<CalendarConnectionsTable>): Promise<void> {
  await db.insertInto('calendar_connections').values(row).execute();
}

export async function updateConnection(db: Q, id: string, patch: Updateable<CalendarConnectionsTable>): Promise<void> {
  await db.updateTable('calendar_connections').set(patch).where('id', '=', id).execute();
}

/** Removes a connection with its sources, events and busy intervals. */
export async function deleteConnectionCascade(db: Q, connectionId: string): Promise<void> {
  await db.deleteFrom('busy_intervals').where('connection_id', '=', connectionId).execute();
  await db.deleteFrom('calendar_events').where('connection_id', '=', connectionId).execute();
  await db.deleteFrom('calendar_sources').where('connection_id', '=', connectionId).execute();
  await db.deleteFrom('calendar_connections').where('id', '=', connectionId).execute();
}

/** Connections the backup sync should visit: pull providers whose status is active or error. */
export async function listBackupSyncCandidates(db: Q): Promise<Array<{ id: string }>> {
  return db
    .selectFrom('calendar_connections')
    .select('id')
    .where('status', 'in', ['active', 'error'])
    .where('provider', 'in', ['ics', 'caldav', 'apple'])
    .orderBy('last_synced_at', 'asc')
    .execute();
}

export interface SourceRow {
  id: string;
  calendar_url: string;
  object_href: string;
  etag: string | null;
  ics_text: string;
}

export async function listSources(db: Q, connectionId: string): Promise<SourceRow[]> {
  return db
    .selectFrom('calendar_sources')
    .select(['id', 'calendar_url', 'object_href', 'etag', 'ics_text'])
    .where('connection_id', '=', connectionId)
    .orderBy('calendar_url')
    .orderBy('object_href')
    .execute();
}

/** Applies a provider's changes to the stored raw sources of one connection. */
export async function applySourceChanges(
  db: Q,
  conn: { id: string; user_id: string },
  changes: {
    upserts: Array<{ calendarUrl: string; href: string; etag: string | null; icsText: string }>;
    removals: Array<{ calendarUrl: string; href: string }>;
    removedCalendars: string[];
  },
  now: number,
): Promise<void> {
  for (const cal of changes.removedCalendars) {
    await db.deleteFrom('calendar_sources').where('connection_id', '=', conn.id).where('calendar_url', '=', cal).execute();
  }
  for (const r of changes.removals) {
    await db
      .deleteFrom('calendar_sources')
      .where('connection_id', '=', conn.id)
      .where('calendar_url', '=', r.calendarUrl)
      .where('object_href', '=', r.href)
      .execute();
  }
  for (const u of changes.upserts) {
    const updated = await db
      .updateTable('calendar_sources')
      .set({ etag: u.etag, ics_text: u.icsText, updated_at: now })
      .where('connection_id', '=', conn.id)
      .where('calendar_url', '=', u.calendarUrl)
      .where('object_href', '=', u.href)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      await db
        .insertInto('calendar_sources')
        .values({
          id: crypto.randomUUID(),
          connection_id: conn.id,
          user_id: conn.user_id,
          calendar_url: u.calendarUrl,
          object_href: u.href,
          etag: u.etag,
          ics_text: u.icsText,
          updated_at: now,
        })
        .execute();
    }
  }
}

export interface DerivedRows {
  events: Array<{ uid: string; title: string; start: number; end: number; allDay: boolean; isBusy: boolean; dependsOnOwnerZone: boolean }>;
  intervals: Array<{ start: number; end: number; dependsOnOwnerZone: boolean }>;
}

/** Replaces a connection's derived events and busy intervals. Call inside a transaction. */
export async function replaceDerived(db: Q, conn: { id: string; user_id: string }, derived: DerivedRows): Promise<void> {
  await db.deleteFrom('busy_intervals').where('connection_id', '=', conn.id).execute();
  await db.deleteFrom('calendar_events').where('connection_id', '=', conn.id).execute();
  for (let i = 0; i < derived.intervals.length; i += INSERT_BATCH) {
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
  for (let i = 0; i < derived.events.length; i += INSERT_BATCH) {
    await db
      .insertInto('calendar_events')
      .values(
        derived.events.slice(i, i + INSERT_BATCH).map((e) => ({
          id: crypto.randomUUID(),
          user_id: conn.user_id,
          connection_id: conn.id,
          uid: e.uid,
          title: e.title,
          start_ms: e.start,
          end_ms: e.end,
          all_day: e.allDay ? 1 : 0,
          is_busy: e.isBusy ? 1 : 0,
          depends_on_owner_zone: e.dependsOnOwnerZone ? 1 : 0,
        })),
      )
      .execute();
  }
}

/** The owner's events overlapping [start, end), with their connection's provider. */
export async function listEvents(db: Q, userId: string, start: number, end: number) {
  return db
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
}
