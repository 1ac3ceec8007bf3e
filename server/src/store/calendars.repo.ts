/**
 * SQL of calendar connections, their raw sources, derived events and busy intervals.
 * Every query that takes a user id filters by it: one owner never reaches another's rows.
 *
 * A connection's `name`, `account` (the login, e-mail or feed host) and `warnings_json` (parse
 * warnings name events by their UID) are sealed at rest (issue 26;
 * lib/crypto.ts sealContent with AVAIL_SECRET_KEY, the `key` parameters): written sealed by
 * insertConnection/updateConnection, returned opened by the connection reads here (a legacy plain
 * value as is; the start-up pass store/sealed-text.repo.ts seals those). Nothing selects by them.
 */
import { createHash } from 'node:crypto';
import { openContent, openNullable, sealContent, sealNullable, secretFingerprint } from '../lib/crypto.ts';
import type { Kysely, Transaction } from 'kysely';
import type { CalendarConnectionsTable } from '../db/schema-calendars.ts';
import type { CalendarConnectionRow, CalendarEventRow, Database } from '../db/schema.ts';
import type { Insertable, Updateable } from 'kysely';
import type { Stamper } from './repl-clock.repo.ts';
import { clearTombstones, writeTombstones } from './tombstones.repo.ts';

type Q = Kysely<Database> | Transaction<Database>;

const INSERT_BATCH = 400;

/**
 * Lets the event loop run between two batches of a big write (timers, sockets, requests that do
 * not need this connection). The write stays one transaction: all-or-nothing.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A connection row with its sealed `name` and `account` opened with `key` (also for rows read elsewhere, e.g. replication pages). */
export function openConnectionTexts<T extends Pick<CalendarConnectionRow, 'name' | 'account' | 'warnings_json'>>(row: T, key: Uint8Array): T {
  return { ...row, name: openContent(row.name, key), account: openNullable(row.account, key), warnings_json: openNullable(row.warnings_json, key) };
}

/** `patch` with its `name` / `account` / `warnings_json` (when present) sealed with `key`. */
function sealConnectionTexts<T extends { name?: unknown; account?: unknown; warnings_json?: unknown }>(patch: T, key: Uint8Array): T {
  const out = { ...patch };
  if (typeof patch.name === 'string') out.name = sealContent(patch.name, key);
  if (patch.account !== undefined) out.account = sealNullable(patch.account as string | null, key);
  if (patch.warnings_json !== undefined) out.warnings_json = sealNullable(patch.warnings_json as string | null, key);
  return out;
}

/** The owner's connections, oldest first (name and account opened with `key`). */
export async function listConnections(db: Q, userId: string, key: Uint8Array): Promise<CalendarConnectionRow[]> {
  const rows = await db.selectFrom('calendar_connections').selectAll().where('user_id', '=', userId).orderBy('connected_at', 'asc').orderBy('id', 'asc').execute();
  return rows.map((r) => openConnectionTexts(r, key));
}

/** One connection of the owner (name and account opened with `key`), or undefined. */
export async function findConnection(db: Q, userId: string, id: string, key: Uint8Array): Promise<CalendarConnectionRow | undefined> {
  const row = await db.selectFrom('calendar_connections').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return row && openConnectionTexts(row, key);
}

/** One connection by id, whoever owns it (name and account opened with `key`), or undefined. */
export async function findConnectionById(db: Q, id: string, key: Uint8Array): Promise<CalendarConnectionRow | undefined> {
  const row = await db.selectFrom('calendar_connections').selectAll().where('id', '=', id).executeTakeFirst();
  return row && openConnectionTexts(row, key);
}

/** The owner's connections of one provider (name and account opened with `key`). */
export async function findConnectionsByProvider(db: Q, userId: string, provider: CalendarConnectionRow['provider'], key: Uint8Array) {
  const rows = await db.selectFrom('calendar_connections').selectAll().where('user_id', '=', userId).where('provider', '=', provider).execute();
  return rows.map((r) => openConnectionTexts(r, key));
}

/** Sets a connection's busy rules (JSON, null = defaults). Not a replicated field: no stamp. */
export async function setBusyRulesJson(db: Q, connectionId: string, json: string | null): Promise<void> {
  await db.updateTable('calendar_connections').set({ busy_rules_json: json }).where('id', '=', connectionId).execute();
}

