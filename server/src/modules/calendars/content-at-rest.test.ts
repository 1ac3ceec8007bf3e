/**
 * Issue 12 (3): owner calendar content is sealed at rest. After an ICS connect whose event carries
 * markers in SUMMARY, LOCATION, DESCRIPTION and ATTENDEE, no text column of any table holds a
 * marker in clear (and, on SQLite, no byte of the database file or its WAL); the owner still reads
 * the titles through the API; rows written in plain text by an earlier version are sealed by the
 * start-up pass.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories.ts';
import { startIcsServer, type IcsServer } from '../../../test/ics-server.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { isSealed } from '../../lib/crypto.ts';
import { sealCalendarContent } from './calendars.service.ts';

const NOW = Date.parse('2030-02-04T08:00:00Z');
let t: TestApp;
let ics: IcsServer;
beforeAll(async () => {
  ics = await startIcsServer();
  t = await createTestApp({ env: { ALLOW_PRIVATE_CALENDAR_HOSTS: 'true' } });
  t.clock.set(NOW);
});
afterAll(async () => {
  await t?.close();
  await ics?.close();
});

/** Every row of every table as text, for a scan. */
async function dumpAllTables(): Promise<string> {
  // This test's own schema on PostgreSQL (the database may hold other schemas: other tests', the job engine's).
  const tables = (await t.db.introspection.getTables()).filter((tb) => t.testDb.dialect !== 'postgres' || tb.schema === t.testDb.location);
  const parts: string[] = [];
  for (const tb of tables) {
    const rows = await t.db.selectFrom(tb.name as 'users').selectAll().execute();
    parts.push(JSON.stringify(rows));
  }
  return parts.join('\n');
}

describe('calendar content at rest', () => {
  it('is sealed in every table (and every byte of the SQLite files); the owner still reads titles', async () => {
    const marker = `ZQX${Date.now().toString(36)}`;
    const owner = await buildUser(t, { timezone: 'UTC' });
    const start = '20300205T100000Z';
    ics.set('/at-rest.ics', {
      ics: [
        'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//t//EN',
        'BEGIN:VEVENT', 'UID:at-rest-1@test', 'DTSTAMP:20300101T000000Z', `DTSTART:${start}`, 'DTEND:20300205T110000Z',
        `SUMMARY:${marker} summary`, `LOCATION:${marker} location`, `DESCRIPTION:${marker} description`,
        `ATTENDEE;CN=${marker} guest:mailto:${marker.toLowerCase()}@example.com`,
        'END:VEVENT', 'END:VCALENDAR', '',
      ].join('\r\n'),
    });
    await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: ics.url('/at-rest.ics') }).expect(201);

    const dump = await dumpAllTables();
    expect(dump).not.toContain(marker);
    expect(dump.toLowerCase()).not.toContain(marker.toLowerCase());
    if (!process.env.TEST_POSTGRES_URL) {
      await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(t.db);
      const file = t.config.SQLITE_PATH === ':memory:' ? null : t.testDb.location;
      for (const f of [file, `${file}-wal`]) {
        let bytes: Buffer | null = null;
        try {
          bytes = f ? readFileSync(f) : null;
        } catch {
          bytes = null; // no WAL left after the checkpoint
        }
        if (bytes) expect(bytes.includes(Buffer.from(marker)), f!).toBe(false);
      }
    }
    // The owner's own view still has the title.
    const events = await request(t.app).get('/api/me/calendar/events').set(owner.auth).query({ start_date: '2030-02-05', end_date: '2030-02-06' }).expect(200);
    expect(JSON.stringify(events.body)).toContain(`${marker} summary`);
  });

  it('the start-up pass seals rows an earlier version wrote in plain text, once', async () => {
    const owner = await buildUser(t);
    const connId = crypto.randomUUID();
    await t.db.insertInto('calendar_connections').values({ id: connId, user_id: owner.user.id, provider: 'ics', name: 'Old', status: 'active', account: null, connected_at: NOW, updated_at: NOW }).execute();
    await t.db.insertInto('calendar_sources').values({ id: crypto.randomUUID(), connection_id: connId, user_id: owner.user.id, calendar_url: 'u', object_href: 'h', etag: null, ics_text: 'BEGIN:VCALENDAR\r\nSUMMARY:Legacy secret\r\nEND:VCALENDAR', updated_at: NOW }).execute();
    await t.db.insertInto('calendar_events').values({ id: crypto.randomUUID(), user_id: owner.user.id, connection_id: connId, uid: 'old@test', title: 'Legacy secret', start_ms: NOW, end_ms: NOW + 3_600_000, all_day: 0, is_busy: 1, depends_on_owner_zone: 0, updated_at: NOW }).execute();
    expect(await sealCalendarContent(t.deps)).toBeGreaterThanOrEqual(2);
    expect(await sealCalendarContent(t.deps)).toBe(0); // idempotent
    const src = await t.db.selectFrom('calendar_sources').select('ics_text').where('connection_id', '=', connId).executeTakeFirstOrThrow();
    const ev = await t.db.selectFrom('calendar_events').select('title').where('connection_id', '=', connId).executeTakeFirstOrThrow();
    expect(isSealed(src.ics_text) && isSealed(ev.title)).toBe(true);
    expect(await dumpAllTables()).not.toContain('Legacy secret');
    const events = await request(t.app).get('/api/me/calendar/events').set(owner.auth).query({ start_date: '2030-02-04', end_date: '2030-02-05' }).expect(200);
    expect(JSON.stringify(events.body)).toContain('Legacy secret');
  });
});
