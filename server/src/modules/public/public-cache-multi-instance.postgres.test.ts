/**
 * Two server instances on one PostgreSQL database, each with its own public cache: a change made
 * through one instance is seen by the other's next visitor request once the NOTIFY arrives (and
 * never a stale cached answer after that). PostgreSQL only (vitest.config.ts includes
 * `*.postgres.test.ts` files only when TEST_POSTGRES_URL is set).
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { waitFor } from '../../../test/replication/rx-device.ts';
import { changeBusFor } from '../../store/change-bus.ts';
import { closePublicCache, publicCacheFor } from './public-cache.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(Date.UTC(2030, 0, 4, 12));
});
afterAll(async () => {
  await t?.close();
});

describe('public cache across instances (PostgreSQL LISTEN/NOTIFY)', () => {
  it('a rule added on instance A invalidates the answer cached by instance B', async () => {
    const { createDb } = await import('../../db/kysely.ts');
    const { createApp } = await import('../../app.ts');
    const db2 = createDb({ DATABASE_URL: process.env.TEST_POSTGRES_URL!, SQLITE_PATH: '' }, { pgSchema: t.testDb.location });
    const app2 = createApp({ ...t.deps, db: db2 });
    try {
      publicCacheFor(db2);
      await changeBusFor(db2).ready();
      const o = await buildUser(t, { username: `mi${Math.random().toString(36).slice(2, 8)}`, timezone: 'Europe/Brussels' });
      const q = `/api/public/${o.user.username}/availability?range=2030-01-07..2030-01-07`;
      expect((await request(app2).get(q)).body.availability.windows).toEqual([]);
      expect((await request(app2).get(q)).body.availability.windows).toEqual([]); // cached on B
      await request(t.app).post('/api/me/availability-rules').set(o.auth).send({ weekday: 0, start_time_local: '09:00', end_time_local: '17:00' }).expect(201);
      await waitFor(async () => (await request(app2).get(q)).body.availability.windows.length === 1, 5_000, 'B sees the rule');
      expect((await request(app2).get(q)).body.availability.windows).toEqual([{ start: '2030-01-07T08:00:00Z', end: '2030-01-07T16:00:00Z' }]);
    } finally {
      closePublicCache(db2);
      await db2.destroy();
    }
  });
});
