import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories.ts';
import { createTestApp, lastCodeFor, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

let n = 0;
const fresh = () => `person${++n}.${Date.now()}@example.com`;
const registration = (email: string, extra: Record<string, unknown> = {}) => ({
  name: 'Ada Lovelace',
  email,
  password: 'correct horse',
  password_confirmation: 'correct horse',
  ...extra,
});

describe('register → e-mail code → verify → token', () => {
  it('walks the whole flow a new user sees', async () => {
    const email = fresh();
    const reg = await request(t.app).post('/api/auth/register').send(registration(email.toUpperCase()));
    expect(reg.status).toBe(201);
    expect(reg.body).toMatchObject({ token: null, requires_verification: true, email });
    expect(reg.body.user).toMatchObject({ name: 'Ada Lovelace', email, email_verified_at: null, username: null });
    expect(reg.body.message).toMatch(/check your email/i);

    const mail = t.outbox.at(-1)!;
    expect(mail.to).toBe(email);
    expect(mail.subject).toMatch(/Avail/);
    const code = lastCodeFor(t.outbox, email);
    expect(mail.text).toContain(`http://avail.test/verify-email?email=${encodeURIComponent(email)}&code=${code}`);

    // Not verified yet: login answers requires_verification and no token.
    const early = await request(t.app).post('/api/auth/login').send({ email, password: 'correct horse' });
    expect(early.status).toBe(200);
    expect(early.body).toEqual({ user: null, token: null, requires_verification: true, message: 'Please verify your email before logging in.', email });

    const ver = await request(t.app).post('/api/auth/verify-email').send({ email, verification_code: code });
    expect(ver.status).toBe(200);
    expect(ver.body).toMatchObject({ success: true, message: 'Email verified successfully!' });
    expect(ver.body.user.email_verified_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(typeof ver.body.token).toBe('string');

    const me = await request(t.app).get('/api/me').set('Authorization', `Bearer ${ver.body.token}`);
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(email);

    // The code is single-use.
    const again = await request(t.app).post('/api/auth/verify-email').send({ email, verification_code: code });
    expect(again.status).toBe(409);

    const login = await request(t.app).post('/api/auth/login').send({ email, password: 'correct horse' });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ requires_verification: false, message: 'Login successful' });
    expect(login.body.user.email).toBe(email);
    expect(login.body.token).not.toBe(ver.body.token);
  });

  it('refuses a second registration of a verified address with 409', async () => {
    const { user } = await buildUser(t);
    const res = await request(t.app).post('/api/auth/register').send(registration(user.email));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'Email is already registered', code: 'email_taken' });
  });

  it('answers validation errors with the spec messages per field', async () => {
    const res = await request(t.app)
      .post('/api/auth/register')
      .send({ name: ' ', email: 'nope', password: 'short', password_confirmation: 'other' });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toMatchObject({
      name: 'Name is required',
      email: 'Email is invalid',
      password: 'Password must be at least 8 characters',
    });
    expect(res.body.error).toBe('Name is required');
    const mismatch = await request(t.app).post('/api/auth/register').send(registration(fresh(), { password_confirmation: 'different!' }));
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors.password_confirmation).toBe('Passwords do not match');
  });

  it('answers bad JSON with 400', async () => {
    const res = await request(t.app).post('/api/auth/login').set('Content-Type', 'application/json').send('{"email":');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('bad_request');
  });
});

