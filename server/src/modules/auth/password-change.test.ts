/**
 * Issue 26: PUT /api/me/password — the current password, then the new one; every other session
 * ends, this one stays, the owner is e-mailed (no address, no IP); wrong current passwords count
 * for the login throttle (docs/account-security.md "Password change while signed in").
 */
import { generateSync } from 'otplib';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, type BuiltUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const INCORRECT = { error: 'The password is incorrect.', code: 'validation_failed', errors: { current_password: 'The password is incorrect.' } };
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const me = (token: string) => request(t.app).get('/api/me').set(bearer(token));
const login = (email: string, password: string) => request(t.app).post('/api/auth/login').send({ email, password });
const change = (token: string, body: Record<string, unknown>) => request(t.app).put('/api/me/password').set(bearer(token)).send(body);
const body = (current: string, next = 'a brand new secret', confirmation = next) => ({ current_password: current, password: next, password_confirmation: confirmation });
const STEP_MS = 30_000;
/** The TOTP code of `secret` at the fake clock's time (RFC 6238), as an authenticator app shows it. */
const totp = (secret: string, ms = t.clock.now()) => generateSync({ secret, epoch: Math.floor(ms / 1000) });
/** A 6-digit code that is not the TOTP code of `secret` for this step or either neighbour. */
const wrongTotp = (secret: string) =>
  ['000000', '111111', '222222', '333333'].find((c) => ![-STEP_MS, 0, STEP_MS].some((d) => totp(secret, t.clock.now() + d) === c))!;

/** A fresh owner who turned two-factor sign-in on (the clock moved a step on, so the next code is new). */
async function ownerWithTwoFactor(): Promise<BuiltUser & { secret: string; recovery: string[] }> {
  const owner = await buildUser(t);
  const setup = await request(t.app).post('/api/me/two-factor/setup').set(owner.auth).send({ password: owner.password }).expect(200);
  const enabled = await request(t.app).post('/api/me/two-factor/enable').set(owner.auth).send({ code: totp(setup.body.secret) }).expect(200);
  t.clock.advance(STEP_MS);
  return { ...owner, secret: setup.body.secret, recovery: enabled.body.recovery_codes };
}

