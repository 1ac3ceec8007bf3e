/**
 * Several server instances on one PostgreSQL database: a write on one instance reaches a
 * replication stream held by another (LISTEN/NOTIFY). PostgreSQL only: vitest.config.ts includes
 * `*.postgres.test.ts` files only when TEST_POSTGRES_URL is set (the second run of `npm test`).
 */
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLICATION_SCHEMA_VERSION, SCHEMA_HEADER } from '@avail/shared/rx/replication-protocol.ts';
import { buildUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { waitFor } from '../../../test/replication/rx-device.ts';

const V = { [SCHEMA_HEADER]: String(REPLICATION_SCHEMA_VERSION) };
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('several server instances (PostgreSQL LISTEN/NOTIFY)', () => {
  it('a write on one instance reaches a stream on another within a second', async () => {
    const { createDb } = await import('../../db/kysely.ts');
    const { createApp } = await import('../../app.ts');
    const db2 = createDb({ DATABASE_URL: process.env.TEST_POSTGRES_URL!, SQLITE_PATH: '' }, { pgSchema: t.testDb.location });
    const app2 = createApp({ ...t.deps, db: db2 });
    const server2 = app2.listen(0);
    await new Promise((r) => server2.once('listening', r));
    const u = await buildUser(t);
    const ac = new AbortController();
    try {
      const res = await fetch(`http://127.0.0.1:${(server2.address() as AddressInfo).port}/api/replication/stream`, { headers: { ...u.auth, ...V }, signal: ac.signal });
      expect(res.status).toBe(200);
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      const reading = (async () => {
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) return;
            text += value;
          }
        } catch {
          // aborted
        }
      })();
      await waitFor(() => text.includes('retry:'), 2000);
      await new Promise((r) => setTimeout(r, 100));
      const added = await request(t.app).post('/api/me/availability-rules').set(u.auth).send({ weekday: 6, start_time_local: '09:00', end_time_local: '10:00' }).expect(201);
      await waitFor(() => text.includes(added.body.rule.id), 1000);
      ac.abort();
      await reading;
    } finally {
      ac.abort();
      server2.closeAllConnections();
      await new Promise((r) => server2.close(r));
      await db2.destroy();
    }
  });
});
