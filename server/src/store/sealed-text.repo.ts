/**
 * Personal text sealed at rest (issue 26): the columns below (and calendar_sources' paths, keyed by
 * HMAC: calendars.repo.ts sealPlainSourcePaths; calendar_events' UIDs are also keyed by HMAC:
 * calendars.repo.ts keyPlainEventUids) are written sealed (lib/crypto.ts
 * sealContent with AVAIL_SECRET_KEY) by their modules and opened for the owner only. Rows written in
 * clear by an earlier version are sealed by the start-up pass `sealPlainPersonalText` (like
 * calendars.repo.ts sealPlainContent for titles and raw ICS).
 */
import type { Kysely } from 'kysely';
import type { Db } from '../db/kysely.ts';
import { isSealed, sealContent } from '../lib/crypto.ts';
import { keyPlainEventUids, sealPlainSourcePaths } from './calendar-sealing.repo.ts';

/** Table → its text columns kept sealed at rest (every table keyed by `id`). */
const SEALED_TEXT_COLUMNS = {
  busy_blocks: ['note'],
  proposals: ['name', 'email', 'note', 'message', 'request_message', 'calendar_name'],
  replication_conflicts: ['winner_json', 'loser_json'],
  share_links: ['label'],
  calendar_connections: ['name', 'account', 'warnings_json'],
  calendar_events: ['uid', 'source_calendar'],
} as const satisfies Record<string, readonly string[]>;

type AnyRow = Record<string, string | null>;

/**
 * Seals every clear value of SEALED_TEXT_COLUMNS, 500 rows at a time, each row with a
 * compare-and-set on its old values (a row changed meanwhile is left to the next start). Idempotent;
 * @returns the number of rows sealed.
 */
export async function sealPlainPersonalText(db: Db, key: Uint8Array): Promise<number> {
  const anyDb = db as unknown as Kysely<Record<string, AnyRow>>;
  let sealed = 0;
  for (const [table, columns] of Object.entries(SEALED_TEXT_COLUMNS) as Array<[string, readonly string[]]>) {
    let after = '';
    for (;;) {
      const rows = await anyDb
        .selectFrom(table)
        .select(['id', ...columns])
        .where('id', '>', after)
        .where((eb) => eb.or(columns.map((c) => eb.and([eb(c, 'is not', null), eb(c, 'not like', 'enc:v1.%')]))))
        .orderBy('id')
        .limit(500)
        .execute();
      if (rows.length === 0) break;
      after = String(rows[rows.length - 1]!.id);
      for (const r of rows) {
        const plain = columns.filter((c) => r[c] != null && !isSealed(r[c]!));
        if (plain.length === 0) continue;
        let q = anyDb.updateTable(table).set(Object.fromEntries(plain.map((c) => [c, sealContent(r[c]!, key)]))).where('id', '=', r.id!);
        for (const c of plain) q = q.where(c, '=', r[c]!);
        sealed += Number((await q.executeTakeFirst()).numUpdatedRows);
      }
    }
  }
  // Raw calendar objects' paths: sealed and keyed (they are looked up by keyed hash).
  sealed += await sealPlainSourcePaths(db, key);
  // Derived events' UIDs: keyed (a confirmed meeting finds its calendar copy by the keyed hash).
  sealed += await keyPlainEventUids(db, key);
  return sealed;
}
