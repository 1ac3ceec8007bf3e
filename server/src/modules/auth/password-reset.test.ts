import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const REQUESTED = 'If an account exists for that email, we sent a reset code. Please check your inbox and spam folder.';
const INVALID = { error: 'Invalid or expired reset code', code: 'invalid_code' };

const forgot = (email: string) => request(t.app).post('/api/auth/forgot-password').send({ email });
const reset = (email: string, code: string, password = 'brand new secret', confirmation = password) =>
  request(t.app).post('/api/auth/reset-password').send({ email, code, password, password_confirmation: confirmation });
const login = (email: string, password: string) => request(t.app).post('/api/auth/login').send({ email, password });

/** The reset code of the latest reset e-mail to `email` (read from the mail the user receives). */
function resetCodeFor(email: string): string {
  const mail = [...t.outbox].reverse().find((m) => m.to === email && m.subject === 'Reset your Avail password');
  if (!mail) throw new Error(`no reset e-mail for ${email}`);
  const m = /^\s+(\d{6})$/m.exec(mail.text);
  if (!m) throw new Error('no code in the reset e-mail');
  return m[1];
}

/** A code that is not `code` (same shape). */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('forgot password → e-mailed code → new password', () => {
  it('resets the password: the new one signs in, the old one fails, every device is signed out', async () => {
    const { user, auth, password } = await buildUser(t, { name: 'Grace Hopper' });
    const otherDevice = await request(t.app).post('/api/auth/login').send({ email: user.email, password });
    expect(otherDevice.status).toBe(200);
    expect((await request(t.app).get('/api/me').set(auth)).status).toBe(200);

    const before = t.outbox.length;
    const res = await forgot(user.email.toUpperCase());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: REQUESTED });
    expect(t.outbox).toHaveLength(before + 1);
    const mail = t.outbox.at(-1)!;
    expect(mail.to).toBe(user.email);
    expect(mail.text).toContain('Hi Grace Hopper,');
    const code = resetCodeFor(user.email);
    expect(mail.subject).not.toContain(code);
    expect(mail.text).toContain(`http://avail.test/forgot-password?email=${encodeURIComponent(user.email)}&code=${code}`);
    expect(mail.text).toContain('30 minutes');

    const done = await reset(user.email, code);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ success: true, message: 'Your password has been reset. You can sign in now.' });

    // Signed out everywhere: both earlier tokens stop working.
    expect((await request(t.app).get('/api/me').set(auth)).status).toBe(401);
    expect((await request(t.app).get('/api/me').set('Authorization', `Bearer ${otherDevice.body.token}`)).status).toBe(401);

    const old = await login(user.email, password);
    expect(old.status).toBe(401);
    expect(old.body).toMatchObject({ error: 'Invalid email or password', code: 'invalid_credentials' });
    const fresh = await login(user.email, 'brand new secret');
    expect(fresh.status).toBe(200);
    expect(fresh.body).toMatchObject({ requires_verification: false, message: 'Login successful' });
    expect((await request(t.app).get('/api/me').set('Authorization', `Bearer ${fresh.body.token}`)).status).toBe(200);

    // The code is single-use.
    expect((await reset(user.email, code, 'another secret')).body).toEqual(INVALID);
    expect((await login(user.email, 'brand new secret')).status).toBe(200);
  });

  it('answers an unknown address exactly like a known one and sends no mail', async () => {
    const before = t.outbox.length;
    const res = await forgot(`nobody.${Date.now()}@example.com`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: REQUESTED });
    expect(t.outbox).toHaveLength(before);
    // And resetting with any code for it is the usual 400.
    const r = await reset(`nobody.${Date.now()}@example.com`, '123456');
    expect(r.status).toBe(400);
    expect(r.body).toEqual(INVALID);
  });

  it('stores only a hash of the code, never the code', async () => {
    const { user } = await buildUser(t);
    await forgot(user.email);
    const code = resetCodeFor(user.email);
    const row = await t.db.selectFrom('password_resets').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.code_hash).not.toContain(code);
    expect(JSON.stringify(row)).not.toContain(code);
    expect(Number(row.expires_at) - Number(row.created_at)).toBe(30 * 60_000);
  });

  it('refuses an expired code (30 minutes) and keeps the old password', async () => {
    const { user, password } = await buildUser(t);
    t.clock.set(Date.UTC(2026, 10, 24, 9));
    try {
      await forgot(user.email);
      const code = resetCodeFor(user.email);
      t.clock.advance(30 * 60_000);
      const res = await reset(user.email, code);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID);
      expect((await login(user.email, password)).status).toBe(200);
    } finally {
      t.clock.reset();
    }
  });

  it('accepts the code just before it expires', async () => {
    const { user } = await buildUser(t);
    t.clock.set(Date.UTC(2026, 10, 24, 9));
    try {
      await forgot(user.email);
      t.clock.advance(30 * 60_000 - 1000);
      expect((await reset(user.email, resetCodeFor(user.email))).status).toBe(200);
    } finally {
      t.clock.reset();
    }
  });

  it('kills the code after 5 wrong guesses, even for the right code afterwards', async () => {
    const { user, password } = await buildUser(t);
    await forgot(user.email);
    const code = resetCodeFor(user.email);
    for (let i = 0; i < 5; i++) {
      const res = await reset(user.email, wrong(code));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID);
    }
    const res = await reset(user.email, code);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(INVALID);
    expect((await login(user.email, password)).status).toBe(200);
  });

  it('accepts the right code after 4 wrong guesses', async () => {
    const { user } = await buildUser(t);
    await forgot(user.email);
    const code = resetCodeFor(user.email);
    for (let i = 0; i < 4; i++) expect((await reset(user.email, wrong(code))).status).toBe(400);
    expect((await reset(user.email, code)).status).toBe(200);
    expect((await login(user.email, 'brand new secret')).status).toBe(200);
  });

  it('a new request replaces the earlier code', async () => {
    // An app without the 30 s per-address cooldown, so one address can ask twice in a row.
    const relaxed = await createTestApp({ rateLimits: { forgotPasswordCooldown: { windowMs: 30_000, limit: 10, key: 'email' } } });
    try {
      const { user } = await buildUser(relaxed);
      const ask = () => request(relaxed.app).post('/api/auth/forgot-password').send({ email: user.email });
      const codeOf = () => /^\s+(\d{6})$/m.exec(relaxed.outbox.at(-1)!.text)![1];
      await ask();
      const first = codeOf();
      await ask();
      const second = codeOf();
      const use = (code: string) =>
        request(relaxed.app).post('/api/auth/reset-password').send({ email: user.email, code, password: 'brand new secret', password_confirmation: 'brand new secret' });
      if (first !== second) expect((await use(first)).body).toEqual(INVALID);
      expect((await use(second)).status).toBe(200);
    } finally {
      await relaxed.close();
    }
  });

  it('verifies an unverified address: the code proves the mailbox', async () => {
    const { user } = await buildUser(t, { verified: false });
    expect((await login(user.email, 'password123')).body).toMatchObject({ requires_verification: true });
    await forgot(user.email);
    expect((await reset(user.email, resetCodeFor(user.email))).status).toBe(200);
    const res = await login(user.email, 'brand new secret');
    expect(res.status).toBe(200);
    expect(res.body.requires_verification).toBe(false);
    expect(res.body.user.email_verified_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('answers validation errors with the registration messages', async () => {
    const { user } = await buildUser(t);
    const short = await reset(user.email, '123456', 'short');
    expect(short.status).toBe(422);
    expect(short.body).toMatchObject({ error: 'Password must be at least 8 characters', errors: { password: 'Password must be at least 8 characters' } });
    const mismatch = await reset(user.email, '123456', 'long enough 1', 'long enough 2');
    expect(mismatch.status).toBe(422);
    expect(mismatch.body).toMatchObject({ error: 'Passwords do not match', errors: { password_confirmation: 'Passwords do not match' } });
    const badEmail = await forgot('not-an-email');
    expect(badEmail.status).toBe(422);
    expect(badEmail.body).toMatchObject({ code: 'validation_failed', errors: { email: 'Email is invalid' } });
  });

  it('limits requests per address: a second one within 30 s is 429 and sends nothing', async () => {
    const { user } = await buildUser(t);
    expect((await forgot(user.email)).status).toBe(200);
    const before = t.outbox.length;
    const again = await forgot(user.email);
    expect(again.status).toBe(429);
    expect(again.body.error).toBe('Please wait 30 seconds before requesting another code.');
    expect(t.outbox).toHaveLength(before);
  });
});
