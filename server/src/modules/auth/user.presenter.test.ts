import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

describe('the User JSON carries the public link visitors use', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is PUBLIC_BASE_URL/username — not whatever origin the client runs on — and null without a username', async () => {
    const named = await buildUser(t, { username: 'Jane-Doe' });
    const me = await request(t.app).get('/api/me').set(named.auth).set('Origin', 'app://avail');
    expect(me.body.user.public_url).toBe('http://avail.test/Jane-Doe');
    const anonymous = await buildUser(t);
    expect((await request(t.app).get('/api/me').set(anonymous.auth)).body.user.public_url).toBeNull();
  });
});
