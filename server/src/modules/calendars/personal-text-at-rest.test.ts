/**
 * Issue 26: the owner's and their visitors' personal text is sealed at rest like titles — busy-block
 * notes, proposal texts (the visitor's name, e-mail and note; the owner's decline message), the
 * conflict log's document states, personal-link labels, connection names and accounts, event UIDs. Checked on the database the tests run on (SQLite, or PostgreSQL
 * with TEST_POSTGRES_URL) by reading every row of every table: no marker is stored in clear, while
 * the owner still reads everything through the API and the replication pull, and rows written in
 * clear by an earlier version are sealed by the start-up pass.
 */
import { sql } from 'kysely';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLICATION_SCHEMA_VERSION, SCHEMA_HEADER } from '@avail/shared/rx/replication-protocol.ts';
import { buildUser, type BuiltUser } from '../../../test/factories.ts';
import { openAllWeek } from '../../../test/oauth-kit.ts';
import { startIcsServer, type IcsServer } from '../../../test/ics-server.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { applySourceChanges, listSources } from '../../store/calendars.repo.ts';
import { sealPlainPersonalText } from '../../store/sealed-text.repo.ts';

const V = { [SCHEMA_HEADER]: String(REPLICATION_SCHEMA_VERSION) };

let t: TestApp;
let ics: IcsServer;
beforeAll(async () => {
  ics = await startIcsServer();
  t = await createTestApp({ env: { ALLOW_PRIVATE_CALENDAR_HOSTS: 'true' } });
});
afterAll(async () => {
  await t?.close();
  await ics?.close();
});

/** Every table of the test database, every row, as one JSON text per table. */
async function allTables(): Promise<Map<string, string>> {
  const names =
    t.testDb.dialect === 'sqlite'
      ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(t.db)).rows.map((r) => r.name)
      : (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(t.db)).rows.map((r) => r.name);
  const out = new Map<string, string>();
  for (const name of names) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(t.db);
    out.set(name, JSON.stringify(rows, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString('latin1') : typeof v === 'bigint' ? String(v) : v)));
  }
  return out;
}

/** `marker → tables holding it in clear`, for the markers found anywhere. */
async function markersInClear(markers: string[]): Promise<Record<string, string[]>> {
  const tables = await allTables();
  const found: Record<string, string[]> = {};
  for (const m of markers) {
    const where = [...tables].filter(([, json]) => json.includes(m)).map(([name]) => name);
    if (where.length) found[m] = where;
  }
  return found;
}

const pull = async (u: BuiltUser, collection: string) =>
  (await request(t.app).get(`/api/replication/${collection}/pull`).query({ limit: 100 }).set(u.auth).set(V).expect(200)).body.documents as Array<Record<string, unknown>>;

