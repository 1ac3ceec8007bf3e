/**
 * Issue 12 (2): the per-account login throttle holds across client addresses, never locks for
 * good, e-mails the owner once, and treats addresses without an account the same way.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { lockDurationMs, LOGIN_LOCK_MAX_MS, throttleKey } from './login-throttle.service.ts';

let t: TestApp;
beforeAll(async () => {
  // The per-IP limiters are wide open here: only the per-account throttle can answer 429.
  t = await createTestApp({
    rateLimits: {
      authPerIp: { windowMs: 60_000, limit: 1_000_000 },
      loginPerAccount: { windowMs: 60_000, limit: 1_000_000, key: 'ip+email' },
    },
  });
});
afterAll(async () => {
  await t.close();
});

let ip = 0;
/** A login from a new client address each time (X-Forwarded-For through the loopback proxy). */
const login = (email: string, password: string) =>
  request(t.app).post('/api/auth/login').set('X-Forwarded-For', `198.51.100.${++ip % 250}`).send({ email, password });

describe('login throttle per account', () => {
  it('40 wrong passwords from 40 addresses: 429 with Retry-After after 5, the right one waits, then works', async () => {
    const now = Date.parse('2030-03-01T10:00:00Z');
    t.clock.set(now);
    const owner = await buildUser(t, { password: 'the right one' });
    const email = owner.user.email;
    const sent = t.outbox.length;
    const statuses: number[] = [];
    let lastRetry = '';
    for (let i = 0; i < 40; i++) {
      const res = await login(email, `guess ${i}`);
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.body).toEqual({ error: 'Too many login attempts. Please try again later.', code: 'rate_limited' });
        lastRetry = res.headers['retry-after'];
      }
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
    expect(lastRetry).toBe('30'); // locked for 30 s after the fifth failure, counting down
    // Locked: even the right password is refused, without being checked.
    expect((await login(email, 'the right one')).status).toBe(429);
    // The lock is this address's alone: an unknown e-mail still gets today's 401.
    const unknown = await login(`nobody.${now}@example.com`, 'guess');
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ error: 'Invalid email or password', code: 'invalid_credentials' });
    // One e-mail to the owner, with no addresses in it.
    const mails = t.outbox.slice(sent).filter((m) => m.to === email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('Failed sign-in attempts on your Avail account');
    expect(mails[0].text).toContain('5 failed sign-in attempts');
    expect(mails[0].text).toContain('your password has not been changed');
    expect(mails[0].text).not.toMatch(/198\.51\.100/);

    // After the wait, the right password works and the count starts again.
    t.clock.set(now + 31_000);
    const ok = await login(email, 'the right one');
    expect(ok.status).toBe(200);
    expect(ok.body.token).toEqual(expect.any(String));
    for (let i = 0; i < 5; i++) expect((await login(email, `again ${i}`)).status).toBe(401);
    expect((await login(email, 'again 6')).status).toBe(429);
    t.clock.reset();
  });

  it('locks grow 30 s, 1 min, 2 min … and never past 15 minutes; a wrong password after a lock doubles it', async () => {
    expect([4, 5, 6, 7, 8].map(lockDurationMs)).toEqual([0, 30_000, 60_000, 120_000, 240_000]);
    expect(lockDurationMs(100)).toBe(LOGIN_LOCK_MAX_MS);
    const now = Date.parse('2030-03-02T10:00:00Z');
    t.clock.set(now);
    const owner = await buildUser(t, { password: 'the right one' });
    for (let i = 0; i < 5; i++) await login(owner.user.email, 'wrong');
    t.clock.set(now + 30_001);
    const sixth = await login(owner.user.email, 'wrong');
    expect(sixth.status).toBe(401);
    const next = await login(owner.user.email, 'the right one');
    expect(next.status).toBe(429);
    expect(next.headers['retry-after']).toBe('60');
    t.clock.set(now + 30_001 + 60_001);
    expect((await login(owner.user.email, 'the right one')).status).toBe(200);
    t.clock.reset();
  });

  it('an address without an account is answered exactly like one with an account', async () => {
    const now = Date.parse('2030-03-03T10:00:00Z');
    t.clock.set(now);
    const owner = await buildUser(t, { password: 'the right one' });
    const nobody = `nobody.${Date.now()}@example.com`;
    const sent = t.outbox.length;
    const a: Array<[number, unknown, string | undefined]> = [];
    const b: Array<[number, unknown, string | undefined]> = [];
    for (let i = 0; i < 8; i++) {
      const x = await login(owner.user.email, 'wrong');
      const y = await login(nobody, 'wrong');
      a.push([x.status, x.body, x.headers['retry-after']]);
      b.push([y.status, y.body, y.headers['retry-after']]);
    }
    expect(b).toEqual(a);
    expect(t.outbox.slice(sent).filter((m) => m.to === nobody)).toHaveLength(0);
    t.clock.reset();
  });

  it('a password reset clears the count', async () => {
    const now = Date.parse('2030-03-04T10:00:00Z');
    t.clock.set(now);
    const owner = await buildUser(t, { password: 'old password' });
    for (let i = 0; i < 5; i++) await login(owner.user.email, 'wrong');
    expect((await login(owner.user.email, 'old password')).status).toBe(429);
    await request(t.app).post('/api/auth/forgot-password').send({ email: owner.user.email }).expect(200);
    const code = /\b(\d{6})\b/.exec(t.outbox.filter((m) => m.to === owner.user.email).at(-1)!.text)![1];
    await request(t.app)
      .post('/api/auth/reset-password')
      .send({ email: owner.user.email, code, password: 'new password 1', password_confirmation: 'new password 1' })
      .expect(200);
    expect((await login(owner.user.email, 'new password 1')).status).toBe(200);
    t.clock.reset();
  });
});

describe('purge of expired auth rows (the daily job)', () => {
  it('forgets throttle rows after a day unless locked, and reset codes a day after they expired', async () => {
    const { purgeJob } = await import('../../jobs/purge.job.ts');
    const now = Date.parse('2030-04-01T10:00:00Z');
    t.clock.set(now);
    const a = await buildUser(t, { password: 'right' });
    await login(a.user.email, 'wrong');
    await request(t.app).post('/api/auth/forgot-password').send({ email: a.user.email }).expect(200);
    const count = async () => ({
      throttle: (await t.db.selectFrom('login_throttle').select('key_hash').where('key_hash', '=', throttleKey(t.config.AVAIL_SECRET_KEY, a.user.email)).execute()).length,
      resets: (await t.db.selectFrom('password_resets').select('user_id').where('user_id', '=', a.user.id).execute()).length,
    });
    const job = purgeJob();
    const before = await count();
    expect(before.resets).toBe(1);
    t.clock.set(now + 23 * 3_600_000);
    await job.run(t.deps as never, { isStopping: () => false });
    expect(await count()).toEqual(before); // nothing is due yet
    t.clock.set(now + 25 * 3_600_000);
    await job.run(t.deps as never, { isStopping: () => false });
    const after = await count();
    expect(after.resets).toBe(0);
    expect(before.throttle).toBe(1);
    expect(after.throttle).toBe(0);
    t.clock.reset();
  });
});
