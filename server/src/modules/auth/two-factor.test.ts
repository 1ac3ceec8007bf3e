/**
 * Issue 26: two-factor sign-in (TOTP, RFC 6238) as an owner and an attacker meet it —
 * setup → enable → sign-in asks for the code; replayed and spent codes are refused; wrong codes are
 * throttled like wrong passwords; turning it off and deleting the account need a code; the secret
 * and the recovery codes are not in clear in any table. Codes are made here with otplib at the
 * fake clock's time, so the server must use its own clock (deps.now), not Date.now().
 */
import { generateSync } from 'otplib';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, type BuiltUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { isSealed } from '../../lib/crypto.ts';

// A whole 30-second step, far from the real time: a server reading Date.now() would fail every code.
const NOW = Date.parse('2031-03-04T08:00:00Z');
const STEP_MS = 30_000;
const REQUIRED = 'Enter the 6-digit code from your authenticator app.';
const INCORRECT = 'The code is incorrect.';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(NOW);
});
afterAll(async () => {
  await t?.close();
});

/** The TOTP code of `secret` at `ms` (UTC ms), as an authenticator app shows it. */
function totp(secret: string, ms = t.clock.now()): string {
  return generateSync({ secret, epoch: Math.floor(ms / 1000) });
}

/** A fresh owner with two-factor on: `{ secret, recovery }` besides the user. */
async function ownerWithTwoFactor(): Promise<BuiltUser & { secret: string; recovery: string[] }> {
  const owner = await buildUser(t, { password: 'correct horse 1' });
  const setup = await request(t.app).post('/api/me/two-factor/setup').set(owner.auth).send({ password: 'correct horse 1' }).expect(200);
  const enabled = await request(t.app).post('/api/me/two-factor/enable').set(owner.auth).send({ code: totp(setup.body.secret) }).expect(200);
  // Codes are accepted once per step: later steps are the owner's next codes.
  t.clock.advance(STEP_MS);
  return { ...owner, secret: setup.body.secret, recovery: enabled.body.recovery_codes };
}

function login(email: string, extra: Record<string, string> = {}) {
  return request(t.app).post('/api/auth/login').send({ email, password: 'correct horse 1', ...extra });
}

/** Every row of every table as text, for a scan (content-at-rest.test.ts). */
async function dumpAllTables(): Promise<string> {
  const tables = (await t.db.introspection.getTables()).filter((tb) => t.testDb.dialect !== 'postgres' || tb.schema === t.testDb.location);
  const parts: string[] = [];
  for (const tb of tables) parts.push(JSON.stringify(await t.db.selectFrom(tb.name as 'users').selectAll().execute()));
  return parts.join('\n');
}

