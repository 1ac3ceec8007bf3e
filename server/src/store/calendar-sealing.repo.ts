/**
 * Start-up passes that bring calendar rows of earlier versions up to the sealed form (issue 26):
 * plain ICS text and titles sealed, source paths sealed and keyed (0017_sealed_text), event UIDs
 * keyed (0018_event_uid_key), legacy ICS connections' feed URLs made secrets. Each is
 * compare-and-set per row, so idempotent and safe beside a running sync; called by
 * store/sealed-text.repo.ts and the calendars module's start-up.
 */
import { openContent, sealContent } from '../lib/crypto.ts';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { eventUidKey } from './calendar-events.repo.ts';
import { sourceKeys } from './calendar-sources.repo.ts';
import type { Stamper } from './repl-clock.repo.ts';

type Q = Kysely<Database> | Transaction<Database>;

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