/** Stores the owner's sealed calendar switches (calendar_connections.calendar_choices); not replicated. */
export async function setCalendarChoices(db: Q, connectionId: string, sealed: string | null): Promise<void> {
  await db.updateTable('calendar_connections').set({ calendar_choices: sealed }).where('id', '=', connectionId).execute();
}

/** Inserts a connection (name and account sealed with `key`); its `updated_at` is the write's stamp (call inside replicatedWrite). */
export async function insertConnection(
  db: Q,
  row: Omit<Insertable<CalendarConnectionsTable>, 'updated_at'>,
  stamp: Stamper,
  key: Uint8Array,
): Promise<void> {
  const updatedAt = await stamp('calendar_connections');
  await db.insertInto('calendar_connections').values({ ...sealConnectionTexts(row, key), updated_at: updatedAt }).execute();
  await clearTombstones(db, row.user_id, 'calendar_connections', [row.id]);
}

/**
 * Updates a connection of `conn.user_id` and bumps its replication stamp (call inside
 * replicatedWrite). A patch of `name`, `account` or `warnings_json` is sealed with `key`.
 * @throws Error when the patch has one of them but no `key` is given (never stored in clear).
 */
export async function updateConnection(
  db: Q,
  conn: { id: string; user_id: string },
  patch: Omit<Updateable<CalendarConnectionsTable>, 'updated_at'>,
  stamp: Stamper,
  key?: Uint8Array,
): Promise<void> {
  const hasText = patch.name !== undefined || patch.account !== undefined || patch.warnings_json !== undefined;
  if (hasText && !key) throw new Error('updateConnection: a name or account needs the key to be sealed');
  const updatedAt = await stamp('calendar_connections');
  await db
    .updateTable('calendar_connections')
    .set({ ...(hasText && key ? sealConnectionTexts(patch, key) : patch), updated_at: updatedAt })
    .where('id', '=', conn.id)
    .where('user_id', '=', conn.user_id)
    .execute();
}

/**
 * Removes a connection with its sources, events and busy intervals; its events and the connection
 * itself leave tombstones so devices drop them (call inside replicatedWrite).
 */
export async function deleteConnectionCascade(db: Q, conn: { id: string; user_id: string }, stamp: Stamper): Promise<void> {
  const eventIds = (await db.selectFrom('calendar_events').select('id').where('connection_id', '=', conn.id).execute()).map((r) => r.id);
  if (eventIds.length) await writeTombstones(db, conn.user_id, 'calendar_events', eventIds, await stamp('calendar_events'));
  await writeTombstones(db, conn.user_id, 'calendar_connections', [conn.id], await stamp('calendar_connections'));
  await db.deleteFrom('busy_intervals').where('connection_id', '=', conn.id).execute();
  await db.deleteFrom('calendar_events').where('connection_id', '=', conn.id).execute();
  await db.deleteFrom('calendar_sources').where('connection_id', '=', conn.id).execute();
  await db.deleteFrom('calendar_connections').where('id', '=', conn.id).execute();
}

/**
 * Connections the backup sync may visit: every provider, status active or error (expired ones wait
 * for the owner), least recently synced first. The job decides which are due (jobs/backup-sync.job.ts).
 */
