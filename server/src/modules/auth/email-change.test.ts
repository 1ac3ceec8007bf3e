/**
 * Issue 26: changing the e-mail address while signed in — a 6-digit code to the new address
 * (15 minutes, 5 guesses, 6 codes an hour), the change on the right code, a notice to the old
 * address (docs/account-security.md "E-mail change").
 */
import { generateSync } from 'otplib';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, type BuiltUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { findThrottle } from './login-throttle.repo.ts';
import { throttleKey } from './login-throttle.service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

let n = 0;
const fresh = () => `new${Date.now().toString(36)}${++n}@example.com`;
const INVALID = { error: 'Invalid or expired code', code: 'invalid_code', errors: { code: 'Invalid or expired code' } };
const ask = (auth: { Authorization: string }, email: string, password: string) => request(t.app).post('/api/me/email').set(auth).send({ email, password });
const confirm = (auth: { Authorization: string }, code: string) => request(t.app).post('/api/me/email/verify').set(auth).send({ code });
const login = (email: string, password: string) => request(t.app).post('/api/auth/login').send({ email, password });
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

const STEP_MS = 30_000;
const REQUESTED_SUBJECT = 'Someone asked to change the e-mail address of your Avail account';
/** The TOTP code of `secret` at the fake clock's time (RFC 6238), as an authenticator app shows it. */
const totp = (secret: string, ms = t.clock.now()) => generateSync({ secret, epoch: Math.floor(ms / 1000) });

/** A fresh owner who turned two-factor sign-in on (the clock moved a step on, so the next code is new). */
async function ownerWithTwoFactor(): Promise<BuiltUser & { secret: string; recovery: string[] }> {
  const owner = await buildUser(t);
  const setup = await request(t.app).post('/api/me/two-factor/setup').set(owner.auth).send({ password: owner.password }).expect(200);
  const enabled = await request(t.app).post('/api/me/two-factor/enable').set(owner.auth).send({ code: totp(setup.body.secret) }).expect(200);
  t.clock.advance(STEP_MS);
  return { ...owner, secret: setup.body.secret, recovery: enabled.body.recovery_codes };
}

/** The code of the latest e-mail-change mail to `email`. */
function codeFor(email: string): string {
  const mail = [...t.outbox].reverse().find((m) => m.to === email && m.subject === 'Confirm your new Avail e-mail address');
  if (!mail) throw new Error(`no code e-mail to ${email}`);
  return /^\s+(\d{6})$/m.exec(mail.text)![1];
}