describe('re-registering an unverified address', () => {
  const HOUR = 60 * 60_000;
  const other = { name: 'Mallory', password: 'attacker pass', password_confirmation: 'attacker pass' };
  const verify = (email: string, code: string) => request(t.app).post('/api/auth/verify-email').send({ email, verification_code: code });
  const login = (email: string, password: string) => request(t.app).post('/api/auth/login').send({ email, password });

  it('with the same password resends a code (after the 30 s cooldown) and changes nothing else', async () => {
    t.clock.set(Date.now());
    try {
      const email = fresh();
      const first = await request(t.app).post('/api/auth/register').send(registration(email));
      const sent = t.outbox.length;
      // within the cooldown: same 201, no second mail, the first code stays valid
      const again = await request(t.app).post('/api/auth/register').send(registration(email, { name: 'Other Name' }));
      expect(again.status).toBe(201);
      expect(Object.keys(again.body).sort()).toEqual(Object.keys(first.body).sort());
      expect(again.body).toMatchObject({ token: null, requires_verification: true, email, message: first.body.message });
      expect(again.body.user).toMatchObject({ name: 'Ada Lovelace', email });
      expect(t.outbox.length).toBe(sent);
      t.clock.advance(31_000);
      const later = await request(t.app).post('/api/auth/register').send(registration(email));
      expect(later.status).toBe(201);
      expect(t.outbox.length).toBe(sent + 1);
      expect((await verify(email, lastCodeFor(t.outbox, email))).status).toBe(200);
      expect((await login(email, 'correct horse')).status).toBe(200);
    } finally {
      t.clock.reset();
    }
  });

  it('with another password within 24 h is a 409 like a verified account, and the owner keeps the account', async () => {
    t.clock.set(Date.now());
    try {
      const email = fresh();
      await request(t.app).post('/api/auth/register').send(registration(email));
      const code = lastCodeFor(t.outbox, email);
      const sent = t.outbox.length;
      t.clock.advance(23 * HOUR);
      const takeover = await request(t.app).post('/api/auth/register').send(registration(email, other));
      expect(takeover.status).toBe(409);
      const { user } = await buildUser(t);
      const verifiedAnswer = await request(t.app).post('/api/auth/register').send(registration(user.email, other));
      expect(verifiedAnswer.status).toBe(409);
      expect(takeover.body).toEqual({ ...verifiedAnswer.body });
      expect(takeover.body).toMatchObject({ error: 'Email is already registered', code: 'email_taken' });
      expect(t.outbox.length).toBe(sent);
      // the real owner verifies with the e-mailed code and keeps their own password
      t.clock.advance(-23 * HOUR + 60_000);
      const ver = await verify(email, code);
      expect(ver.status).toBe(200);
      expect(ver.body.user.name).toBe('Ada Lovelace');
      expect((await login(email, 'attacker pass')).status).toBe(401);
      expect((await login(email, 'correct horse')).status).toBe(200);
    } finally {
      t.clock.reset();
    }
  });

  it('with another password after 24 h replaces name and password and sends a new code; the hold restarts', async () => {
    t.clock.set(Date.now());
    try {
      const email = fresh();
      await request(t.app).post('/api/auth/register').send(registration(email));
      t.clock.advance(24 * HOUR);
      const sent = t.outbox.length;
      const res = await request(t.app).post('/api/auth/register').send(registration(email, { name: 'Real Owner', password: 'new password', password_confirmation: 'new password' }));
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ token: null, requires_verification: true, email });
      expect(res.body.user.name).toBe('Real Owner');
      expect(t.outbox.length).toBe(sent + 1);
      // the replacement holds the address for 24 h in turn
      t.clock.advance(HOUR);
      expect((await request(t.app).post('/api/auth/register').send(registration(email, other))).status).toBe(409);
      t.clock.advance(-HOUR + 60_000);
      const ver = await verify(email, lastCodeFor(t.outbox, email));
      expect(ver.status).toBe(200);
      expect(ver.body.user.name).toBe('Real Owner');
      expect((await login(email, 'correct horse')).status).toBe(401);
      expect((await login(email, 'new password')).status).toBe(200);
    } finally {
      t.clock.reset();
    }
  });

  it('invalidates every earlier code when a registration is replaced', async () => {
    t.clock.set(Date.now());
    try {
      const email = fresh();
      await request(t.app).post('/api/auth/register').send(registration(email));
      t.clock.advance(25 * HOUR);
      // a code the first registrant asked for just before the replacement
      await request(t.app).post('/api/auth/resend-verification').send({ email });
      const old = lastCodeFor(t.outbox, email);
      t.clock.advance(60_000);
      await request(t.app).post('/api/auth/register').send(registration(email, other)).expect(201);
      const fresh2 = lastCodeFor(t.outbox, email);
      const row = await t.db.selectFrom('email_verifications').innerJoin('users', 'users.id', 'email_verifications.user_id').selectAll('email_verifications').where('users.email', '=', email).executeTakeFirstOrThrow();
      expect(Number(row.attempts)).toBe(0);
      expect(Number(row.created_at)).toBe(t.clock.now());
      if (old !== fresh2) {
        const stale = await verify(email, old);
        expect(stale.status).toBe(422);
        expect(stale.body.code).toBe('invalid_verification_code');
      }
      expect((await verify(email, fresh2)).status).toBe(200);
      expect((await login(email, 'attacker pass')).status).toBe(200);
    } finally {
      t.clock.reset();
    }
  });
});