describe('PUT /api/me/password', () => {
  it('changes the password: the new one signs in, the old one not; other sessions end, this one stays; the owner is e-mailed', async () => {
    t.clock.reset();
    const { user, password, token } = await buildUser(t, { name: 'Ada Lovelace' });
    const phone = (await login(user.email, password).expect(200)).body.token as string;
    const laptop = (await login(user.email, password).expect(200)).body.token as string;
    const stranger = await buildUser(t);
    const before = t.outbox.length;

    const res = await change(laptop, body(password));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Your password has been changed. Other devices were signed out.', token: expect.any(String) });
    // This device goes on under a new token; the one it sent (perhaps copied from it) stops working.
    const renewed = res.body.token as string;
    expect(renewed).not.toBe(laptop);
    await me(renewed).expect(200);
    for (const other of [laptop, token, phone]) {
      const gone = await me(other);
      expect(gone.status).toBe(401);
      expect(gone.body.code).toBe('unauthenticated');
    }
    await me(stranger.token).expect(200);
    expect((await login(user.email, password)).status).toBe(401);
    expect((await login(user.email, 'a brand new secret')).status).toBe(200);
    const list = (await request(t.app).get('/api/me/sessions').set(bearer(renewed)).expect(200)).body.sessions;
    expect(list).toHaveLength(2); // this one (the same session, its label kept), and the sign-in just made
    expect(list[0]).toMatchObject({ current: true });

    const mails = t.outbox.slice(before);
    expect(mails).toHaveLength(1);
    const mail = mails[0];
    expect(mail.to).toBe(user.email);
    expect(mail.subject).toBe('Your Avail password was changed');
    expect(mail.text).toContain('Hi Ada Lovelace,');
    expect(mail.text).toContain('signed out');
    expect(mail.text).toContain('http://avail.test/forgot-password');
    for (const part of [mail.text, mail.html ?? '', mail.subject]) {
      expect(part).not.toContain(user.email);
      expect(part).not.toMatch(/\b\d{1,3}(\.\d{1,3}){3}\b/); // no IPv4 (127.0.0.1, ::ffff:127.0.0.1)
      expect(part).not.toMatch(/::1\b|::ffff/i);
    }
  });

  it('a missing or wrong current password is 422 on current_password and changes nothing', async () => {
    const { user, password, token } = await buildUser(t);
    const other = (await login(user.email, password).expect(200)).body.token as string;
    const before = t.outbox.length;
    const missing = await change(token, { password: 'a brand new secret', password_confirmation: 'a brand new secret' });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.current_password).toBe('The password is incorrect.');
    const wrong = await change(token, body('not my password'));
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual(INCORRECT);
    await me(other).expect(200);
    expect((await login(user.email, password)).status).toBe(200);
    expect(t.outbox.length).toBe(before);
  });

  it('the new password follows the registration rules', async () => {
    const { password, token } = await buildUser(t);
    const short = await change(token, body(password, 'short'));
    expect(short.status).toBe(422);
    expect(short.body.errors.password).toBe('Password must be at least 8 characters');
    const mismatch = await change(token, body(password, 'a brand new secret', 'another secret'));
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors.password_confirmation).toBe('Passwords do not match');
  });

  it('wrong current passwords count for the login throttle: after 5, 429 with Retry-After, also for the sign-in', async () => {
    t.clock.set(Date.parse('2031-05-01T10:00:00Z'));
    const { user, password, token } = await buildUser(t);
    for (let i = 1; i <= 5; i++) {
      const res = await change(token, body(`wrong ${i}`));
      expect(res.status, `attempt ${i}`).toBe(422);
    }
    const locked = await change(token, body(password));
    expect(locked.status).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(locked.body.code).toBe('rate_limited');
    expect((await login(user.email, password)).status).toBe(429);
    // The lock ends (30 s): the right password changes it, and the count starts afresh.
    t.clock.advance(31_000);
    await change(token, body(password)).expect(200);
    t.clock.reset();
  });

  describe('with two-factor sign-in on (a stolen session and a phished password are not enough)', () => {
    const REQUIRED = 'Enter the 6-digit code from your authenticator app.';
    const WRONG_CODE = 'The code is incorrect.';

    it('without a code 422 two_factor_required, a wrong one 422 invalid_two_factor_code; neither changes anything; the right one does', async () => {
      t.clock.set(Date.parse('2031-05-02T10:00:00Z'));
      const owner = await ownerWithTwoFactor();
      const hashBefore = (await t.db.selectFrom('users').select('password_hash').where('id', '=', owner.user.id).executeTakeFirstOrThrow()).password_hash;
      const before = t.outbox.length;

      const missing = await change(owner.token, body(owner.password));
      expect(missing.status).toBe(422);
      expect(missing.body).toEqual({ error: REQUIRED, code: 'two_factor_required', errors: { two_factor_code: REQUIRED } });
      const empty = await change(owner.token, { ...body(owner.password), two_factor_code: '  ' });
      expect(empty.body.code).toBe('two_factor_required');
      const wrong = await change(owner.token, { ...body(owner.password), two_factor_code: wrongTotp(owner.secret) });
      expect(wrong.status).toBe(422);
      expect(wrong.body).toEqual({ error: WRONG_CODE, code: 'invalid_two_factor_code', errors: { two_factor_code: WRONG_CODE } });
      // The password is still checked first: a wrong one with the right code is a wrong password.
      const wrongPassword = await change(owner.token, { ...body('not my password'), two_factor_code: totp(owner.secret) });
      expect(wrongPassword.body).toEqual(INCORRECT);
      const hashNow = (await t.db.selectFrom('users').select('password_hash').where('id', '=', owner.user.id).executeTakeFirstOrThrow()).password_hash;
      expect(hashNow).toBe(hashBefore);
      expect(t.outbox.slice(before).filter((m) => m.subject === 'Your Avail password was changed')).toEqual([]);

      const ok = await change(owner.token, { ...body(owner.password), two_factor_code: totp(owner.secret) });
      expect(ok.status).toBe(200);
      expect(ok.body.success).toBe(true);
      t.clock.advance(STEP_MS);
      const signIn = await request(t.app).post('/api/auth/login').send({ email: owner.user.email, password: 'a brand new secret', two_factor_code: totp(owner.secret) });
      expect(signIn.status).toBe(200);
      t.clock.reset();
    });

    it('a recovery code works too; wrong codes are counted by the second-factor throttle (429 with Retry-After)', async () => {
      t.clock.set(Date.parse('2031-05-03T10:00:00Z'));
      const owner = await ownerWithTwoFactor();
      for (let i = 1; i <= 5; i++) {
        const res = await change(owner.token, { ...body(owner.password), two_factor_code: 'zzzzz-zzzzz' });
        expect(res.status, `attempt ${i}`).toBe(422);
        expect(res.body.code).toBe('invalid_two_factor_code');
      }
      const locked = await change(owner.token, { ...body(owner.password), two_factor_code: owner.recovery[0] });
      expect(locked.status).toBe(429);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      t.clock.advance(31_000);
      const ok = await change(owner.token, { ...body(owner.password), two_factor_code: owner.recovery[0].toUpperCase() });
      expect(ok.status).toBe(200);
      t.clock.reset();
    });
  });

  it('401 without a token', async () => {
    expect((await request(t.app).put('/api/me/password').send(body('x'))).status).toBe(401);
  });
});
