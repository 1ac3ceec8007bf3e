/**
 * Manual busy blocks (issue 10) over HTTP: the owner's REST calls, replication push/pull with the
 * conflict rule, and the public page treating a block as busy time without ever showing its note.
 * Runs on SQLite, and on PostgreSQL when TEST_POSTGRES_URL is set.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLICATION_SCHEMA_VERSION, SCHEMA_HEADER } from '@avail/shared/rx/replication-protocol.ts';
import { buildUser, type BuiltUser } from '../../../test/factories.ts';
import { openContent } from '../../lib/crypto.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

const V = { [SCHEMA_HEADER]: String(REPLICATION_SCHEMA_VERSION) };
const H = 3_600_000;
const DAY = 24 * H;
const NOW = Date.UTC(2026, 2, 20, 12); // Friday 2026-03-20 12:00Z
const MON = Date.UTC(2026, 2, 23); // Monday 2026-03-23 00:00Z (Brussels is UTC+1 that day)
const SECRET = 'Divorce lawyer, do not tell anyone';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(NOW);
});
afterAll(async () => {
  await t?.close();
});

const list = (u: BuiltUser, query: Record<string, string | number> = {}) => request(t.app).get('/api/me/blocks').query(query).set(u.auth);
const create = (u: BuiltUser, body: object) => request(t.app).post('/api/me/blocks').set(u.auth).send(body);
const remove = (u: BuiltUser, id: string) => request(t.app).delete(`/api/me/blocks/${id}`).set(u.auth);
const pull = (u: BuiltUser, q: Record<string, string | number> = {}) => request(t.app).get('/api/replication/busy_blocks/pull').query(q).set(u.auth).set(V);
const push = (u: BuiltUser, rows: unknown) => request(t.app).post('/api/replication/busy_blocks/push').set(u.auth).set(V).send(rows as object);

function block(id: string, over: Record<string, unknown> = {}) {
  return { id, start_ms: MON + 10 * H, end_ms: MON + 11 * H, note: null, edited_at: NOW - 60_000, device_id: 'dev-a', updated_at: 0, _deleted: false, ...over };
}
async function storedRows(userId: string) {
  return t.db.selectFrom('busy_blocks').selectAll().where('user_id', '=', userId).execute();
}
async function pullAll(u: BuiltUser) {
  return (await pull(u, { limit: 1000 }).expect(200)).body.documents as any[];
}
async function conflictLog(userId: string) {
  return (await t.db.selectFrom('replication_conflicts').selectAll().where('user_id', '=', userId).orderBy('created_at').execute()).map((r) => ({
    ...r,
    // The states are sealed at rest (issue 26).
    winner_json: openContent(r.winner_json, t.config.AVAIL_SECRET_KEY),
    loser_json: openContent(r.loser_json, t.config.AVAIL_SECRET_KEY),
  }));
}

describe('REST /api/me/blocks', () => {
  it('creates blocks, lists the live ones by start (optionally within a range) and deletes one', async () => {
    const u = await buildUser(t);
    const later = await create(u, { start_ms: MON + 14 * H, end_ms: MON + 15 * H }).expect(201);
    const dentist = await create(u, { start_ms: MON + 10 * H, end_ms: MON + 11 * H, note: '  Dentist ' }).expect(201);
    expect(dentist.body).toEqual({ block: { id: expect.any(String), start_ms: MON + 10 * H, end_ms: MON + 11 * H, note: 'Dentist' } });
    expect(later.body.block.note).toBeNull();

    expect((await list(u).expect(200)).body.blocks).toEqual([dentist.body.block, later.body.block]);
    // Overlap with [from, to): the 10–11 block touches 11:00 but does not overlap [11:00, 14:30).
    expect((await list(u, { from: MON + 11 * H, to: MON + 14 * H + H / 2 }).expect(200)).body.blocks).toEqual([later.body.block]);
    expect((await list(u, { to: MON + 10 * H + 1 }).expect(200)).body.blocks).toEqual([dentist.body.block]);
    expect((await list(u, { from: MON + 15 * H }).expect(200)).body.blocks).toEqual([]);

    const del = await remove(u, dentist.body.block.id).expect(204);
    expect(del.text).toBe('');
    expect((await list(u).expect(200)).body.blocks).toEqual([later.body.block]);
    await remove(u, dentist.body.block.id).expect(404); // already gone
    // Soft delete: the row stays (so the delete replicates), marked deleted.
    expect((await storedRows(u.user.id)).map((r) => [r.id, r.is_deleted]).sort()).toEqual(
      [[dentist.body.block.id, 1], [later.body.block.id, 0]].sort(),
    );
  });

  it("keeps each owner's blocks private: others neither list nor delete them", async () => {
    const owner = await buildUser(t);
    const other = await buildUser(t);
    const { body } = await create(owner, { start_ms: MON + 9 * H, end_ms: MON + 10 * H, note: SECRET }).expect(201);
    expect((await list(other).expect(200)).body.blocks).toEqual([]);
    const res = await remove(other, body.block.id).expect(404);
    expect(res.body).toEqual({ error: 'Busy block not found', code: 'not_found' });
    expect((await list(owner).expect(200)).body.blocks).toEqual([body.block]);
  });

  it('refuses bad input with 422 and the spec message, storing nothing', async () => {
    const u = await buildUser(t);
    const cases: Array<[object, string, string]> = [
      [{ start_ms: MON + 11 * H, end_ms: MON + 10 * H }, 'end_ms', 'The end must be after the start.'],
      [{ start_ms: MON + 10 * H, end_ms: MON + 10 * H }, 'end_ms', 'The end must be after the start.'],
      [{ start_ms: MON, end_ms: MON + 14 * DAY + 1 }, 'end_ms', 'A busy block can last at most 14 days.'],
      [{ start_ms: NOW - 2 * H, end_ms: NOW - H }, 'end_ms', 'This time is already over.'],
      [{ start_ms: NOW - H, end_ms: NOW }, 'end_ms', 'This time is already over.'],
      [{ start_ms: MON + 10 * H, end_ms: MON + 11 * H, note: 'x'.repeat(201) }, 'note', 'The note can be at most 200 characters.'],
      [{ start_ms: '2026-03-23T10:00:00Z', end_ms: MON + 11 * H }, 'start_ms', 'The start must be a time in UTC epoch milliseconds.'],
      [{ start_ms: MON + 10 * H }, 'end_ms', 'The end must be a time in UTC epoch milliseconds.'],
    ];
    for (const [body, field, message] of cases) {
      const res = await create(u, body).expect(422);
      expect(res.body, JSON.stringify(body)).toEqual({ error: message, code: 'validation_failed', errors: { [field]: message } });
    }
    expect(await storedRows(u.user.id)).toEqual([]);
    expect(await pullAll(u)).toEqual([]); // nothing reached replication either
  });

  it('accepts a block that has started but not ended, and one of exactly 14 days', async () => {
    const u = await buildUser(t);
    await create(u, { start_ms: NOW - H, end_ms: NOW + H }).expect(201);
    await create(u, { start_ms: MON, end_ms: MON + 14 * DAY }).expect(201);
    expect((await list(u).expect(200)).body.blocks).toHaveLength(2);
  });

  it('answers 401 without a token, 403 before verification and 400 for a bad range', async () => {
    await request(t.app).get('/api/me/blocks').expect(401);
    await request(t.app).post('/api/me/blocks').send({ start_ms: MON, end_ms: MON + H }).expect(401);
    const unverified = await buildUser(t, { verified: false });
    await create(unverified, { start_ms: MON, end_ms: MON + H }).expect(403);
    expect(await storedRows(unverified.user.id)).toEqual([]);
    const u = await buildUser(t);
    const badRanges: Array<Record<string, string | number>> = [{ from: 'monday' }, { to: '-5' }, { from: MON + H, to: MON }];
    for (const q of badRanges) {
      expect((await list(u, q).expect(400)).body.code).toBe('invalid_range');
    }
  });
});

describe('replication of busy blocks', () => {
  it('pulls a pushed block with the server stamp; a retried push changes nothing; REST sees it', async () => {
    const u = await buildUser(t);
    const id = crypto.randomUUID();
    await push(u, [{ assumedMasterState: null, newDocumentState: block(id, { note: 'Gym' }) }]).expect(200, []);
    const [stored] = await pullAll(u);
    expect(stored).toEqual({ ...block(id, { note: 'Gym' }), updated_at: expect.any(Number) });
    expect(stored.updated_at).toBeGreaterThanOrEqual(NOW); // the server's stamp, not the device's 0
    await push(u, [{ assumedMasterState: null, newDocumentState: block(id, { note: 'Gym' }) }]).expect(200, []);
    expect((await pullAll(u))[0].updated_at).toBe(stored.updated_at);
    expect((await list(u).expect(200)).body.blocks).toEqual([{ id, start_ms: MON + 10 * H, end_ms: MON + 11 * H, note: 'Gym' }]);

    // A REST block is pulled too, after the pushed one, authored by 'server'.
    const rest = await create(u, { start_ms: MON + 12 * H, end_ms: MON + 13 * H }).expect(201);
    const after = await pull(u, { id: stored.id, updated_at: stored.updated_at }).expect(200);
    expect(after.body.documents).toEqual([
      { id: rest.body.block.id, start_ms: MON + 12 * H, end_ms: MON + 13 * H, note: null, edited_at: NOW, device_id: 'server', updated_at: expect.any(Number), _deleted: false },
    ]);
  });

  it('deletes through a push (pulled as _deleted), and accepts a block delivered late, after it ended', async () => {
    const u = await buildUser(t);
    const id = crypto.randomUUID();
    await push(u, [{ newDocumentState: block(id) }]).expect(200, []);
    const [v1] = await pullAll(u);
    await push(u, [{ assumedMasterState: v1, newDocumentState: block(id, { _deleted: true, edited_at: NOW }) }]).expect(200, []);
    expect((await list(u).expect(200)).body.blocks).toEqual([]);
    const [gone] = await pullAll(u);
    expect(gone).toMatchObject({ id, _deleted: true, edited_at: NOW });
    expect(gone.updated_at).toBeGreaterThan(v1.updated_at);

    // An offline device created this block yesterday (when it was still ahead) and pushes it now.
    const late = crypto.randomUUID();
    await push(u, [{ newDocumentState: block(late, { start_ms: NOW - 20 * H, end_ms: NOW - 19 * H, edited_at: NOW - DAY }) }]).expect(200, []);
    expect((await list(u).expect(200)).body.blocks.map((b: any) => b.id)).toEqual([late]);
    expect(await conflictLog(u.user.id)).toEqual([]);
  });

  it('resolves conflicts by the shared rule and logs every loser: later edit wins, delete wins', async () => {
    const u = await buildUser(t);
    const id = crypto.randomUUID();
    await push(u, [{ newDocumentState: block(id, { edited_at: 1_000 }) }]).expect(200, []);
    const [v1] = await pullAll(u);
    await push(u, [{ assumedMasterState: v1, newDocumentState: block(id, { note: 'B', edited_at: 3_000, device_id: 'dev-b' }) }]).expect(200, []);

    // Device A edited v1 earlier than B: B's master comes back, A's edit is logged as the loser.
    const lost = await push(u, [{ assumedMasterState: v1, newDocumentState: block(id, { note: 'A', edited_at: 2_000 }) }]).expect(200);
    expect(lost.body).toEqual([expect.objectContaining({ id, note: 'B', edited_at: 3_000, device_id: 'dev-b', _deleted: false })]);
    let log = await conflictLog(u.user.id);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ collection: 'busy_blocks', doc_id: id, reason: 'latest_edit', device_id: 'dev-a' });
    expect(JSON.parse(log[0].loser_json).note).toBe('A');
    expect(JSON.parse(log[0].winner_json).note).toBe('B');

    // A later edit on a stale revision wins; the master it replaced is logged.
    await push(u, [{ assumedMasterState: v1, newDocumentState: block(id, { note: 'A2', end_ms: MON + 12 * H, edited_at: 4_000 }) }]).expect(200, []);
    expect((await list(u).expect(200)).body.blocks).toEqual([{ id, start_ms: MON + 10 * H, end_ms: MON + 12 * H, note: 'A2' }]);
    log = await conflictLog(u.user.id);
    expect(log).toHaveLength(2);
    expect(JSON.parse(log[1].loser_json).note).toBe('B');

    // The owner deletes it (REST); a device's newer edit made before it heard of the delete loses.
    const [current] = await pullAll(u);
    await remove(u, id).expect(204);
    const edit = await push(u, [{ assumedMasterState: current, newDocumentState: block(id, { note: 'too late', edited_at: NOW + 60_000, device_id: 'dev-c' }) }]).expect(200);
    expect(edit.body).toEqual([expect.objectContaining({ id, _deleted: true, device_id: 'server' })]);
    log = await conflictLog(u.user.id);
    expect(log.map((c) => c.reason)).toEqual(['latest_edit', 'latest_edit', 'delete_wins']);
    expect(JSON.parse(log[2].loser_json).note).toBe('too late');
    expect((await list(u).expect(200)).body.blocks).toEqual([]);
  });

  it("refuses another user's block id with 409 id_taken, applying nothing and revealing nothing", async () => {
    const owner = await buildUser(t);
    const intruder = await buildUser(t);
    const { body } = await create(owner, { start_ms: MON + 9 * H, end_ms: MON + 10 * H, note: SECRET }).expect(201);
    const res = await push(intruder, [
      { newDocumentState: block(crypto.randomUUID()) },
      { newDocumentState: block(body.block.id, { _deleted: true, edited_at: NOW + 3 * 60_000 }) },
    ]).expect(409);
    expect(res.body).toEqual({ error: 'This document id is already in use.', code: 'id_taken' });
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
    expect((await list(owner).expect(200)).body.blocks).toEqual([body.block]);
    expect(await pullAll(intruder)).toEqual([]);
  });

  it('fails the whole batch with 422 when one block is invalid, applying nothing', async () => {
    const u = await buildUser(t);
    const good = block(crypto.randomUUID());
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ end_ms: MON + 9 * H }, '1.end_ms', 'The end must be after the start.'],
      [{ end_ms: MON + 10 * H + 14 * DAY + 1 }, '1.end_ms', 'A busy block can last at most 14 days.'],
      [{ note: 'x'.repeat(201) }, '1.note', 'The note can be at most 200 characters.'],
      [{ start_ms: String(MON + 10 * H) }, '1.start_ms', 'The start must be a time in UTC epoch milliseconds.'],
      [{ start_ms: MON + 0.5 }, '1.start_ms', 'The start must be a time in UTC epoch milliseconds.'],
    ];
    for (const [over, key, message] of cases) {
      const res = await push(u, [{ newDocumentState: good }, { newDocumentState: block(crypto.randomUUID(), over) }]).expect(422);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors, JSON.stringify(over)).toEqual({ [key]: message });
    }
    expect(await storedRows(u.user.id)).toEqual([]);
  });
});

describe('public availability with busy blocks', () => {
  let seq = 0;
  async function owner() {
    const username = `blk${++seq}x${Math.random().toString(36).slice(2, 6)}`;
    const built = await buildUser(t, { username, timezone: 'Europe/Brussels' });
    await request(t.app).post('/api/me/availability-rules').set(built.auth).send({ weekday: 0, start_time_local: '09:00', end_time_local: '17:00' }).expect(201);
    return { ...built, username };
  }
  const monday = (slug: string) => request(t.app).get(`/api/public/${slug}/availability`).query({ range: '2026-03-23..2026-03-23' }).expect(200);
  const FULL_MONDAY = [{ start: '2026-03-23T08:00:00Z', end: '2026-03-23T16:00:00Z' }];

  it('no longer offers a blocked hour, never shows the note, and frees the time again when the block is deleted', async () => {
    const o = await owner();
    expect((await monday(o.username)).body.availability.windows).toEqual(FULL_MONDAY);

    const { body } = await create(o, { start_ms: MON + 10 * H, end_ms: MON + 11 * H, note: SECRET }).expect(201);
    const blocked = await monday(o.username);
    expect(blocked.body.availability.windows).toEqual([
      { start: '2026-03-23T08:00:00Z', end: '2026-03-23T10:00:00Z' },
      { start: '2026-03-23T11:00:00Z', end: '2026-03-23T16:00:00Z' },
    ]);
    expect(blocked.text).not.toContain(SECRET);
    expect(blocked.text).not.toContain(body.block.id);

    // Visitors cannot propose the blocked hour either (same engine).
    const proposal = await request(t.app)
      .post(`/api/public/${o.username}/proposals`)
      .send({ start: '2026-03-23T10:00:00Z', end: '2026-03-23T10:30:00Z', name: 'Vera Visitor', email: 'vera@example.com', visitor_timezone: 'Europe/Brussels' })
      .expect(422);
    expect(proposal.body.code).toBe('not_free');
    expect(proposal.text).not.toContain(SECRET);

    await remove(o, body.block.id).expect(204);
    expect((await monday(o.username)).body.availability.windows).toEqual(FULL_MONDAY);
  });

  it('counts a block pushed by a device exactly like a calendar busy interval, until a pushed delete frees it', async () => {
    const o = await owner();
    const id = crypto.randomUUID();
    // A block spanning the weekend into Monday morning (Brussels 09:00–12:30 = 08:00–11:30Z).
    await push(o, [{ newDocumentState: block(id, { start_ms: NOW + H, end_ms: MON + 11 * H + H / 2, note: SECRET }) }]).expect(200, []);
    const blocked = await monday(o.username);
    expect(blocked.body.availability.windows).toEqual([{ start: '2026-03-23T11:30:00Z', end: '2026-03-23T16:00:00Z' }]);
    expect(blocked.text).not.toContain(SECRET);

    const [v1] = await pullAll(o);
    await push(o, [{ assumedMasterState: v1, newDocumentState: { ...v1, _deleted: true, edited_at: NOW } }]).expect(200, []);
    expect((await monday(o.username)).body.availability.windows).toEqual(FULL_MONDAY);
  });

  it("ignores other owners' blocks", async () => {
    const a = await owner();
    const b = await owner();
    await create(b, { start_ms: MON, end_ms: MON + DAY }).expect(201);
    expect((await monday(a.username)).body.availability.windows).toEqual(FULL_MONDAY);
    expect((await monday(b.username)).body.availability.windows).toEqual([]);
  });
});