describe('personal text at rest', () => {
  it('stores block notes, proposal texts, conflict states, link labels and connection names sealed; the owner reads them through the API and the pull', async () => {
    const tag = Math.random().toString(36).slice(2, 10);
    const m = {
      note: `dentist-${tag}-appointment`,
      visitorName: `Vera Visit ${tag}`,
      visitorEmail: `vera-${tag}@visitor-mail.test`,
      visitorNote: `roof repair ${tag}`,
      declineMessage: `sorry-${tag}-not-then`,
      conflictNote: `lost-edit-${tag}`,
      linkLabel: `For Grandma ${tag}`,
      connection: `Workcal ${tag}`,
      uid: `uid-${tag}@calendar-host.test`,
    };
    const owner = await buildUser(t, { timezone: 'UTC', username: `pt${tag}` });
    await openAllWeek(t, owner.user.id);
    const now = Date.now();
    const block = (await request(t.app).post('/api/me/blocks').set(owner.auth).send({ start_ms: now + 3_600_000, end_ms: now + 7_200_000, note: m.note }).expect(201)).body.block;
    // A device's edit that loses to a newer one (the loser's note goes to the conflict log).
    const pulled = (await pull(owner, 'busy_blocks')).find((d) => d.id === block.id)!;
    const newer = { ...pulled, note: `${m.note} (moved)`, edited_at: now + 1_000, device_id: 'device-a' };
    await request(t.app).post('/api/replication/busy_blocks/push').set(owner.auth).set(V).send([{ assumedMasterState: pulled, newDocumentState: newer }]).expect(200);
    const older = { ...pulled, note: m.conflictNote, edited_at: now + 500, device_id: 'device-b' };
    const conflicts = (await request(t.app).post('/api/replication/busy_blocks/push').set(owner.auth).set(V).send([{ assumedMasterState: pulled, newDocumentState: older }]).expect(200)).body;
    expect(conflicts).toHaveLength(1); // the older edit lost and was logged
    const day = new Date(now + 3 * 86_400_000).toISOString().slice(0, 10);
    await request(t.app)
      .post(`/api/public/${owner.user.username}/proposals`)
      .send({ start: `${day}T10:00:00Z`, end: `${day}T10:30:00Z`, name: m.visitorName, email: m.visitorEmail, note: m.visitorNote, visitor_timezone: 'UTC' })
      .expect(201);
    const proposalId = (await request(t.app).get('/api/me/proposals').set(owner.auth).expect(200)).body.proposals[0].id;
    await request(t.app).post(`/api/me/proposals/${proposalId}/decline`).set(owner.auth).send({ message: m.declineMessage }).expect(200);
    await request(t.app).post('/api/me/share-links').set(owner.auth).send({ label: m.linkLabel }).expect(201);
    const icsTime = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, '').slice(0, 11) + '0000Z';
    const start = icsTime(now + 2 * 86_400_000);
    const end = icsTime(now + 2 * 86_400_000 + 3_600_000);
    ics.set(`/${tag}.ics`, {
      ics: ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//t//EN', 'BEGIN:VEVENT', `UID:${m.uid}`, 'DTSTAMP:20300101T000000Z', `DTSTART:${start}`, `DTEND:${end}`, 'SUMMARY:x', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n'),
    });
    await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: ics.url(`/${tag}.ics`), name: m.connection }).expect(201);

    expect(await markersInClear(Object.values(m))).toEqual({});

    // The owner reads every text in clear: REST …
    const blocks = (await request(t.app).get('/api/me/blocks').set(owner.auth).expect(200)).body.blocks;
    expect(blocks.map((b: { note: string }) => b.note)).toEqual([`${m.note} (moved)`]);
    const listed = (await request(t.app).get('/api/me/proposals').set(owner.auth).expect(200)).body.proposals;
    expect(listed[0]).toMatchObject({ name: m.visitorName, email: m.visitorEmail, note: m.visitorNote, message: m.declineMessage });
    const log = (await request(t.app).get('/api/me/conflicts').set(owner.auth).expect(200)).body.conflicts;
    expect(log[0].replaced.note).toBe(m.conflictNote);
    expect((await request(t.app).get('/api/me/share-links').set(owner.auth).expect(200)).body.share_links[0].label).toBe(m.linkLabel);
    const conns = (await request(t.app).get('/api/me/calendar/connections').set(owner.auth).expect(200)).body.connections;
    expect(conns[0]).toMatchObject({ name: m.connection, account: new URL(ics.url('/')).host });
    const [event] = await t.db.selectFrom('calendar_events').select('id').where('user_id', '=', owner.user.id).execute();
    expect((await request(t.app).get(`/api/me/calendar/events/${event!.id}/source`).set(owner.auth).expect(200)).body.event.uid).toBe(m.uid);
    // A second sync of the unchanged feed matches the stored event by its (sealed) UID: nothing rewritten.
    const stamp = (await t.db.selectFrom('calendar_events').select('updated_at').where('id', '=', event!.id).executeTakeFirstOrThrow()).updated_at;
    await request(t.app).post('/api/me/calendar/sync').set(owner.auth).expect(200);
    expect((await t.db.selectFrom('calendar_events').select(['id', 'updated_at']).where('user_id', '=', owner.user.id).execute())).toEqual([{ id: event!.id, updated_at: stamp }]);
    // … and the replication pull.
    expect((await pull(owner, 'calendar_connections'))[0]).toMatchObject({ name: m.connection, account: new URL(ics.url('/')).host });
    expect((await pull(owner, 'busy_blocks')).map((d) => d.note)).toEqual([`${m.note} (moved)`]);
    expect((await pull(owner, 'proposals'))[0]).toMatchObject({ name: m.visitorName, email: m.visitorEmail, note: m.visitorNote, message: m.declineMessage });
  });

  it('seals rows an earlier version wrote in clear at start-up; the owner still reads them', async () => {
    const tag = Math.random().toString(36).slice(2, 10);
    const m = {
      note: `legacy-note-${tag}`,
      name: `Lea Legacy ${tag}`,
      email: `lea-${tag}@legacy.test`,
      text: `legacy text ${tag}`,
      label: `Legacy link ${tag}`,
      connection: `Legacy cal ${tag}`,
      account: `acct-${tag}@legacy.test`,
      uid: `legacy-uid-${tag}@host.test`,
    };
    const owner = await buildUser(t, { timezone: 'UTC' });
    const now = Date.now();
    await t.db.insertInto('busy_blocks').values({ id: crypto.randomUUID(), user_id: owner.user.id, start_ms: now + 3_600_000, end_ms: now + 7_200_000, note: m.note, edited_at: now, device_id: 'server', updated_at: now }).execute();
    await t.db
      .insertInto('proposals')
      .values({ id: crypto.randomUUID(), user_id: owner.user.id, start_ms: now + 86_400_000, end_ms: now + 88_200_000, name: m.name, email: m.email, note: m.text, visitor_timezone: 'UTC', created_at: now, updated_at: now, edited_at: now, device_id: 'server' })
      .execute();
    await t.db.insertInto('share_links').values({ id: crypto.randomUUID(), user_id: owner.user.id, label: m.label, token_hash: `h${tag}`, token_sealed: 'x', expires_at: null, created_at: now }).execute();
    const connId = crypto.randomUUID();
    await t.db.insertInto('calendar_connections').values({ id: connId, user_id: owner.user.id, provider: 'caldav', name: m.connection, status: 'active', account: m.account, connected_at: now, updated_at: now }).execute();
    // A CalDAV object stored by an earlier version: its paths carry the login and the UID.
    const calendarPath = `/dav/calendars/${m.account}/home/`;
    await t.db
      .insertInto('calendar_sources')
      .values({ id: crypto.randomUUID(), connection_id: connId, user_id: owner.user.id, calendar_url: calendarPath, object_href: `${calendarPath}${m.uid}.ics`, etag: null, ics_text: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n', updated_at: now })
      .execute();
    const eventId = crypto.randomUUID();
    await t.db
      .insertInto('calendar_events')
      .values({ id: eventId, user_id: owner.user.id, connection_id: connId, uid: m.uid, title: 'x', start_ms: now, end_ms: now + 1_800_000, all_day: 0, is_busy: 1, depends_on_owner_zone: 0, updated_at: now })
      .execute();
    expect(Object.keys(await markersInClear(Object.values(m))).sort()).toEqual(Object.values(m).sort()); // written in clear

    expect(await sealPlainPersonalText(t.db, t.config.AVAIL_SECRET_KEY)).toBeGreaterThanOrEqual(5);
    expect(await sealPlainPersonalText(t.db, t.config.AVAIL_SECRET_KEY)).toBe(0); // idempotent
    expect(await markersInClear(Object.values(m))).toEqual({});

    expect((await request(t.app).get('/api/me/blocks').set(owner.auth).expect(200)).body.blocks[0].note).toBe(m.note);
    expect((await request(t.app).get('/api/me/proposals').set(owner.auth).expect(200)).body.proposals[0]).toMatchObject({ name: m.name, email: m.email, note: m.text });
    expect((await request(t.app).get('/api/me/calendar/connections').set(owner.auth).expect(200)).body.connections[0]).toMatchObject({ name: m.connection, account: m.account });
    expect((await pull(owner, 'calendar_connections'))[0]).toMatchObject({ name: m.connection, account: m.account });
    expect((await request(t.app).get(`/api/me/calendar/events/${eventId}/source`).set(owner.auth).expect(200)).body.event.uid).toBe(m.uid);
    // The sync reads the paths opened and finds the object by its keyed hash (a change replaces it, no second row).
    expect((await listSources(t.db, connId, t.config.AVAIL_SECRET_KEY)).map((r) => [r.calendar_url, r.object_href])).toEqual([[calendarPath, `${calendarPath}${m.uid}.ics`]]);
    await t.db.transaction().execute((trx) =>
      applySourceChanges(trx, { id: connId, user_id: owner.user.id }, { upserts: [{ calendarUrl: calendarPath, href: `${calendarPath}${m.uid}.ics`, etag: 'e2', icsText: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n' }], removals: [], removedCalendars: [] }, now, t.config.AVAIL_SECRET_KEY),
    );
    expect((await listSources(t.db, connId, t.config.AVAIL_SECRET_KEY)).map((r) => r.etag)).toEqual(['e2']);
  });
});