export async function listBackupSyncCandidates(
  db: Q,
): Promise<Array<{ id: string; provider: CalendarConnectionRow['provider']; last_synced_at: number | null; next_sync_at: number | null }>> {
  return db
    .selectFrom('calendar_connections')
    .select(['id', 'provider', 'last_synced_at', 'next_sync_at'])
    .where('status', 'in', ['active', 'error'])
    .orderBy('last_synced_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
}

export interface SourceRow {
  id: string;
  calendar_url: string;
  object_href: string;
  etag: string | null;
  ics_text: string;
}

/**
 * The keyed hashes a stored calendar object is found by (0017_sealed_text): HMAC-SHA256 with `key`
 * of its calendar's key and of (calendar, object href). Its paths themselves are stored sealed.
 */
export function sourceKeys(calendarUrl: string, href: string, key: Uint8Array): { calendar_key: string; object_key: string } {
  return { calendar_key: secretFingerprint(`cal\n${calendarUrl}`, key), object_key: secretFingerprint(`obj\n${calendarUrl}\n${href}`, key) };
}

/**
 * The raw sources of a connection with `ics_text`, `calendar_url` and `object_href` opened with
 * `key` (stored sealed, lib/crypto.ts sealContent), ordered by calendar then object path.
 */
export async function listSources(db: Q, connectionId: string, key: Uint8Array): Promise<SourceRow[]> {
  const rows = await db
    .selectFrom('calendar_sources')
    .select(['id', 'calendar_url', 'object_href', 'etag', 'ics_text'])
    .where('connection_id', '=', connectionId)
    .execute();
  const opened = rows.map((r) => ({ ...r, calendar_url: openContent(r.calendar_url, key), object_href: openContent(r.object_href, key), ics_text: openContent(r.ics_text, key) }));
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return opened.sort((a, b) => cmp(a.calendar_url, b.calendar_url) || cmp(a.object_href, b.object_href));
}

/**
 * Applies a provider's changes to the stored raw sources of one connection: objects found by their
 * keyed hashes (sourceKeys), ICS text and paths sealed with `key`.
 */
export async function applySourceChanges(
  db: Q,
  conn: { id: string; user_id: string },
  changes: {
    upserts: Array<{ calendarUrl: string; href: string; etag: string | null; icsText: string }>;
    removals: Array<{ calendarUrl: string; href: string }>;
    removedCalendars: string[];
  },
  now: number,
  key: Uint8Array,
): Promise<void> {
  for (const cal of changes.removedCalendars) {
    await db.deleteFrom('calendar_sources').where('connection_id', '=', conn.id).where('calendar_key', '=', sourceKeys(cal, '', key).calendar_key).execute();
  }
  for (const r of changes.removals) {
    await db
      .deleteFrom('calendar_sources')
      .where('connection_id', '=', conn.id)
      .where('object_key', '=', sourceKeys(r.calendarUrl, r.href, key).object_key)
      .execute();
  }
  for (const u of changes.upserts) {
    const keys = sourceKeys(u.calendarUrl, u.href, key);
    const updated = await db
      .updateTable('calendar_sources')
      .set({ etag: u.etag, ics_text: sealContent(u.icsText, key), updated_at: now })
      .where('connection_id', '=', conn.id)
      .where('object_key', '=', keys.object_key)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      await db
        .insertInto('calendar_sources')
        .values({
          id: crypto.randomUUID(),
          connection_id: conn.id,
          user_id: conn.user_id,
          calendar_url: sealContent(u.calendarUrl, key),
          object_href: sealContent(u.href, key),
          ...keys,
          etag: u.etag,
          ics_text: sealContent(u.icsText, key),
          updated_at: now,
        })
        .execute();
    }
  }
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
export function eventId(connectionId: string, uid: string, startMs: number, duplicate = 0): string {
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

/**
 * Seals, in batches of 500, the raw ICS sources and event titles still stored in plain text (rows
 * written before content was sealed at rest). Compare-and-set per row (only a row still holding
 * the plain value is changed), so it is idempotent and safe beside a running sync. Returns how many
 * rows were sealed.
 */
export async function sealPlainContent(db: Kysely<Database>, key: Uint8Array): Promise<number> {
  let sealed = 0;
  for (;;) {
    const rows = await db.selectFrom('calendar_sources').select(['id', 'ics_text']).where('ics_text', 'not like', 'enc:v1.%').limit(500).execute();
    if (rows.length === 0) break;
    await db.transaction().execute(async (trx) => {
      for (const r of rows) {
        const res = await trx.updateTable('calendar_sources').set({ ics_text: sealContent(r.ics_text, key) }).where('id', '=', r.id).where('ics_text', '=', r.ics_text).executeTakeFirst();
        sealed += Number(res.numUpdatedRows);
      }
    });
  }
  for (;;) {
    const rows = await db.selectFrom('calendar_events').select(['id', 'title']).where('title', 'not like', 'enc:v1.%').limit(500).execute();
    if (rows.length === 0) break;
    await db.transaction().execute(async (trx) => {
      for (const r of rows) {
        const res = await trx.updateTable('calendar_events').set({ title: sealContent(r.title, key) }).where('id', '=', r.id).where('title', '=', r.title).executeTakeFirst();
        sealed += Number(res.numUpdatedRows);
      }
    });
  }
  return sealed;
}

/** ICS connections stored before feed URLs were secrets (no secret_enc): `{ id, user_id, config_json }`. */
export function listLegacyIcsConnections(db: Q) {
  return db.selectFrom('calendar_connections').select(['id', 'user_id', 'config_json']).where('provider', '=', 'ics').where('secret_enc', 'is', null).execute();
}

/**
 * Seals one legacy ICS connection (compare-and-set on its old `config_json`): new config, the URL as
 * `secret_enc`, its source rows keyed `sourceId`; the connection's stamp from `stamp`. False when the
 * row changed meanwhile (nothing written).
 */
export async function sealLegacyIcsConnection(
  db: Q,
  row: { id: string; config_json: string },
  change: { configJson: string; secretEnc: string; sourceId: string },
  stamp: Stamper,
  key: Uint8Array,
): Promise<boolean> {
  const done = await db
    .updateTable('calendar_connections')
    .set({ config_json: change.configJson, secret_enc: change.secretEnc, updated_at: await stamp('calendar_connections') })
    .where('id', '=', row.id)
    .where('config_json', '=', row.config_json)
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) === 0) return false;
  await db
    .updateTable('calendar_sources')
    .set({ calendar_url: sealContent(change.sourceId, key), object_href: sealContent(change.sourceId, key), ...sourceKeys(change.sourceId, change.sourceId, key) })
    .where('connection_id', '=', row.id)
    .execute();
  return true;
}

