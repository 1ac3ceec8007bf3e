/**
 * The server's part in the device conflict clock (shared/src/rx/hlc.ts): every replication answer
 * carries the server's time, and a stamp more than 5 minutes ahead of it is refused (with the server's time) with nothing applied.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CLOCK_AHEAD_MS, SERVER_TIME_HEADER } from '@avail/shared/rx/hlc.ts';
import { REPLICATION_SCHEMA_VERSION, SCHEMA_HEADER } from '@avail/shared/rx/replication-protocol.ts';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

const V = { [SCHEMA_HEADER]: String(REPLICATION_SCHEMA_VERSION) };
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  t.clock.set('2030-01-07T09:00:00Z');
});
afterAll(async () => {
  await t?.close();
});

const rule = (id: string, editedAt: number) => ({
  id,
  weekday: 0,
  start_time_local: '09:00',
  end_time_local: '17:00',
  edited_at: editedAt,
  device_id: 'device-a',
  updated_at: 0,
});

describe('replication and the conflict clock', () => {
  it('pull, push and errors carry X-Avail-Time, the server clock in epoch ms', async () => {
    const u = await buildUser(t);
    const pull = await request(t.app).get('/api/replication/availability_rules/pull').set(u.auth).set(V).expect(200);
    expect(pull.headers[SERVER_TIME_HEADER.toLowerCase()]).toBe(String(Date.parse('2030-01-07T09:00:00Z')));
    const anon = await request(t.app).get('/api/replication/availability_rules/pull').set(V).expect(401);
    expect(anon.headers[SERVER_TIME_HEADER.toLowerCase()]).toBe(String(Date.parse('2030-01-07T09:00:00Z')));
  });

  it('a stamp more than 5 min ahead is refused (422 clock_ahead, with server_time) and nothing of the batch is applied; 5 min exactly is accepted', async () => {
    const u = await buildUser(t);
    const now = t.clock.now();
    const res = await request(t.app)
      .post('/api/replication/availability_rules/push')
      .set(u.auth)
      .set(V)
      .send([{ assumedMasterState: null, newDocumentState: rule('11111111-1111-4111-8111-111111111111', now) }, { assumedMasterState: null, newDocumentState: rule('22222222-2222-4222-8222-222222222222', now + MAX_CLOCK_AHEAD_MS + 1) }])
      .expect(422);
    expect(res.body.code).toBe('clock_ahead');
    expect(res.body.error).toBe("This device's clock is more than 5 minutes ahead of the server. Please correct the date and time on this device.");
    expect(res.body.server_time).toBe(now);
    expect(MAX_CLOCK_AHEAD_MS).toBe(5 * 60_000);
    const pulled = await request(t.app).get('/api/replication/availability_rules/pull').set(u.auth).set(V).expect(200);
    expect(pulled.body.documents).toEqual([]);
    await request(t.app)
      .post('/api/replication/availability_rules/push')
      .set(u.auth)
      .set(V)
      .send([{ assumedMasterState: null, newDocumentState: rule('33333333-3333-4333-8333-333333333333', now + MAX_CLOCK_AHEAD_MS) }])
      .expect(200, []);
  });
});
