/**
 * GET /api/me/conflicts: an owner sees the versions of their rules, exceptions and blocks that lost
 * to another device's (what was replaced, by which device, when) — never another owner's.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLICATION_SCHEMA_VERSION, SCHEMA_HEADER } from '@avail/shared/rx/replication-protocol.ts';
import { buildUser, type BuiltUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

const V = { [SCHEMA_HEADER]: String(REPLICATION_SCHEMA_VERSION) };
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const push = (u: BuiltUser, collection: string, rows: object) => request(t.app).post(`/api/replication/${collection}/push`).set(u.auth).set(V).send(rows);
const rule = (id: string, over: Record<string, unknown>) => ({ id, weekday: 2, start_time_local: '09:00', end_time_local: '12:00', edited_at: 1_000, device_id: 'laptop', updated_at: 0, ...over });

describe('GET /api/me/conflicts', () => {
  it('lists the replaced version, the device that won and when, newest first; only for its owner', async () => {
    const owner = await buildUser(t);
    const other = await buildUser(t);
    const id = crypto.randomUUID();
    const now = Date.now();
    await push(owner, 'availability_rules', [{ assumedMasterState: null, newDocumentState: rule(id, { edited_at: now - 5_000 }) }]).expect(200, []);
    // The phone edited the same rule offline (it never saw the laptop's version) later: it wins.
    await push(owner, 'availability_rules', [
      { assumedMasterState: null, newDocumentState: rule(id, { start_time_local: '13:00', end_time_local: '17:00', edited_at: now - 1_000, device_id: 'phone' }) },
    ]).expect(200, []);
    const res = await request(t.app).get('/api/me/conflicts').set(owner.auth).expect(200);
    expect(res.headers['cache-control']).toMatch(/no-store/);
    expect(res.body.conflicts).toHaveLength(1);
    const [c] = res.body.conflicts;
    expect(c).toMatchObject({
      collection: 'availability_rules',
      docId: id,
      reason: 'latest_edit',
      byDevice: 'phone',
      replaced: { id, weekday: 2, start_time_local: '09:00', end_time_local: '12:00', device_id: 'laptop', _deleted: false },
      kept: { start_time_local: '13:00', end_time_local: '17:00', device_id: 'phone' },
    });
    expect(Date.parse(c.decidedAt)).toBeGreaterThan(now - 60_000);

    expect((await request(t.app).get('/api/me/conflicts').set(other.auth).expect(200)).body.conflicts).toEqual([]);
    await request(t.app).get('/api/me/conflicts').expect(401);
  });

  it('leaves out conflicts older than 30 days', async () => {
    const owner = await buildUser(t);
    const id = crypto.randomUUID();
    await push(owner, 'availability_rules', [{ assumedMasterState: null, newDocumentState: rule(id, { edited_at: 2_000 }) }]).expect(200);
    await push(owner, 'availability_rules', [{ assumedMasterState: null, newDocumentState: rule(id, { edited_at: 3_000, device_id: 'phone', weekday: 3 }) }]).expect(200);
    await t.db.updateTable('replication_conflicts').set({ created_at: Date.now() - 31 * 86_400_000 }).where('user_id', '=', owner.user.id).execute();
    expect((await request(t.app).get('/api/me/conflicts').set(owner.auth).expect(200)).body.conflicts).toEqual([]);
  });
});
