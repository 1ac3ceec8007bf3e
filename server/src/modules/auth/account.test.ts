/**
 * Issue 12 (4): DELETE /api/me removes the account and every row it owns in one go; the public
 * link is 404 at once; tokens stop working; the address and username can be used again.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { USER_TABLES } from './account.repo.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ rateLimits: { publicPerIp: { windowMs: 60_000, limit: 1_000_000 } } });
});
afterAll(async () => {
  await t.close();
});

/** Every table of the database with a `user_id` column (read from the schema, not from our list). */
async function tablesWithUserId(): Promise<string[]> {
  // This test's own schema on PostgreSQL (the database may hold other schemas: other tests', the job engine's).
  const tables = (await t.db.introspection.getTables()).filter((tb) => t.testDb.dialect !== 'postgres' || tb.schema === t.testDb.location);
  return tables.filter((tb) => tb.columns.some((c) => c.name === 'user_id')).map((tb) => tb.name).sort();
}

async function rowsOf(userId: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of await tablesWithUserId()) {
    const r = await t.db.selectFrom(table as 'users').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id' as never, '=', userId as never).executeTakeFirstOrThrow();
    out[table] = Number(r.n);
  }
  out.users = (await t.db.selectFrom('users').select('id').where('id', '=', userId).execute()).length;
  return out;
}

describe('DELETE /api/me', () => {
  it('the deletion list covers every table that has a user_id column', async () => {
    expect([...USER_TABLES].sort()).toEqual(await tablesWithUserId());
  });

  it('a missing or wrong password deletes nothing; the right one deletes every row, at once for visitors', async () => {
    const slug = `del${Date.now().toString(36)}`;
    const owner = await buildUser(t, { username: slug, password: 'the password 1', timezone: 'Europe/Brussels' });
    const other = await buildUser(t, { username: `${slug}o`, password: 'other password' });
    const id = owner.user.id;
    // Data in as many tables as the API reaches.
    await request(t.app).post('/api/me/availability-rules').set(owner.auth).send({ weekday: 1, start_time_local: '09:00', end_time_local: '17:00' }).expect(201);
    await request(t.app).post('/api/me/exceptions').set(owner.auth).send({ date: '2031-01-06', start_time_local: null, end_time_local: null }).expect(201);
    const start = Date.now() + 86_400_000;
    await request(t.app).post('/api/me/blocks').set(owner.auth).send({ start_ms: start, end_ms: start + 3_600_000, note: 'dentist' }).expect(201);
    await request(t.app).post('/api/auth/forgot-password').send({ email: owner.user.email }).expect(200);
    await request(t.app).get(`/api/public/${slug}/availability`).expect(200); // a page view, and the cache warm
    await request(t.app).get(`/api/public/${slug}/availability`).expect(200);
    const before = await rowsOf(id);
    expect(before.users).toBe(1);
    expect(Object.values(before).reduce((a, b) => a + b, 0)).toBeGreaterThan(5);

    const missing = await request(t.app).delete('/api/me').set(owner.auth).send({});
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ password: 'Please enter your password to delete your account.' });
    const wrong = await request(t.app).delete('/api/me').set(owner.auth).send({ password: 'not it' });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ error: 'The password is incorrect.', errors: { password: 'The password is incorrect.' } });
    expect(await rowsOf(id)).toEqual(before);
    expect((await request(t.app).delete('/api/me').send({ password: 'the password 1' })).status).toBe(401);

    const ok = await request(t.app).delete('/api/me').set(owner.auth).send({ password: 'the password 1' });
    expect(ok.status).toBe(204);
    const after = await rowsOf(id);
    expect(Object.entries(after).filter(([, n]) => n > 0)).toEqual([]);
    // The public link is gone at once (the cache too), the token is dead.
    expect((await request(t.app).get(`/api/public/${slug}/availability`)).status).toBe(404);
    expect((await request(t.app).get('/api/me').set(owner.auth)).status).toBe(401);
    expect((await request(t.app).post('/api/auth/login').send({ email: owner.user.email, password: 'the password 1' })).status).toBe(401);
    // Someone else's data is untouched.
    expect((await rowsOf(other.user.id)).users).toBe(1);
    expect((await request(t.app).get('/api/me').set(other.auth)).status).toBe(200);
    // The username is free again: someone else takes it, and the link shows them.
    const newcomer = await buildUser(t, { username: null });
    const taken = await request(t.app).put('/api/me/profile/username').set(newcomer.auth).send({ username: slug });
    expect(taken.status).toBe(200);
    expect((await request(t.app).get(`/api/public/${slug}/availability`)).status).toBe(200);
    // The address can register again.
    const again = await request(t.app)
      .post('/api/auth/register')
      .send({ name: 'New Person', email: owner.user.email, password: 'fresh password 1', password_confirmation: 'fresh password 1' });
    expect(again.status).toBe(201);
  });
});