describe('two-factor sign-in (TOTP)', () => {
  it('setup shows a secret, an otpauth URL and a QR code; enable needs the right code and gives 10 recovery codes once', async () => {
    const owner = await buildUser(t, { email: `tf-setup-${Date.now()}@example.com` });
    expect((await request(t.app).get('/api/me').set(owner.auth)).body.user.two_factor_enabled).toBe(false);
    // Enable before any setup.
    const early = await request(t.app).post('/api/me/two-factor/enable').set(owner.auth).send({ code: '123456' });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('two_factor_setup_required');

    // The password is asked: a stolen session token alone cannot turn two-factor on (and lock the owner out).
    const noPassword = await request(t.app).post('/api/me/two-factor/setup').set(owner.auth).send({});
    expect(noPassword.status).toBe(422);
    expect(noPassword.body.errors).toEqual({ password: 'Please enter your password.' });
    const wrongPassword = await request(t.app).post('/api/me/two-factor/setup').set(owner.auth).send({ password: 'not it at all' });
    expect(wrongPassword.status).toBe(422);
    expect(wrongPassword.body.errors).toEqual({ password: 'The password is incorrect.' });
    expect(await t.db.selectFrom('two_factor_secrets').selectAll().where('user_id', '=', owner.user.id).execute()).toEqual([]);
    const first = await request(t.app).post('/api/me/two-factor/setup').set(owner.auth).send({ password: 'password123' }).expect(200);
    const setup = await request(t.app).post('/api/me/two-factor/setup').set(owner.auth).send({ password: 'password123' }).expect(200);
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.body.secret).not.toBe(first.body.secret);
    const url = new URL(setup.body.otpauth_url);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe(`/Avail:${owner.user.email}`);
    expect(url.searchParams.get('secret')).toBe(setup.body.secret);
    expect(url.searchParams.get('issuer')).toBe('Avail');
    expect(setup.body.qr_svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);

    // The replaced setup's code no longer works; a wrong code is refused; a missing one is a form error.
    const stale = await request(t.app).post('/api/me/two-factor/enable').set(owner.auth).send({ code: totp(first.body.secret) });
    expect(stale.status).toBe(422);
    expect(stale.body).toMatchObject({ code: 'invalid_two_factor_code', error: INCORRECT, errors: { code: INCORRECT } });
    const missing = await request(t.app).post('/api/me/two-factor/enable').set(owner.auth).send({});
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ code: REQUIRED });
    expect((await request(t.app).get('/api/me').set(owner.auth)).body.user.two_factor_enabled).toBe(false);

    // Another device signed in with the password alone.
    const phone = await request(t.app).post('/api/auth/login').send({ email: owner.user.email, password: 'password123' }).expect(200);
    const phoneAuth = { Authorization: `Bearer ${phone.body.token}` };
    expect((await request(t.app).get('/api/me').set(phoneAuth)).status).toBe(200);

    // One step of drift is fine (the phone's clock 30 s behind).
    const mails = t.outbox.length;
    const enabled = await request(t.app).post('/api/me/two-factor/enable').set(owner.auth).send({ code: totp(setup.body.secret, NOW - STEP_MS) });
    expect(enabled.status).toBe(200);
    // Every other session ended with it (it was signed in without a second factor); this one stays.
    expect(enabled.body.ended_sessions).toBe(1);
    expect((await request(t.app).get('/api/me').set(phoneAuth)).status).toBe(401);
    const codes: string[] = enabled.body.recovery_codes;
    expect(codes).toHaveLength(10);
    for (const c of codes) expect(c).toMatch(/^[a-hjkmnp-tv-z2-9]{5}-[a-hjkmnp-tv-z2-9]{5}$/);
    expect(new Set(codes).size).toBe(10);
    const me = await request(t.app).get('/api/me').set(owner.auth).expect(200);
    expect(me.body.user.two_factor_enabled).toBe(true);
    const notice = t.outbox.slice(mails).find((m) => m.to === owner.user.email);
    expect(notice?.subject).toBe('Two-factor sign-in was turned on for your Avail account');
    expect(notice?.text).not.toContain(setup.body.secret);

    // On: setup and enable again are refused; the recovery codes are not shown again.
    const again = await request(t.app).post('/api/me/two-factor/setup').set(owner.auth).send({ password: 'password123' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('two_factor_enabled');
    expect((await request(t.app).post('/api/me/two-factor/enable').set(owner.auth).send({ code: totp(setup.body.secret) })).status).toBe(409);
  });

  it('sign-in asks for the code after the right password; a code works once; a recovery code works once', async () => {
    const owner = await ownerWithTwoFactor();
    const email = owner.user.email;

    // A wrong password says nothing about two-factor.
    const wrongPassword = await request(t.app).post('/api/auth/login').send({ email, password: 'not the password' });
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.body).toEqual({ error: 'Invalid email or password', code: 'invalid_credentials' });
    const wrongBoth = await request(t.app).post('/api/auth/login').send({ email, password: 'not the password', two_factor_code: '000000' });
    expect(wrongBoth.body.code).toBe('invalid_credentials');

    const noCode = await login(email);
    expect(noCode.status).toBe(401);
    expect(noCode.body).toEqual({ error: REQUIRED, code: 'two_factor_required' });
    expect(noCode.body.token).toBeUndefined();

    // The code of the step that turned it on was spent by enable.
    const enableStep = await login(email, { two_factor_code: totp(owner.secret, t.clock.now() - STEP_MS) });
    expect(enableStep.status).toBe(401);
    expect(enableStep.body).toEqual({ error: INCORRECT, code: 'invalid_two_factor_code' });

    const code = totp(owner.secret);
    const ok = await login(email, { two_factor_code: code });
    expect(ok.status).toBe(200);
    expect(typeof ok.body.token).toBe('string');
    expect(ok.body.user.two_factor_enabled).toBe(true);
    expect((await request(t.app).get('/api/me').set({ Authorization: `Bearer ${ok.body.token}` })).status).toBe(200);

    // Replay: the same code, still within its step, is refused.
    const replay = await login(email, { two_factor_code: code });
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('invalid_two_factor_code');
    // An earlier step's code (inside the ±1 window) is refused too once a later step was accepted.
    t.clock.advance(STEP_MS);
    const older = await login(email, { two_factor_code: totp(owner.secret, t.clock.now() - STEP_MS) });
    expect(older.body.code).toBe('invalid_two_factor_code');
    // Two steps off is outside the window.
    expect((await login(email, { two_factor_code: totp(owner.secret, t.clock.now() + 2 * STEP_MS) })).body.code).toBe('invalid_two_factor_code');
    expect((await login(email, { two_factor_code: totp(owner.secret, t.clock.now() + STEP_MS) })).status).toBe(200);

    // A recovery code, typed in capitals with spaces instead of the dash, signs in once.
    const recovery = owner.recovery[3];
    const typed = recovery.toUpperCase().replace('-', ' ');
    expect((await login(email, { two_factor_code: typed })).status).toBe(200);
    const spent = await login(email, { two_factor_code: recovery });
    expect(spent.status).toBe(401);
    expect(spent.body.code).toBe('invalid_two_factor_code');
    // Another owner's codes are no good here.
    const other = await ownerWithTwoFactor();
    expect((await login(email, { two_factor_code: other.recovery[0] })).body.code).toBe('invalid_two_factor_code');
    expect((await login(email, { two_factor_code: owner.recovery[4] })).status).toBe(200);
  });

  it('wrong codes count like wrong passwords: after 5 the account is locked (429, Retry-After), the right code included', async () => {
    const owner = await ownerWithTwoFactor();
    const email = owner.user.email;
    const right = totp(owner.secret);
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const r = await login(email, { two_factor_code: i % 2 ? wrong : 'abcde-fghjk' });
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('invalid_two_factor_code');
    }
    const locked = await login(email, { two_factor_code: right });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // Turning two-factor off and deleting the account are held by the same lock.
    const off = await request(t.app).delete('/api/me/two-factor').set(owner.auth).send({ password: 'correct horse 1', code: right });
    expect(off.status).toBe(429);
    expect(off.headers['retry-after']).toBeDefined();
    // The owner was told: someone has the password.
    expect(t.outbox.some((m) => m.to === email && m.subject === 'Someone entered your Avail password but not your two-factor code')).toBe(true);
    // A password reset (someone with the mailbox and the password) does not clear the code count.
    await request(t.app).post('/api/auth/forgot-password').send({ email }).expect(200);
    const resetCode = /\b(\d{6})\b/.exec(t.outbox.filter((m) => m.to === email).at(-1)!.text)![1];
    await request(t.app).post('/api/auth/reset-password').send({ email, code: resetCode, password: 'correct horse 1', password_confirmation: 'correct horse 1' }).expect(200);
    expect((await login(email, { two_factor_code: right })).status).toBe(429);

    // After the lock the right code works (the step has not been used) and the count starts again.
    t.clock.advance(Number((await login(email, { two_factor_code: right })).headers['retry-after']) * 1000);
    expect((await login(email, { two_factor_code: right })).status).toBe(200);
    expect((await login(email, { two_factor_code: wrong })).status).toBe(401);
  });

  it('turning it off needs the password and a code, then sign-in needs the password only', async () => {
    const owner = await ownerWithTwoFactor();
    const email = owner.user.email;
    const off = (body: Record<string, string>) => request(t.app).delete('/api/me/two-factor').set(owner.auth).send(body);

    const missing = await off({});
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ password: 'Please enter your password.', code: REQUIRED });
    const wrongPassword = await off({ password: 'nope nope', code: totp(owner.secret) });
    expect(wrongPassword.status).toBe(422);
    expect(wrongPassword.body.errors).toEqual({ password: 'The password is incorrect.' });
    const wrongCode = await off({ password: 'correct horse 1', code: '12345x' });
    expect(wrongCode.status).toBe(422);
    expect(wrongCode.body).toMatchObject({ code: 'invalid_two_factor_code', errors: { code: INCORRECT } });
    expect((await request(t.app).get('/api/me').set(owner.auth)).body.user.two_factor_enabled).toBe(true);

    const mails = t.outbox.length;
    expect((await off({ password: 'correct horse 1', code: owner.recovery[0] })).status).toBe(204);
    expect((await request(t.app).get('/api/me').set(owner.auth)).body.user.two_factor_enabled).toBe(false);
    expect(t.outbox.slice(mails).map((m) => [m.to, m.subject])).toEqual([
      [email, 'A recovery code was used on your Avail account'],
      [email, 'Two-factor sign-in was turned off for your Avail account'],
    ]);
    expect((await login(email)).status).toBe(200);
    // Its secret and codes are gone.
    expect(await t.db.selectFrom('two_factor_secrets').selectAll().where('user_id', '=', owner.user.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('two_factor_recovery_codes').selectAll().where('user_id', '=', owner.user.id).execute()).toEqual([]);
    const again = await off({ password: 'correct horse 1', code: totp(owner.secret) });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('two_factor_not_enabled');
  });

  it('deleting the account also needs a code; wrong ones are counted', async () => {
    const owner = await ownerWithTwoFactor();
    const del = (body: Record<string, string>) => request(t.app).delete('/api/me').set(owner.auth).send(body);
    const missing = await del({ password: 'correct horse 1' });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ two_factor_code: REQUIRED });
    const wrong = await del({ password: 'correct horse 1', two_factor_code: '999999' === totp(owner.secret) ? '888888' : '999999' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ two_factor_code: INCORRECT });
    // The password is still checked first.
    expect((await del({ password: 'wrong one', two_factor_code: totp(owner.secret) })).body.errors).toEqual({ password: 'The password is incorrect.' });
    expect((await request(t.app).get('/api/me').set(owner.auth)).status).toBe(200);
    // One wrong code counted (the wrong password counts apart, for passwords): four more lock the second factor.
    for (let i = 0; i < 4; i++) await del({ password: 'correct horse 1', two_factor_code: 'zzzzz-zzzzz' });
    expect((await del({ password: 'correct horse 1', two_factor_code: totp(owner.secret) })).status).toBe(429);
    t.clock.advance(10 * 60_000);

    expect((await del({ password: 'correct horse 1', two_factor_code: totp(owner.secret) })).status).toBe(204);
    expect(await t.db.selectFrom('two_factor_secrets').selectAll().where('user_id', '=', owner.user.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('two_factor_recovery_codes').selectAll().where('user_id', '=', owner.user.id).execute()).toEqual([]);
    expect((await request(t.app).get('/api/me').set(owner.auth)).status).toBe(401);
  });

  it('the secret (pending and active) and the recovery codes are not in clear in any table', async () => {
    const owner = await buildUser(t);
    const pending = (await request(t.app).post('/api/me/two-factor/setup').set(owner.auth).send({ password: 'password123' }).expect(200)).body.secret as string;
    let dump = await dumpAllTables();
    expect(dump.toUpperCase()).not.toContain(pending);
    const enabled = await request(t.app).post('/api/me/two-factor/enable').set(owner.auth).send({ code: totp(pending) }).expect(200);
    dump = await dumpAllTables();
    expect(dump.toUpperCase()).not.toContain(pending);
    for (const code of enabled.body.recovery_codes as string[]) {
      expect(dump.toLowerCase()).not.toContain(code);
      expect(dump.toLowerCase()).not.toContain(code.replace('-', ''));
    }
    const row = await t.db.selectFrom('two_factor_secrets').selectAll().where('user_id', '=', owner.user.id).executeTakeFirstOrThrow();
    expect(isSealed(row.secret!)).toBe(true);
    expect(row.pending_secret).toBeNull();
  });

  it('a burst of simultaneous wrong codes gets no more checks than the throttle allows (each attempt is reserved before its check)', async () => {
    const owner = await ownerWithTwoFactor();
    const email = owner.user.email;
    const right = totp(owner.secret);
    const wrong = ['000000', '111111', '222222'].find((c) => c !== right && c !== totp(owner.secret, t.clock.now() - STEP_MS) && c !== totp(owner.secret, t.clock.now() + STEP_MS))!;
    const answers = await Promise.all(Array.from({ length: 30 }, () => login(email, { two_factor_code: wrong })));
    const checked = answers.filter((r) => r.status === 401).length;
    const refused = answers.filter((r) => r.status === 429).length;
    expect(checked).toBeLessThanOrEqual(5);
    expect(checked + refused).toBe(30);
    // The lock holds the right code too.
    expect((await login(email, { two_factor_code: right })).status).toBe(429);
  });

  it('a recovery code used to sign in is told to the owner with the number left; a code accepted while the clock ran ahead gives no 500', async () => {
    const owner = await ownerWithTwoFactor();
    const email = owner.user.email;
    const mails = t.outbox.length;
    expect((await login(email, { two_factor_code: owner.recovery[0] })).status).toBe(200);
    const notice = t.outbox.slice(mails).find((m) => m.to === email);
    expect(notice?.subject).toBe('A recovery code was used on your Avail account');
    expect(notice?.text).toContain('9 unused codes are left');
    expect(notice?.text).not.toContain(owner.recovery[0]);

    // The next step's code accepted (the server's clock ahead), then the clock set back a minute.
    expect((await login(email, { two_factor_code: totp(owner.secret, t.clock.now() + STEP_MS) })).status).toBe(200);
    t.clock.advance(-2 * STEP_MS);
    const behind = await login(email, { two_factor_code: totp(owner.secret) });
    expect(behind.status).toBe(401);
    expect(behind.body.code).toBe('invalid_two_factor_code');
    t.clock.advance(4 * STEP_MS);
    expect((await login(email, { two_factor_code: totp(owner.secret) })).status).toBe(200);
  });
});
