/**
 * SQL of calendar connections (calendar_connections): reads, inserts, updates, the cascade delete,
 * and the lists the jobs walk. Every query that takes a user id filters by it: one owner never
 * reaches another's rows.
 *
 * A connection's `name`, `account` (the login, e-mail or feed host) and `warnings_json` (parse
 * warnings name events by their UID) are sealed at rest (issue 26;
 * lib/crypto.ts sealContent with AVAIL_SECRET_KEY, the `key` parameters): written sealed by
 * insertConnection/updateConnection, returned opened by the connection reads here (a legacy plain
 * value as is; the start-up pass store/sealed-text.repo.ts seals those). Nothing selects by them.
 */
import { openContent, openNullable, sealContent, sealNullable } from '../lib/crypto.ts';
import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import type { CalendarConnectionsTable } from '../db/schema-calendars.ts';
import type { CalendarConnectionRow, Database } from '../db/schema.ts';
import type { Stamper } from './repl-clock.repo.ts';
import { clearTombstones, writeTombstones } from './tombstones.repo.ts';

type Q = Kysely<Database> | Transaction<Database>;

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

/** Stores a connection's new secret (already encrypted), e.g. refreshed OAuth tokens. Not replicated: no stamp. */
export async function setConnectionSecret(db: Q, connectionId: string, secretEnc: string): Promise<void> {
  await db.updateTable('calendar_connections').set({ secret_enc: secretEnc }).where('id', '=', connectionId).execute();
}

/** Ids of the Google and Microsoft connections that are active or in error (those that keep push channels). */
export function listPushCapableConnectionIds(db: Q) {
  return db.selectFrom('calendar_connections').select('id').where('provider', 'in', ['google', 'microsoft']).where('status', 'in', ['active', 'error']).execute();
}
