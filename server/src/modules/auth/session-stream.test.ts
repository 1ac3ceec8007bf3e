/**
 * Issue 26: a device whose session ends — signed out from another device, or by a password
 * change — stops receiving the owner's data on the replication stream it keeps open, at once.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLICATION_SCHEMA_VERSION, SCHEMA_HEADER } from '@avail/shared/rx/replication-protocol.ts';
import { buildUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

const V = { [SCHEMA_HEADER]: String(REPLICATION_SCHEMA_VERSION) };
let t: TestApp;
let server: Server;
let baseUrl: string;
beforeAll(async () => {
  // A heartbeat of 10 s: the stream must end on the next write, not wait for a heartbeat.
  t = await createTestApp({ replication: { stream: { heartbeatMs: 10_000 } } });
  server = t.app.listen(0);
  await new Promise((r) => server.once('listening', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  await t?.close();
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Opens the stream with `token`; collects its `data:` blocks and whether the server ended it. */
async function openStream(token: string) {
  const ac = new AbortController();
  const res = await fetch(`${baseUrl}/api/replication/stream`, { headers: { ...bearer(token), ...V, Accept: 'text/event-stream' }, signal: ac.signal });
  expect(res.status).toBe(200);
  const client = { data: [] as string[], blocks: 0, ended: false, close: () => ac.abort() };
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buf = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += value;
        let i: number;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          client.blocks += 1;
          const data = block.split('\n').filter((l) => l.startsWith('data:')).join('\n');
          if (data) client.data.push(data);
        }
      }
      client.ended = true;
    } catch {
      // aborted by the test
    }
  })();
  await until(() => client.blocks > 0);
  await new Promise((r) => setTimeout(r, 50));
  return client;
}

async function until(check: () => boolean, timeoutMs = 3000) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const addRule = (token: string, weekday: number) =>
  request(t.app).post('/api/me/availability-rules').set(bearer(token)).send({ weekday, start_time_local: '09:00', end_time_local: '12:00' }).expect(201);

describe('the replication stream of an ended session', () => {
  it('keeps delivering while the session lives, and ends without a document once it is signed out elsewhere', async () => {
    const { user, password, token: laptop } = await buildUser(t);
    const phone = (await request(t.app).post('/api/auth/login').send({ email: user.email, password }).expect(200)).body.token as string;
    const stream = await openStream(phone);
    await addRule(laptop, 1);
    await until(() => stream.data.some((d) => d.includes('availability_rules')));

    const sessions = (await request(t.app).get('/api/me/sessions').set(bearer(laptop)).expect(200)).body.sessions as Array<{ id: string; current: boolean }>;
    const phoneId = sessions.find((s) => !s.current)!.id;
    await request(t.app).delete(`/api/me/sessions/${phoneId}`).set(bearer(laptop)).expect(204);
    const seen = stream.data.length;
    await addRule(laptop, 2);
    await until(() => stream.ended);
    expect(stream.data.length).toBe(seen);
    // Reconnecting is refused.
    expect((await fetch(`${baseUrl}/api/replication/stream`, { headers: { ...bearer(phone), ...V } })).status).toBe(401);
  });

  it('a password change ends the other devices’ streams too; the changing device’s stream goes on', async () => {
    const { user, password, token: laptop } = await buildUser(t);
    const phone = (await request(t.app).post('/api/auth/login').send({ email: user.email, password }).expect(200)).body.token as string;
    const phoneStream = await openStream(phone);
    const laptopStream = await openStream(laptop);
    const changed = await request(t.app).put('/api/me/password').set(bearer(laptop)).send({ current_password: password, password: 'a new secret 1', password_confirmation: 'a new secret 1' }).expect(200);
    const seen = phoneStream.data.length;
    // The laptop goes on under its renewed token (same session: its open stream is not ended).
    await addRule(changed.body.token as string, 3);
    await until(() => phoneStream.ended);
    expect(phoneStream.data.length).toBe(seen);
    await until(() => laptopStream.data.some((d) => d.includes('availability_rules')));
    expect(laptopStream.ended).toBe(false);
    laptopStream.close();
  });
});
