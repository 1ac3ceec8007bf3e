/**
 * The replication endpoints (shared/src/rx/replication-protocol.ts) over HTTP: auth and version,
 * pull paging by checkpoint, push with conflicts, atomic validation, ownership, the live stream,
 * event diffing and tombstones. Runs on SQLite, and on PostgreSQL when TEST_POSTGRES_URL is set.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLICATION_SCHEMA_VERSION, SCHEMA_HEADER, type StreamMessage } from '@avail/shared/rx/replication-protocol.ts';
import { buildUser, type BuiltUser } from '../../../test/factories.ts';
import { startIcsServer, type IcsServer } from '../../../test/ics-server.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { backupSyncJob } from '../../jobs/backup-sync.job.ts';
import { syncConnection } from '../sync/sync.service.ts';
import { nextStamp } from '../../store/repl-clock.repo.ts';
import { openContent } from '../../lib/crypto.ts';

const V = { [SCHEMA_HEADER]: String(REPLICATION_SCHEMA_VERSION) };

let t: TestApp;
let srv: IcsServer;
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  srv = await startIcsServer();
  t = await createTestApp({ env: { ALLOW_PRIVATE_CALENDAR_HOSTS: 'true' }, replication: { stream: { heartbeatMs: 200 } } });
  server = t.app.listen(0);
  await new Promise((r) => server.once('listening', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  await t?.close();
  await srv?.close();
});

function pullReq(u: BuiltUser, collection: string, q: Record<string, string | number> = {}) {
  return request(t.app).get(`/api/replication/${collection}/pull`).query(q).set(u.auth).set(V);
}
function pushReq(u: BuiltUser, collection: string, rows: unknown) {
  return request(t.app).post(`/api/replication/${collection}/push`).set(u.auth).set(V).send(rows as object);
}
function rule(id: string, over: Record<string, unknown> = {}) {
  return { id, weekday: 1, start_time_local: '09:00', end_time_local: '12:00', edited_at: 1_000, device_id: 'dev-a', updated_at: 0, _deleted: false, ...over };
}
async function pullAll(u: BuiltUser, collection: string, limit = 1000) {
  const docs: any[] = [];
  let cp: { id: string; updated_at: number } | null = null;
  for (;;) {
    const res: request.Response = await pullReq(u, collection, cp ? { limit, id: cp.id, updated_at: cp.updated_at } : { limit }).expect(200);
    docs.push(...res.body.documents);
    if (res.body.documents.length < limit) return docs;
    cp = res.body.checkpoint;
  }
}
async function conflictLog(userId: string) {
  return (await t.db.selectFrom('replication_conflicts').selectAll().where('user_id', '=', userId).orderBy('created_at').execute()).map((r) => ({
    ...r,
    // The states are sealed at rest (issue 26).
    winner_json: openContent(r.winner_json, t.config.AVAIL_SECRET_KEY),
    loser_json: openContent(r.loser_json, t.config.AVAIL_SECRET_KEY),
  }));
}

describe('auth and schema version', () => {
  it('answers 401 without a token and 403 before verification', async () => {
    await request(t.app).get('/api/replication/availability_rules/pull').set(V).expect(401);
    await request(t.app).get('/api/replication/stream').set(V).expect(401);
    await request(t.app).post('/api/replication/availability_rules/push').set(V).send([]).expect(401);
    const u = await buildUser(t, { verified: false });
    await pullReq(u, 'availability_rules').expect(403);
  });

  it('answers 426 client_outdated for a missing, malformed or too old X-Avail-Schema', async () => {
    const u = await buildUser(t);
    // '1': a client from before issue 25, which would retry a 5-minute clock_ahead refusal forever.
    for (const header of [undefined, '0', '1', 'abc', '']) {
      let req = request(t.app).get('/api/replication/profile/pull').set(u.auth);
      if (header !== undefined) req = req.set(SCHEMA_HEADER, header);
      const res = await req.expect(426);
      expect(res.body).toEqual({ error: 'This version of Avail is too old to sync. Please reload or update the app.', code: 'client_outdated' });
    }
    await request(t.app).get('/api/replication/stream').set(u.auth).expect(426);
    await request(t.app).post('/api/replication/availability_rules/push').set(u.auth).set(SCHEMA_HEADER, '1').send([]).expect(426);
  });

  it("GET /replication/time answers the server's clock (body and X-Avail-Time), uncached, for a signed-in owner only", async () => {
    const u = await buildUser(t);
    t.clock.set(Date.parse('2030-01-07T09:00:00Z'));
    const res = await request(t.app).get('/api/replication/time').set(u.auth).set(V).expect(200);
    expect(res.body).toEqual({ server_time: Date.parse('2030-01-07T09:00:00Z') });
    expect(res.headers['x-avail-time']).toBe(String(Date.parse('2030-01-07T09:00:00Z')));
    expect(res.headers['cache-control']).toBe('no-store');
    t.clock.reset();
    await request(t.app).get('/api/replication/time').set(V).expect(401);
  });

  it('answers 404 for an unknown collection, 405 for a push to a read-only one, 400 for a bad query', async () => {
    const u = await buildUser(t);
    await pullReq(u, 'users').expect(404);
    await pushReq(u, 'calendar_events', []).expect(405);
    await pushReq(u, 'profile', []).expect(405);
    await pullReq(u, 'availability_rules', { limit: 0 }).expect(400);
    await pullReq(u, 'availability_rules', { limit: 1001 }).expect(400);
    await pullReq(u, 'availability_rules', { id: 'x' }).expect(400);
    await pullReq(u, 'availability_rules', { id: 'x', updated_at: 'soon' }).expect(400);
    await pushReq(u, 'availability_rules', { not: 'an array' }).expect(400);
  });
});

describe('pull', () => {
  it('pages by (updated_at, id) checkpoint, strictly after it, including ties on updated_at', async () => {
    const u = await buildUser(t);
    const base = 1_700_000_000_000;
    // 9 rules: three share each updated_at; ids deliberately out of insertion order.
    const rows = ['c', 'a', 'b', 'f', 'e', 'd', 'i', 'h', 'g'].map((letter, i) => ({
      id: `${u.user.id.slice(0, 8)}-${letter}`,
      user_id: u.user.id,
      weekday: i % 7,
      start_time_local: '09:00',
      end_time_local: '10:00',
      created_at: base,
      updated_at: base + Math.floor(i / 3),
      is_deleted: i === 4 ? 1 : 0,
      edited_at: base,
      device_id: 'server',
    }));
    await t.db.insertInto('availability_rules').values(rows).execute();
    const expected = [...rows].sort((x, y) => x.updated_at - y.updated_at || (x.id < y.id ? -1 : 1)).map((r) => r.id);

    const seen: string[] = [];
    let cp: { id: string; updated_at: number } | null = null;
    for (let page = 0; page < 10; page++) {
      const res: request.Response = await pullReq(u, 'availability_rules', cp ? { limit: 2, id: cp.id, updated_at: cp.updated_at } : { limit: 2 }).expect(200);
      const docs = res.body.documents as Array<{ id: string; updated_at: number }>;
      seen.push(...docs.map((d) => d.id));
      if (docs.length === 0) {
        expect(res.body.checkpoint).toEqual(cp); // an empty page echoes the request's checkpoint
        break;
      }
      expect(res.body.checkpoint).toEqual({ id: docs.at(-1)!.id, updated_at: docs.at(-1)!.updated_at });
      cp = res.body.checkpoint;
    }
    expect(seen).toEqual(expected);
    const all = await pullAll(u, 'availability_rules');
    expect(all.find((d) => d.id === rows[4].id)._deleted).toBe(true);
    expect(all[0]).toEqual({
      id: expected[0], weekday: expect.any(Number), start_time_local: '09:00', end_time_local: '10:00',
      edited_at: base, device_id: 'server', updated_at: base, _deleted: false,
    });
    // From the beginning with no checkpoint → checkpoint null on an empty collection.
    const empty = await pullReq(u, 'availability_exceptions').expect(200);
    expect(empty.body).toEqual({ documents: [], checkpoint: null });
  });

  it('serves the profile document from the users row, and each user only their own documents', async () => {
    const u = await buildUser(t, { username: `p${Date.now().toString(36)}` });
    const other = await buildUser(t);
    await request(t.app).post('/api/me/availability-rules').set(other.auth).send({ weekday: 3, start_time_local: '09:00', end_time_local: '10:00' }).expect(201);
    const res = await pullReq(u, 'profile').expect(200);
    expect(res.body.documents).toEqual([
      {
        id: u.user.id, name: u.user.name, email: u.user.email, timezone: 'Europe/Brussels', username: u.user.username,
        username_changed_at: null, email_verified_at: u.user.email_verified_at, updated_at: u.user.updated_at, _deleted: false,
      },
    ]);
    const again = await pullReq(u, 'profile', { id: u.user.id, updated_at: u.user.updated_at }).expect(200);
    expect(again.body.documents).toEqual([]);
    expect(await pullAll(u, 'availability_rules')).toEqual([]);

    // A profile change through REST moves the profile past the checkpoint.
    await request(t.app).put('/api/me/profile').set(u.auth).send({ timezone: 'America/New_York' }).expect(200);
    const changed = await pullReq(u, 'profile', { id: u.user.id, updated_at: u.user.updated_at }).expect(200);
    expect(changed.body.documents).toEqual([expect.objectContaining({ timezone: 'America/New_York' })]);
    expect(changed.body.documents[0].updated_at).toBeGreaterThan(u.user.updated_at);
  });

  it('agrees with the REST lists, and stamps strictly increase even with a stopped clock', async () => {
    const u = await buildUser(t);
    t.clock.set(Date.parse('2030-03-01T10:00:00Z'));
    try {
      await request(t.app).post('/api/me/availability-rules').set(u.auth)
        .send({ rules: [{ weekday: 0, start_time_local: '09:00', end_time_local: '12:00' }, { weekday: 2, start_time_local: '13:00', end_time_local: '17:00' }] })
        .expect(200);
      const added = await request(t.app).post('/api/me/availability-rules').set(u.auth).send({ weekday: 4, start_time_local: '08:00', end_time_local: '09:00' }).expect(201);
      await request(t.app).delete(`/api/me/availability-rules/${added.body.rule.id}`).set(u.auth).expect(200);
      await request(t.app).post('/api/me/exceptions').set(u.auth).send({ date: '2030-03-05', start_time_local: null, end_time_local: null }).expect(201);
      const ex = await request(t.app).post('/api/me/exceptions').set(u.auth).send({ date: '2030-03-06', start_time_local: '10:00', end_time_local: '11:00' }).expect(201);
      await request(t.app).delete(`/api/me/exceptions/${ex.body.exception.id}`).set(u.auth).expect(200);

      const rest = (await request(t.app).get('/api/me/availability-rules').set(u.auth).expect(200)).body.rules;
      const pulled = await pullAll(u, 'availability_rules');
      const live = pulled.filter((d) => !d._deleted).map(({ id, weekday, start_time_local, end_time_local }) => ({ id, weekday, start_time_local, end_time_local }));
      expect(live.sort((a, b) => a.weekday - b.weekday)).toEqual(rest);
      expect(pulled.filter((d) => d._deleted).map((d) => d.id)).toEqual([added.body.rule.id]);
      for (const d of pulled) expect(d.device_id).toBe('server');

      const restEx = (await request(t.app).get('/api/me/exceptions').set(u.auth).expect(200)).body.exceptions;
      const pulledEx = await pullAll(u, 'availability_exceptions');
      expect(pulledEx.filter((d) => !d._deleted).map(({ id, date, start_time_local, end_time_local }) => ({ id, date, start_time_local, end_time_local }))).toEqual(restEx);

      // Same frozen clock, yet every write got a later stamp than the one before.
      const stamps = [...pulled, ...pulledEx].map((d) => d.updated_at).sort((a, b) => a - b);
      expect(new Set(stamps).size).toBeGreaterThanOrEqual(4);
      const s1 = await t.db.transaction().execute((trx) => nextStamp(trx, u.user.id, t.clock.now()));
      const s2 = await t.db.transaction().execute((trx) => nextStamp(trx, u.user.id, t.clock.now()));
      expect(s1).toBeGreaterThan(stamps.at(-1)!);
      expect(s2).toBe(s1 + 1);
    } finally {
      t.clock.reset();
    }
  });
});

describe('concurrent writes of one user', () => {
  it('get distinct, increasing stamps and a checkpoint pull that started early still sees every row', async () => {
    const u = await buildUser(t);
    const first = await pullReq(u, 'availability_rules').expect(200);
    const writes = Array.from({ length: 12 }, (_, i) =>
      i % 2
        ? // 13:00–14:00: clear of the pushed 09:00–12:00 slots (a REST slot overlapping one of its day is refused, issue 23).
          request(t.app).post('/api/me/availability-rules').set(u.auth).send({ weekday: i % 7, start_time_local: '13:00', end_time_local: '14:00' }).expect(201)
        : pushReq(u, 'availability_rules', [{ newDocumentState: rule(crypto.randomUUID(), { weekday: i % 7 }) }]).expect(200, []),
    );
    // A device pulling page by page while the writes land.
    const seen = new Map<string, number>();
    let cp = first.body.checkpoint as { id: string; updated_at: number } | null;
    const pulling = (async () => {
      for (let round = 0; round < 200 && seen.size < 12; round++) {
        const res: request.Response = await pullReq(u, 'availability_rules', cp ? { limit: 3, id: cp.id, updated_at: cp.updated_at } : { limit: 3 });
        for (const d of res.body.documents) seen.set(d.id, d.updated_at);
        cp = res.body.checkpoint;
        if (res.body.documents.length === 0) await new Promise((r) => setTimeout(r, 5));
      }
    })();
    await Promise.all(writes);
    await pulling;
    const all = await pullAll(u, 'availability_rules');
    expect(all).toHaveLength(12);
    expect(new Set(all.map((d) => d.updated_at)).size).toBe(12); // one stamp per transaction, all distinct
    expect([...seen.keys()].sort()).toEqual(all.map((d) => d.id).sort());
  });
});

describe('push', () => {
  it('applies new documents and edits made on the current revision; a retried push is a no-op', async () => {
    const u = await buildUser(t);
    const id = crypto.randomUUID();
    const res = await pushReq(u, 'availability_rules', [{ assumedMasterState: null, newDocumentState: rule(id) }]).expect(200);
    expect(res.body).toEqual([]);
    const [stored] = await pullAll(u, 'availability_rules');
    expect(stored).toMatchObject({ id, weekday: 1, start_time_local: '09:00', end_time_local: '12:00', edited_at: 1_000, device_id: 'dev-a', _deleted: false });
    expect(stored.updated_at).toBeGreaterThan(1_000); // the server's stamp, not the device's

    // Same push again (the first answer was lost): nothing changes, no conflict.
    await pushReq(u, 'availability_rules', [{ assumedMasterState: null, newDocumentState: rule(id) }]).expect(200, []);
    expect((await pullAll(u, 'availability_rules'))[0].updated_at).toBe(stored.updated_at);

    // Edit on the known revision (the device's updated_at may differ: it is ignored).
    const edit = rule(id, { start_time_local: '10:00', edited_at: 2_000 });
    await pushReq(u, 'availability_rules', [{ assumedMasterState: { ...stored, updated_at: 5 }, newDocumentState: edit }]).expect(200, []);
    const rest = (await request(t.app).get('/api/me/availability-rules').set(u.auth).expect(200)).body.rules;
    expect(rest).toEqual([{ id, weekday: 1, start_time_local: '10:00', end_time_local: '12:00' }]);
    expect(await conflictLog(u.user.id)).toEqual([]);
  });

  it('resolves conflicts: a later edit wins and logs the master; an older edit loses, is logged and gets the master back', async () => {
    const u = await buildUser(t);
    const id = crypto.randomUUID();
    await pushReq(u, 'availability_rules', [{ newDocumentState: rule(id, { edited_at: 1_000 }) }]).expect(200, []);
    const [v1] = await pullAll(u, 'availability_rules');
    await pushReq(u, 'availability_rules', [{ assumedMasterState: v1, newDocumentState: rule(id, { start_time_local: '08:00', edited_at: 3_000, device_id: 'dev-b' }) }]).expect(200, []);

    // Device A still believes v1; its edit is older than B's → B's master comes back.
    const older = rule(id, { start_time_local: '07:00', edited_at: 2_000, device_id: 'dev-a' });
    const lost = await pushReq(u, 'availability_rules', [{ assumedMasterState: v1, newDocumentState: older }]).expect(200);
    expect(lost.body).toHaveLength(1);
    expect(lost.body[0]).toMatchObject({ id, start_time_local: '08:00', edited_at: 3_000, device_id: 'dev-b', _deleted: false });
    let log = await conflictLog(u.user.id);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ collection: 'availability_rules', doc_id: id, reason: 'latest_edit', device_id: 'dev-a' });
    expect(JSON.parse(log[0].loser_json).start_time_local).toBe('07:00');
    expect(JSON.parse(log[0].winner_json).start_time_local).toBe('08:00');

    // A newer edit on a stale revision wins over the master; the master is the logged loser.
    const newer = rule(id, { start_time_local: '06:00', edited_at: 4_000, device_id: 'dev-a' });
    await pushReq(u, 'availability_rules', [{ assumedMasterState: v1, newDocumentState: newer }]).expect(200, []);
    expect((await pullAll(u, 'availability_rules'))[0].start_time_local).toBe('06:00');
    log = await conflictLog(u.user.id);
    expect(log).toHaveLength(2);
    expect(JSON.parse(log[1].loser_json).start_time_local).toBe('08:00');
  });

  it('keeps a delete over a concurrent newer edit (delete wins) and logs the edit', async () => {
    const u = await buildUser(t);
    const added = await request(t.app).post('/api/me/availability-rules').set(u.auth).send({ weekday: 5, start_time_local: '09:00', end_time_local: '10:00' }).expect(201);
    const id = added.body.rule.id as string;
    const [v1] = await pullAll(u, 'availability_rules');
    await request(t.app).delete(`/api/me/availability-rules/${id}`).set(u.auth).expect(200);
    const edit = { ...v1, start_time_local: '09:30', edited_at: Date.now() + 60_000, device_id: 'dev-x' };
    const res = await pushReq(u, 'availability_rules', [{ assumedMasterState: v1, newDocumentState: edit }]).expect(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({ id, _deleted: true, device_id: 'server' });
    const log = await conflictLog(u.user.id);
    expect(log.map((c) => c.reason)).toEqual(['delete_wins']);
    expect(JSON.parse(log[0].loser_json).start_time_local).toBe('09:30');
    expect((await request(t.app).get('/api/me/availability-rules').set(u.auth)).body.rules).toEqual([]);

    // A device deleting an exception while the server edited it: the delete wins and is applied.
    const ex = await request(t.app).post('/api/me/exceptions').set(u.auth).send({ date: '2030-02-01', start_time_local: null, end_time_local: null }).expect(201);
    const [e1] = await pullAll(u, 'availability_exceptions');
    const del = { ...e1, _deleted: true, edited_at: 1, device_id: 'dev-y' };
    await pushReq(u, 'availability_exceptions', [{ assumedMasterState: { ...e1, date: '2030-01-31' }, newDocumentState: del }]).expect(200, []);
    expect((await request(t.app).get('/api/me/exceptions').set(u.auth)).body.exceptions).toEqual([]);
    expect((await conflictLog(u.user.id)).map((c) => [c.doc_id, c.reason])).toEqual([[id, 'delete_wins'], [ex.body.exception.id, 'delete_wins']]);
  });

  it("a device's own edit pushed re-stamped (issue 25): its retry and its next edit built on its own copy log no conflict; another device's does", async () => {
    const u = await buildUser(t);
    const id = crypto.randomUUID();
    const mine = rule(id, { start_time_local: '10:00', edited_at: 5_000, device_id: 'dev-a' }); // the device's own copy (uncorrected stamp)
    const sent = { ...mine, edited_at: 4_000 }; // as pushed, re-stamped
    await pushReq(u, 'availability_rules', [{ assumedMasterState: null, newDocumentState: sent }]).expect(200, []);
    // The answer was lost: the retry sends the same stamp (PendingEdit.sent) — the same revision.
    await pushReq(u, 'availability_rules', [{ assumedMasterState: null, newDocumentState: sent }]).expect(200, []);
    // The next edit, built on the device's uncorrected copy: applied, not a conflict with itself.
    await pushReq(u, 'availability_rules', [{ assumedMasterState: mine, newDocumentState: { ...mine, start_time_local: '11:00', edited_at: 6_000 } }]).expect(200, []);
    expect((await pullAll(u, 'availability_rules')).map((d) => d.start_time_local)).toEqual(['11:00']);
    // That answer lost too: its next edit still assumes nothing is stored — its own earlier edit is built upon.
    await pushReq(u, 'availability_rules', [{ assumedMasterState: null, newDocumentState: { ...mine, start_time_local: '10:30', edited_at: 7_000 } }]).expect(200, []);
    await pushReq(u, 'availability_rules', [{ assumedMasterState: null, newDocumentState: { ...mine, start_time_local: '11:00', edited_at: 8_000 } }]).expect(200, []);
    expect(await conflictLog(u.user.id)).toEqual([]);
    // Another device that built on dev-a's copy of an older version with the same fields: a conflict as ever.
    const other = { ...mine, start_time_local: '11:30', device_id: 'dev-b', edited_at: 5_500 };
    const res = await pushReq(u, 'availability_rules', [{ assumedMasterState: { ...mine, start_time_local: '11:00', edited_at: 5_900 }, newDocumentState: { ...other, edited_at: 7_500 } }]).expect(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0].start_time_local).toBe('11:00');
    expect(await conflictLog(u.user.id)).toHaveLength(1);
  });

  it('rejects a document id of another user with 409 and never overwrites it', async () => {
    const owner = await buildUser(t);
    const intruder = await buildUser(t);
    const added = await request(t.app).post('/api/me/availability-rules').set(owner.auth).send({ weekday: 1, start_time_local: '09:00', end_time_local: '10:00' }).expect(201);
    const mine = crypto.randomUUID();
    const res = await pushReq(intruder, 'availability_rules', [
      { newDocumentState: rule(mine) },
      { newDocumentState: rule(added.body.rule.id, { start_time_local: '00:00', edited_at: Date.now() + 3 * 60_000 }) },
    ]).expect(409);
    expect(res.body.code).toBe('id_taken');
    expect(JSON.stringify(res.body)).not.toContain(owner.user.id);
    expect((await request(t.app).get('/api/me/availability-rules').set(owner.auth)).body.rules).toEqual([added.body.rule]);
    expect(await pullAll(intruder, 'availability_rules')).toEqual([]); // the batch was not applied at all
    expect(await conflictLog(owner.user.id)).toEqual([]);
  });

  it('fails the whole batch with 422 when one document is invalid, applying nothing', async () => {
    const u = await buildUser(t);
    const good = rule(crypto.randomUUID());
    for (const bad of [
      rule(crypto.randomUUID(), { end_time_local: '08:00' }),
      rule(crypto.randomUUID(), { start_time_local: '9:00' }),
      rule(crypto.randomUUID(), { weekday: 7 }),
      rule(crypto.randomUUID(), { weekday: '3' }),
      rule(crypto.randomUUID(), { edited_at: 'now' }),
      { ...rule(crypto.randomUUID()), id: undefined },
    ]) {
      const res = await pushReq(u, 'availability_rules', [{ newDocumentState: good }, { newDocumentState: bad }]).expect(422);
      expect(res.body.code).toBe('validation_failed');
      expect(Object.keys(res.body.errors)[0]).toMatch(/^1\./);
    }
    const res = await pushReq(u, 'availability_exceptions', [
      { newDocumentState: { id: crypto.randomUUID(), date: '2030-02-30', start_time_local: null, end_time_local: null, edited_at: 1, device_id: 'd', updated_at: 0, _deleted: false } },
    ]).expect(422);
    expect(res.body.errors['0.date']).toBe('Date must be YYYY-MM-DD');
    await pushReq(u, 'availability_exceptions', [
      { newDocumentState: { id: crypto.randomUUID(), date: '2030-02-03', start_time_local: '10:00', end_time_local: null, edited_at: 1, device_id: 'd', updated_at: 0, _deleted: false } },
    ]).expect(422);
    expect(await pullAll(u, 'availability_rules')).toEqual([]);
    expect(await pullAll(u, 'availability_exceptions')).toEqual([]);
  });

  it('accepts a 500-row push in one request and refuses 501 rows', async () => {
    const u = await buildUser(t);
    const rows = Array.from({ length: 500 }, (_, i) => {
      const doc = rule(crypto.randomUUID(), { weekday: i % 7, edited_at: 1_000 + i });
      return { assumedMasterState: { ...doc, start_time_local: '08:00' }, newDocumentState: doc };
    });
    // Assumed states that never existed are ignored for new documents (no master): all applied.
    await pushReq(u, 'availability_rules', rows).expect(200, []);
    expect(await pullAll(u, 'availability_rules')).toHaveLength(500);
    await pushReq(u, 'availability_rules', [...rows, rows[0]]).expect(413);
  });
});

interface StreamClient {
  messages: StreamMessage[];
  raw: string[];
  close(): void;
}

async function openStream(u: BuiltUser): Promise<StreamClient> {
  const ac = new AbortController();
  const res = await fetch(`${baseUrl}/api/replication/stream`, { headers: { ...u.auth, ...V, Accept: 'text/event-stream' }, signal: ac.signal });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const client: StreamClient = { messages: [], raw: [], close: () => ac.abort() };
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buf = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buf += value;
        let i: number;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          client.raw.push(block);
          const data = block.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n');
          if (data) client.messages.push(JSON.parse(data));
        }
      }
    } catch {
      // aborted
    }
  })();
  // Wait until the server finished setting up (its first block is the retry line).
  await waitFor(() => client.raw.length > 0, 2000);
  await new Promise((r) => setTimeout(r, 50));
  return client;
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<number> {
  const start = performance.now();
  for (;;) {
    if (await check()) return performance.now() - start;
    if (performance.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function docsOf(client: StreamClient, collection: string): any[] {
  return client.messages.flatMap((m) => ('collection' in m && m.collection === collection ? m.documents : []));
}

const NOW = Date.now();
function feed(events: string[]): string {
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//avail-test//EN', 'X-WR-CALNAME:Team', ...events, 'END:VCALENDAR', ''].join('\r\n');
}
function ics(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}
function timed(uid: string, startMs: number, title: string): string {
  return ['BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20300101T000000Z', `DTSTART:${ics(startMs)}`, `DTEND:${ics(startMs + 3_600_000)}`, `SUMMARY:${title}`, 'END:VEVENT'].join('\r\n');
}
const DAY = 86_400_000;
const day0 = Math.floor(NOW / DAY) * DAY + 2 * DAY;

describe('live stream', () => {
  it('sends a REST write, a push and a sync-job write within a second, only to the owner', async () => {
    const u = await buildUser(t);
    const other = await buildUser(t);
    const path = `/stream-${u.user.id}.ics`;
    srv.set(path, { ics: feed([timed('s1@test', day0 + 9 * 3_600_000, 'Standup')]) });
    const connect = await request(t.app).post('/api/me/calendar/ics/connect').set(u.auth).send({ url: srv.url(path) }).expect(201);
    const connId = connect.body.connection.id as string;

    const s = await openStream(u);
    const spy = await openStream(other);
    try {
      // Nothing old is replayed: the stream starts at the newest documents.
      expect(s.messages).toEqual([]);

      const added = await request(t.app).post('/api/me/availability-rules').set(u.auth).send({ weekday: 2, start_time_local: '09:00', end_time_local: '12:00' }).expect(201);
      const restMs = await waitFor(() => docsOf(s, 'availability_rules').some((d) => d.id === added.body.rule.id), 1000);
      const msg = s.messages.find((m) => 'collection' in m && m.collection === 'availability_rules') as Extract<StreamMessage, { collection: string }>;
      expect(msg.checkpoint).toEqual({ id: added.body.rule.id, updated_at: msg.documents.at(-1)!.updated_at });

      const pushed = rule(crypto.randomUUID());
      await pushReq(u, 'availability_rules', [{ newDocumentState: pushed }]).expect(200, []);
      await waitFor(() => docsOf(s, 'availability_rules').some((d) => d.id === pushed.id), 1000);

      // The backup sync job picks up a changed feed.
      srv.set(path, { ics: feed([timed('s1@test', day0 + 9 * 3_600_000, 'Standup moved title'), timed('s2@test', day0 + 14 * 3_600_000, 'Review')]) });
      // Its backup slot has come up (the job syncs a connection once per 15 minutes).
      await t.db.updateTable('calendar_connections').set({ last_synced_at: Date.now() - 15 * 60_000 }).where('id', '=', connId).execute();
      await backupSyncJob().run(t.deps, { isStopping: () => false } as never);
      const jobMs = await waitFor(() => docsOf(s, 'calendar_events').some((d) => d.title === 'Review'), 1000);
      expect(docsOf(s, 'calendar_events').map((d) => d.title).sort()).toEqual(['Review', 'Standup moved title']);
      await waitFor(() => docsOf(s, 'calendar_connections').some((d) => d.id === connId), 1000); // same write, next message
      const ev = docsOf(s, 'calendar_events')[0];
      expect(typeof ev.all_day).toBe('boolean');
      expect(typeof ev.is_busy).toBe('boolean');

      // Profile changes arrive too.
      await request(t.app).put('/api/me/profile').set(u.auth).send({ timezone: 'Asia/Tokyo' }).expect(200);
      await waitFor(() => docsOf(s, 'profile').some((d) => d.timezone === 'Asia/Tokyo'), 1000);

      // Heartbeats keep the connection alive; nothing of u reached the other user's stream.
      await waitFor(() => s.raw.some((b) => b.startsWith(':')), 1000);
      expect(spy.messages).toEqual([]);
      console.info(`[measure] stream delivery: REST ${Math.round(restMs)} ms, sync job ${Math.round(jobMs)} ms`);
    } finally {
      s.close();
      spy.close();
    }
  });
});

describe('busy blocks on the live stream', () => {
  it("sends a REST block and a device's pushed delete within a second, only to the owner", async () => {
    const u = await buildUser(t);
    const other = await buildUser(t);
    const s = await openStream(u);
    const spy = await openStream(other);
    try {
      const start = Date.now() + 2 * DAY;
      const created = await request(t.app).post('/api/me/blocks').set(u.auth).send({ start_ms: start, end_ms: start + 3_600_000, note: 'Physio' }).expect(201);
      const id = created.body.block.id as string;
      await waitFor(() => docsOf(s, 'busy_blocks').some((d) => d.id === id && d._deleted === false), 1000);
      const [doc] = docsOf(s, 'busy_blocks');
      expect(doc).toEqual({ id, start_ms: start, end_ms: start + 3_600_000, note: 'Physio', edited_at: expect.any(Number), device_id: 'server', updated_at: expect.any(Number), _deleted: false });

      await pushReq(u, 'busy_blocks', [{ assumedMasterState: doc, newDocumentState: { ...doc, _deleted: true, edited_at: doc.edited_at + 1, device_id: 'dev-a' } }]).expect(200, []);
      await waitFor(() => docsOf(s, 'busy_blocks').some((d) => d.id === id && d._deleted === true), 1000);
      expect(spy.messages).toEqual([]);
    } finally {
      s.close();
      spy.close();
    }
  });
});

describe('calendar events without churn', () => {
  it('re-derives unchanged data without writing event rows; changes and removals are stamped; disconnect leaves tombstones', async () => {
    const u = await buildUser(t);
    const path = `/churn-${u.user.id}.ics`;
    const events = [timed('a@test', day0 + 9 * 3_600_000, 'A'), timed('b@test', day0 + 11 * 3_600_000, 'B'), timed('c@test', day0 + 13 * 3_600_000, 'C')];
    srv.set(path, { ics: feed(events), headers: {} });
    const connect = await request(t.app).post('/api/me/calendar/ics/connect').set(u.auth).send({ url: srv.url(path) }).expect(201);
    const connId = connect.body.connection.id as string;
    // Titles are sealed at rest (never plain in the table); opened here with the server's key.
    const snapshot = async () =>
      (await t.db.selectFrom('calendar_events').select(['id', 'title', 'updated_at']).where('user_id', '=', u.user.id).execute())
        .map((r) => {
          expect(r.title.startsWith('enc:v1.')).toBe(true);
          return { ...r, title: openContent(r.title, t.config.AVAIL_SECRET_KEY), updated_at: Number(r.updated_at) };
        })
        .sort((a, b) => a.title.localeCompare(b.title));
    const before = await snapshot();
    expect(before.map((e) => e.title)).toEqual(['A', 'B', 'C']);

    // A day later the unchanged feed is re-derived in full (the horizon moves): zero event rows written.
    t.clock.set(Date.now() + 2 * DAY);
    try {
      expect(await syncConnection(t.deps, connId)).toMatchObject({ ok: true });
      const sources = await t.db.selectFrom('calendar_connections').select('sync_state_json').where('id', '=', connId).executeTakeFirstOrThrow();
      expect(JSON.parse(sources.sync_state_json!).derivedAt).toBe(t.clock.now()); // it really re-derived
    } finally {
      t.clock.reset();
    }
    expect(await snapshot()).toEqual(before);
    // And a zone change re-derives every connection: still nothing to write for timed events.
    await request(t.app).put('/api/me/profile').set(u.auth).send({ timezone: 'Asia/Tokyo' }).expect(200);
    expect(await snapshot()).toEqual(before);
    // The connection row itself is re-stamped (last_synced_at).
    const conns = await pullAll(u, 'calendar_connections');
    expect(conns[0].updated_at).toBeGreaterThan(before[0].updated_at);

    // B changes title, C vanishes: B is updated with a new stamp, C deleted with a tombstone, A untouched.
    srv.set(path, { ics: feed([events[0], timed('b@test', day0 + 11 * 3_600_000, 'B2')]) });
    await syncConnection(t.deps, connId);
    const after = await snapshot();
    expect(after.map((e) => e.title)).toEqual(['A', 'B2']);
    expect(after[0]).toEqual(before[0]);
    expect(after[1].id).toBe(before[1].id);
    expect(after[1].updated_at).toBeGreaterThan(before[1].updated_at);
    const pulled = await pullAll(u, 'calendar_events');
    expect(pulled.map((d) => [d.id, d._deleted])).toEqual([
      [before[0].id, false],
      [before[1].id, false],
      [before[2].id, true],
    ].sort((x, y) => {
      const ux = pulled.find((d) => d.id === x[0]).updated_at;
      const uy = pulled.find((d) => d.id === y[0]).updated_at;
      return ux - uy || (String(x[0]) < String(y[0]) ? -1 : 1);
    }));
    const tomb = pulled.find((d) => d.id === before[2].id);
    expect(tomb).toMatchObject({ _deleted: true, all_day: false, is_busy: false });

    // C comes back: same stable id, tombstone gone, one live document again.
    srv.set(path, { ics: feed(events) });
    await syncConnection(t.deps, connId);
    const back = await pullAll(u, 'calendar_events');
    expect(back.filter((d) => d.id === before[2].id)).toEqual([expect.objectContaining({ _deleted: false, title: 'C' })]);

    // Disconnect: every event and the connection become tombstones, after the last checkpoint.
    const last = back.at(-1);
    await request(t.app).delete(`/api/me/calendar/connections/${connId}`).set(u.auth).expect(200);
    const gone = (await pullReq(u, 'calendar_events', { id: last.id, updated_at: last.updated_at, limit: 1000 }).expect(200)).body.documents;
    expect(gone.map((d: any) => d.id).sort()).toEqual(before.map((e) => e.id).sort());
    expect(gone.every((d: any) => d._deleted === true)).toBe(true);
    const connDocs = await pullAll(u, 'calendar_connections');
    expect(connDocs).toEqual([expect.objectContaining({ id: connId, _deleted: true })]);
    expect(await snapshot()).toEqual([]);
  });
});