describe('verification codes', () => {
  async function registered() {
    const email = fresh();
    await request(t.app).post('/api/auth/register').send(registration(email));
    return { email, code: lastCodeFor(t.outbox, email) };
  }
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  it('rejects a wrong code, and locks the code after 5 attempts even if the 6th is right', async () => {
    const { email, code } = await registered();
    for (let i = 0; i < 5; i++) {
      const res = await request(t.app).post('/api/auth/verify-email').send({ email, verification_code: wrong(code) });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ error: 'Invalid verification code', code: 'invalid_verification_code' });
    }
    const locked = await request(t.app).post('/api/auth/verify-email').send({ email, verification_code: code });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('too_many_attempts');
  });

  it('accepts the right code after a few wrong ones', async () => {
    const { email, code } = await registered();
    await request(t.app).post('/api/auth/verify-email').send({ email, verification_code: wrong(code) });
    const res = await request(t.app).post('/api/auth/verify-email').send({ email, verification_code: code });
    expect(res.status).toBe(200);
  });

  it('expires a code after 15 minutes', async () => {
    t.clock.set(Date.now());
    try {
      const { email, code } = await registered();
      t.clock.advance(15 * 60_000 + 1);
      const res = await request(t.app).post('/api/auth/verify-email').send({ email, verification_code: code });
      expect(res.status).toBe(422);
      expect(res.body.error).toBe('Verification code has expired. Please request a new one.');
    } finally {
      t.clock.reset();
    }
  });

  it('still accepts a code just before expiry', async () => {
    t.clock.set(Date.now());
    try {
      const { email, code } = await registered();
      t.clock.advance(15 * 60_000 - 1000);
      const res = await request(t.app).post('/api/auth/verify-email').send({ email, verification_code: code });
      expect(res.status).toBe(200);
    } finally {
      t.clock.reset();
    }
  });

  it('gives the same invalid-code answer for an address with no account', async () => {
    const res = await request(t.app).post('/api/auth/verify-email').send({ email: fresh(), verification_code: '123456' });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('Invalid verification code');
  });

  it('requires exactly 6 digits', async () => {
    const res = await request(t.app).post('/api/auth/verify-email').send({ email: fresh(), verification_code: '123' });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('Please enter the complete 6-digit code');
  });
});

describe('resend verification', () => {
  it('sends a new code that replaces the old one, after the 30 s cooldown', async () => {
    t.clock.set(Date.now());
    try {
      const email = fresh();
      await request(t.app).post('/api/auth/register').send(registration(email));
      const first = lastCodeFor(t.outbox, email);
      const sentBefore = t.outbox.length;
      t.clock.advance(31_000);
      const res = await request(t.app).post('/api/auth/resend-verification').send({ email });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, message: 'Verification email sent! Please check your inbox.' });
      expect(t.outbox.length).toBe(sentBefore + 1);
      const second = lastCodeFor(t.outbox, email);
      if (second !== first) {
        const old = await request(t.app).post('/api/auth/verify-email').send({ email, verification_code: first });
        expect(old.status).toBe(422);
      }
      const ok = await request(t.app).post('/api/auth/verify-email').send({ email, verification_code: second });
      expect(ok.status).toBe(200);
    } finally {
      t.clock.reset();
    }
  });

  it('rate-limits a second request for the same address within 30 s with 429', async () => {
    const email = fresh();
    expect((await request(t.app).post('/api/auth/resend-verification').send({ email })).status).toBe(200);
    const second = await request(t.app).post('/api/auth/resend-verification').send({ email: email.toUpperCase() });
    expect(second.status).toBe(429);
    expect(second.body.code).toBe('rate_limited');
  });

  it('answers identically for unknown, unverified and verified addresses, and mails only the unverified one', async () => {
    const { user } = await buildUser(t);
    const unverified = await buildUser(t, { verified: false });
    const before = t.outbox.length;
    const bodies = [];
    for (const email of [fresh(), user.email, unverified.user.email]) {
      const res = await request(t.app).post('/api/auth/resend-verification').send({ email });
      expect(res.status).toBe(200);
      bodies.push(res.body);
    }
    expect(bodies[0]).toEqual(bodies[1]);
    expect(bodies[1]).toEqual(bodies[2]);
    expect(t.outbox.slice(before).map((m) => m.to)).toEqual([unverified.user.email]);
  });
});

