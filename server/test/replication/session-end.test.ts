/**
 * Issue 26: a device's replication meets the end of its session — the token expired (idle past
 * SESSION_IDLE_DAYS) or was ended from another device — and hands the server's answer to the app
 * once (`onUnauthorized`), which signs out with the matching notice ('Your session has expired.
 * Please sign in again.' for `session_expired`). RxDB on fake-indexeddb against the real server over
 * HTTP; SQLite, and PostgreSQL when TEST_POSTGRES_URL is set.
 */
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../factories.ts';
import type { TestApp } from '../test-app.ts';
import { listenTestApp, openDevice, waitFor, type Device, type ListeningApp } from './rx-device.ts';

let t: TestApp;
let app: ListeningApp;
let baseUrl: string;
const devices: Device[] = [];

beforeAll(async () => {
  // Sessions end after 30 idle days here (the test app's default keeps them ~100 years).
  app = await listenTestApp({ env: { SESSION_IDLE_DAYS: '30' } });
  ({ t, baseUrl } = app);
});
afterEach(async () => {
  while (devices.length) await devices.pop()!.close();
});
afterAll(async () => {
  await app.close();
});

/** A device replicating for `token`, recording what its 401 hook receives; resolves once the first pull is done. */
async function deviceRecording401(token: string) {
  const seen: Array<{ code?: string; error?: string }> = [];
  const d = await openDevice(baseUrl, token, { onUnauthorized: (answer) => seen.push(answer) });
  devices.push(d);
  await d.replication.states.availability_rules.awaitInitialReplication();
  return { d, seen };
}

describe('a session ending under a replicating device', () => {
  it('an idle-expired token: the hook gets session_expired and its message, once', async () => {
    const { user, token } = await buildUser(t);
    const { d, seen } = await deviceRecording401(token);
    expect(seen).toEqual([]);
    const back = 31 * 86_400_000;
    await t.db
      .updateTable('auth_tokens')
      .set((eb) => ({ last_used_at: eb('last_used_at', '-', back), created_at: eb('created_at', '-', back) }))
      .where('user_id', '=', String(user.id))
      .execute();
    d.replication.reconnect();
    await waitFor(() => seen.length > 0, 5000, 'the 401 hook');
    expect(seen[0]).toEqual({ code: 'session_expired', error: 'Your session has expired. Please sign in again.' });
    // Later retries meet a plain 401 (the row is gone): the hook is not called again.
    d.replication.reconnect();
    await new Promise((r) => setTimeout(r, 400));
    expect(seen).toHaveLength(1);
  });

  it('a token ended from another device: the hook gets the plain unauthenticated answer', async () => {
    const { user, token } = await buildUser(t);
    const { d, seen } = await deviceRecording401(token);
    // The owner signs in elsewhere and ends this device's session from the list.
    const other = await request(t.app).post('/api/auth/login').send({ email: user.email, password: 'password123' });
    const auth = { Authorization: `Bearer ${other.body.token as string}` };
    const list = await request(t.app).get('/api/me/sessions').set(auth).expect(200);
    const target = (list.body.sessions as Array<{ id: string; current: boolean }>).find((s) => !s.current)!;
    await request(t.app).delete(`/api/me/sessions/${target.id}`).set(auth).expect(204);
    d.replication.reconnect();
    await waitFor(() => seen.length > 0, 5000, 'the 401 hook');
    expect(seen).toEqual([{ code: 'unauthenticated', error: 'Unauthenticated' }]);
  });
});