/** Stores a connection's new secret (already encrypted), e.g. refreshed OAuth tokens. Not replicated: no stamp. */
export async function setConnectionSecret(db: Q, connectionId: string, secretEnc: string): Promise<void> {
  await db.updateTable('calendar_connections').set({ secret_enc: secretEnc }).where('id', '=', connectionId).execute();
}

/** Ids of the Google and Microsoft connections that are active or in error (those that keep push channels). */
export function listPushCapableConnectionIds(db: Q) {
  return db.selectFrom('calendar_connections').select('id').where('provider', 'in', ['google', 'microsoft']).where('status', 'in', ['active', 'error']).execute();
}

/**
 * Start-up pass (0017_sealed_text): raw sources of earlier versions (no keyed hashes, paths in
 * clear) get their paths sealed and their keyed hashes (sourceKeys), 500 at a time, compare-and-set
 * on the row still being unkeyed. Idempotent; @returns rows changed.
 */
export async function sealPlainSourcePaths(db: Q, key: Uint8Array): Promise<number> {
  let sealed = 0;
  for (;;) {
    const rows = await db.selectFrom('calendar_sources').select(['id', 'calendar_url', 'object_href']).where('object_key', 'is', null).limit(500).execute();
    if (rows.length === 0) break;
    let changed = 0;
    for (const r of rows) {
      const calendarUrl = openContent(r.calendar_url, key);
      const href = openContent(r.object_href, key);
      const res = await db
        .updateTable('calendar_sources')
        .set({ calendar_url: sealContent(calendarUrl, key), object_href: sealContent(href, key), ...sourceKeys(calendarUrl, href, key) })
        .where('id', '=', r.id)
        .where('object_key', 'is', null)
        .executeTakeFirst();
      changed += Number(res.numUpdatedRows);
    }
    sealed += changed;
    if (changed === 0) break;
  }
  return sealed;
}

/**
 * Start-up pass (0018_event_uid_key): derived events of earlier versions (`uid_key` null) get the
 * keyed hash of their UID (eventUidKey; the UID opened with `key`, a legacy plain one as is) and
 * their UID sealed, 500 at a time, compare-and-set on the null key (a row a sync rewrote meanwhile
 * is left as the sync wrote it). Not a replicated change: no stamp. Idempotent.
 * @returns the number of events keyed.
 */
export async function keyPlainEventUids(db: Q, key: Uint8Array): Promise<number> {
  let keyed = 0;
  for (;;) {
    const rows = await db.selectFrom('calendar_events').select(['id', 'uid']).where('uid_key', 'is', null).limit(500).execute();
    if (rows.length === 0) break;
    let changed = 0;
    for (const r of rows) {
      const uid = openContent(r.uid, key);
      const res = await db
        .updateTable('calendar_events')
        .set({ uid: sealContent(uid, key), uid_key: eventUidKey(uid, key) })
        .where('id', '=', r.id)
        .where('uid_key', 'is', null)
        .executeTakeFirst();
      changed += Number(res.numUpdatedRows);
    }
    keyed += changed;
    if (changed === 0) break;
  }
  return keyed;
}
