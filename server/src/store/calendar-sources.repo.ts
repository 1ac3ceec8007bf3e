/**
 * SQL of the raw calendar objects of a connection (calendar_sources): the ICS text each provider
 * fetched, kept to re-derive busy time. Owner-only. Paths and ICS text are sealed at rest with the
 * server key (lib/crypto.ts sealContent, the `key` parameters); objects are found by keyed hashes
 * (sourceKeys, 0017_sealed_text).
 */
import { openContent, sealContent, secretFingerprint } from '../lib/crypto.ts';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

type Q = Kysely<Database> | Transaction<Database>;

interface SourceRow {
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