describe('e-mail change', () => {
  it('sends a code to the new address; the code changes the address, keeps it verified and tells the old one', async () => {
    t.clock.reset();
    const { user, password, auth } = await buildUser(t, { name: 'Grace Hopper' });
    const next = fresh();
    const sent = t.outbox.length;
    const res = await ask(auth, `  ${next.toUpperCase()} `, password);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: `We sent a 6-digit code to ${next}.`, email: next });
    const asked = t.outbox.slice(sent);
    expect(asked.map((m) => m.to).sort()).toEqual([next, user.email].sort());
    const codeMail = asked.find((m) => m.to === next)!;
    // The owner hears of the request at the address they still have; the new address is not in it.
    const requested = asked.find((m) => m.to === user.email)!;
    expect(requested.subject).toBe(REQUESTED_SUBJECT);
    expect(requested.text).toContain('Hi Grace Hopper,');
    for (const part of [requested.text, requested.html ?? '', requested.subject]) {
      expect(part).not.toContain(next);
      expect(part).not.toMatch(/\b\d{6}\b/); // not the code
      expect(part).not.toMatch(/\b\d{1,3}(\.\d{1,3}){3}\b|::1\b|::ffff/i); // no IP
    }
    expect(codeMail.text).toContain('Hi Grace Hopper,');
    expect(codeMail.text).toContain('15 minutes');
    const code = codeFor(next);
    expect(codeMail.subject).not.toContain(code);
    // Nothing changed yet.
    expect((await request(t.app).get('/api/me').set(auth)).body.user.email).toBe(user.email);

    const before = t.outbox.length;
    const done = await confirm(auth, code);
    expect(done.status).toBe(200);
    expect(done.body.success).toBe(true);
    expect(done.body.message).toBe('Your e-mail address has been changed.');
    expect(done.body.user.email).toBe(next);
    expect(done.body.user.email_verified_at).not.toBeNull();
    const meNow = (await request(t.app).get('/api/me').set(auth).expect(200)).body.user;
    expect(meNow.email).toBe(next);
    expect(meNow.email_verified_at).toBe(new Date(user.email_verified_at!).toISOString());

    // Sign-in with the new address; the old one is no account any more.
    expect((await login(next, password)).status).toBe(200);
    expect((await login(user.email, password)).status).toBe(401);

    const notices = t.outbox.slice(before);
    expect(notices).toHaveLength(1);
    expect(notices[0].to).toBe(user.email);
    expect(notices[0].subject).toBe('Your Avail e-mail address was changed');
    expect(notices[0].text).toContain('Hi Grace Hopper,');
    expect(`${notices[0].text}${notices[0].html}`).not.toContain(next);
    // The code is used up.
    expect((await confirm(auth, code)).body).toEqual(INVALID);
  });

  it('409 for an address of another account, verified or not', async () => {
    const { password, auth } = await buildUser(t);
    const verified = await buildUser(t);
    const unverified = await buildUser(t, { verified: false });
    const before = t.outbox.length;
    for (const taken of [verified.user.email, unverified.user.email.toUpperCase()]) {
      const res = await ask(auth, taken, password);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'Email is already registered', code: 'email_taken', errors: { email: 'Email is already registered' } });
    }
    expect(t.outbox.length).toBe(before);
  });

  it('409 when the address was registered between the code and its use', async () => {
    const { user, password, auth } = await buildUser(t);
    const next = fresh();
    await ask(auth, next, password).expect(200);
    await buildUser(t, { email: next });
    const res = await confirm(auth, codeFor(next));
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('email_taken');
    expect((await request(t.app).get('/api/me').set(auth)).body.user.email).toBe(user.email);
  });

  it('422 for a wrong password (counted by the login throttle), a bad address or the owner’s own', async () => {
    t.clock.set(Date.parse('2031-06-01T10:00:00Z'));
    const { user, password, auth } = await buildUser(t);
    const bad = await ask(auth, 'not-an-address', password);
    expect(bad.status).toBe(422);
    expect(bad.body.errors.email).toBe('Email is invalid');
    const own = await ask(auth, user.email, password);
    expect(own.status).toBe(422);
    expect(own.body.errors.email).toBeTruthy();
    const missing = await request(t.app).post('/api/me/email').set(auth).send({ email: fresh() });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.password).toBe('The password is incorrect.');
    for (let i = 1; i <= 5; i++) {
      const res = await ask(auth, fresh(), `wrong ${i}`);
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ password: 'The password is incorrect.' });
    }
    const locked = await ask(auth, fresh(), password);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    t.clock.reset();
  });

  it('a wrong code is 422; after 5 guesses the code is dead (429), even the right one', async () => {
    const { user, password, auth } = await buildUser(t);
    const next = fresh();
    await ask(auth, next, password).expect(200);
    const code = codeFor(next);
    for (let i = 0; i < 5; i++) {
      const res = await confirm(auth, wrong(code));
      expect(res.status).toBe(422);
      expect(res.body).toEqual(INVALID);
    }
    const dead = await confirm(auth, code);
    expect(dead.status).toBe(429);
    expect(dead.body.code).toBe('too_many_attempts');
    expect((await request(t.app).get('/api/me').set(auth)).body.user.email).toBe(user.email);
    // A new code starts afresh.
    await ask(auth, next, password).expect(200);
    await confirm(auth, codeFor(next)).expect(200);
  });

  it('a code expires after 15 minutes; a newer code replaces an earlier one', async () => {
    t.clock.set(Date.parse('2031-06-02T10:00:00Z'));
    const { password, auth } = await buildUser(t);
    const next = fresh();
    await ask(auth, next, password).expect(200);
    const first = codeFor(next);
    t.clock.advance(15 * 60_000);
    expect((await confirm(auth, first)).body).toEqual(INVALID);
    const other = fresh();
    await ask(auth, next, password).expect(200);
    const second = codeFor(next);
    await ask(auth, other, password).expect(200);
    // The code for `next` was replaced by the one for `other`.
    if (second !== codeFor(other)) expect((await confirm(auth, second)).body).toEqual(INVALID);
    t.clock.advance(14 * 60_000);
    const res = await confirm(auth, codeFor(other));
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe(other);
    t.clock.reset();
  });

  it('at most 6 codes an hour', async () => {
    t.clock.set(Date.parse('2031-06-03T10:00:00Z'));
    const { password, auth } = await buildUser(t);
    for (let i = 0; i < 6; i++) await ask(auth, fresh(), password).expect(200);
    const sent = t.outbox.length;
    const res = await ask(auth, fresh(), password);
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('rate_limited');
    expect(t.outbox.length).toBe(sent);
    t.clock.advance(60 * 60_000);
    await ask(auth, fresh(), password).expect(200);
    t.clock.reset();
  });

  it('clears the old address’s failed sign-ins and voids a reset code mailed to it', async () => {
    const { user, password, auth } = await buildUser(t);
    for (let i = 0; i < 3; i++) await login(user.email, `wrong ${i}`).expect(401);
    expect(await findThrottle(t.db, throttleKey(t.config.AVAIL_SECRET_KEY, user.email))).toBeTruthy();
    await request(t.app).post('/api/auth/forgot-password').send({ email: user.email }).expect(200);
    const resetMail = [...t.outbox].reverse().find((m) => m.to === user.email && m.subject === 'Reset your Avail password')!;
    const resetCode = /^\s+(\d{6})$/m.exec(resetMail.text)![1];

    const next = fresh();
    await ask(auth, next, password).expect(200);
    await confirm(auth, codeFor(next)).expect(200);
    expect(await findThrottle(t.db, throttleKey(t.config.AVAIL_SECRET_KEY, user.email))).toBeUndefined();
    const reset = await request(t.app)
      .post('/api/auth/reset-password')
      .send({ email: next, code: resetCode, password: 'taken over!', password_confirmation: 'taken over!' });
    expect(reset.status).toBe(400);
    expect((await login(next, password)).status).toBe(200);
  });

  describe('with two-factor sign-in on (a stolen session and a phished password are not enough)', () => {
    const REQUIRED = 'Enter the 6-digit code from your authenticator app.';
    const WRONG_CODE = 'The code is incorrect.';
    const askWith = (owner: BuiltUser, email: string, extra: Record<string, string>) =>
      request(t.app).post('/api/me/email').set(owner.auth).send({ email, password: owner.password, ...extra });

    it('without a code 422 two_factor_required, a wrong one 422 invalid_two_factor_code, no mail sent; the right one sends the code', async () => {
      t.clock.set(Date.parse('2031-06-02T10:00:00Z'));
      const owner = await ownerWithTwoFactor();
      const next = fresh();
      const before = t.outbox.length;
      const missing = await askWith(owner, next, {});
      expect(missing.status).toBe(422);
      expect(missing.body).toEqual({ error: REQUIRED, code: 'two_factor_required', errors: { two_factor_code: REQUIRED } });
      const right = totp(owner.secret);
      const wrongCode = ['000000', '111111', '222222', '333333'].find((c) => ![-STEP_MS, 0, STEP_MS].some((d) => totp(owner.secret, t.clock.now() + d) === c))!;
      const wrong = await askWith(owner, next, { two_factor_code: wrongCode });
      expect(wrong.status).toBe(422);
      expect(wrong.body).toEqual({ error: WRONG_CODE, code: 'invalid_two_factor_code', errors: { two_factor_code: WRONG_CODE } });
      // The password is still checked first.
      expect((await request(t.app).post('/api/me/email').set(owner.auth).send({ email: next, password: 'wrong one', two_factor_code: right })).body.errors).toEqual({ password: 'The password is incorrect.' });
      // Nor does a refused request tell whether an address has an account.
      const taken = await buildUser(t);
      expect((await askWith(owner, taken.user.email, {})).body.code).toBe('two_factor_required');
      expect(t.outbox.length).toBe(before);

      const ok = await askWith(owner, next, { two_factor_code: right });
      expect(ok.status).toBe(200);
      expect(t.outbox.slice(before).map((m) => m.subject).sort()).toEqual(['Confirm your new Avail e-mail address', REQUESTED_SUBJECT].sort());
      await confirm(owner.auth, codeFor(next)).expect(200);
      t.clock.reset();
    });

    it('a recovery code works too; wrong codes are counted by the second-factor throttle (429 with Retry-After)', async () => {
      t.clock.set(Date.parse('2031-06-03T10:00:00Z'));
      const owner = await ownerWithTwoFactor();
      for (let i = 1; i <= 5; i++) expect((await askWith(owner, fresh(), { two_factor_code: 'zzzzz-zzzzz' })).status, `attempt ${i}`).toBe(422);
      const locked = await askWith(owner, fresh(), { two_factor_code: owner.recovery[0] });
      expect(locked.status).toBe(429);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      t.clock.advance(31_000);
      expect((await askWith(owner, fresh(), { two_factor_code: owner.recovery[0] })).status).toBe(200);
      t.clock.reset();
    });
  });

  it('401 without a token', async () => {
    expect((await request(t.app).post('/api/me/email').send({ email: fresh(), password: 'x' })).status).toBe(401);
    expect((await request(t.app).post('/api/me/email/verify').send({ code: '123456' })).status).toBe(401);
  });
});
