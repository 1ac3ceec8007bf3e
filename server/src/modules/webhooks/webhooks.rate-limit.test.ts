/**
 * Issue 12 (6): provider webhooks are rate-limited per client address; a flood from one address
 * is refused with 429 while notifications from other addresses still get through.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ rateLimits: { webhooksPerIp: { windowMs: 60_000, limit: 20 } } });
});
afterAll(async () => {
  await t.close();
});

describe('webhook rate limit', () => {
  it('one address past the limit gets 429 on both endpoints; another address is still answered', async () => {
    const flood = async (path: string, ip: string) => {
      const statuses: number[] = [];
      for (let i = 0; i < 25; i++) {
        const req = request(t.app).post(path).set('X-Forwarded-For', ip);
        const res = path.endsWith('google') ? await req.set('X-Goog-Channel-ID', `nope-${i}`).send() : await req.send({ value: [] });
        statuses.push(res.status);
      }
      return statuses;
    };
    const google = await flood('/api/webhooks/google', '198.51.100.7');
    expect(google.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(google.slice(20)).toEqual([429, 429, 429, 429, 429]);
    // The limit is per address and shared by the webhook routes of that address.
    expect((await request(t.app).post('/api/webhooks/microsoft').set('X-Forwarded-For', '198.51.100.7').send({ value: [] })).status).toBe(429);
    const other = await request(t.app).post('/api/webhooks/microsoft').set('X-Forwarded-For', '198.51.100.8').send({ value: [] });
    expect(other.status).toBe(202);
  });
});