describe('re-registration cannot bypass the resend limits', () => {
  it('counts codes sent by re-registering an unverified address toward the hourly resend limit', async () => {
    const limited = await createTestApp({ rateLimits: { resendHourly: { windowMs: 60 * 60_000, limit: 2, key: 'email', message: 'Too many verification emails requested. Please try again later.' } } });
    limited.clock.set(Date.now());
    try {
      const email = fresh();
      expect((await request(limited.app).post('/api/auth/register').send(registration(email))).status).toBe(201);
      limited.clock.advance(31_000);
      expect((await request(limited.app).post('/api/auth/register').send(registration(email))).status).toBe(201);
      const sent = limited.outbox.length;
      expect(sent).toBe(2);
      limited.clock.advance(31_000);
      // A third code within the hour, whether asked by re-registering or by resending, is refused.
      const again = await request(limited.app).post('/api/auth/register').send(registration(email.toUpperCase()));
      expect(again.status).toBe(429);
      expect(again.body.error).toBe('Too many verification emails requested. Please try again later.');
      const resend = await request(limited.app).post('/api/auth/resend-verification').send({ email });
      expect(resend.status).toBe(429);
      expect(limited.outbox.length).toBe(sent);
    } finally {
      await limited.close();
    }
  });
});

describe('login and logout', () => {
  it('gives the same 401 for a wrong password and an unknown address', async () => {
    const { user } = await buildUser(t, { password: 'right password' });
    const wrong = await request(t.app).post('/api/auth/login').send({ email: user.email, password: 'wrong password' });
    const unknown = await request(t.app).post('/api/auth/login').send({ email: fresh(), password: 'whatever1' });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Invalid email or password', code: 'invalid_credentials' });
    }
  });

  it('logout revokes the token', async () => {
    const { auth } = await buildUser(t);
    expect((await request(t.app).get('/api/me').set(auth)).status).toBe(200);
    expect((await request(t.app).post('/api/auth/logout').set(auth)).status).toBe(200);
    const after = await request(t.app).get('/api/me').set(auth);
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ error: 'Unauthenticated', code: 'unauthenticated' });
  });

  it('rejects requests without or with a made-up token', async () => {
    expect((await request(t.app).get('/api/me')).status).toBe(401);
    expect((await request(t.app).get('/api/me').set('Authorization', 'Bearer aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')).status).toBe(401);
  });

  it('stores neither the password nor the token in clear', async () => {
    const { user, token, password } = await buildUser(t);
    const row = await t.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain(password);
    const tokens = await t.db.selectFrom('auth_tokens').select('token_hash').where('user_id', '=', user.id).execute();
    expect(tokens.map((x) => x.token_hash)).not.toContain(token);
  });
});

describe('rate limits and verification guard', () => {
  it('answers 429 after too many login attempts for one address from one client', async () => {
    const limited = await createTestApp({ rateLimits: { loginPerAccount: { windowMs: 60_000, limit: 3, key: 'ip+email' } } });
    try {
      const { user } = await buildUser(limited);
      const statuses = [];
      for (let i = 0; i < 4; i++) {
        statuses.push((await request(limited.app).post('/api/auth/login').send({ email: user.email, password: 'wrong password' })).status);
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
      // Another address is not affected.
      const other = await buildUser(limited);
      expect((await request(limited.app).post('/api/auth/login').send({ email: other.user.email, password: other.password })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('refuses product endpoints to a token of an unverified account with 403', async () => {
    const { auth } = await buildUser(t, { verified: false });
    expect((await request(t.app).get('/api/me').set(auth)).status).toBe(200);
    const res = await request(t.app).get('/api/me/availability-rules').set(auth);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'email_not_verified', requires_verification: true });
  });
});
