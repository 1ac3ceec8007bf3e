/**
 * Two-factor sign-in under attack (issue 26), on SQLite and PostgreSQL:
 *
 * 1. Throttling: an attacker who knows the password guesses codes (6-digit and recovery-shaped)
 *    for an hour of server time, waiting out every lock. Every answer is 401 or 429 (never 200),
 *    every 429 carries Retry-After and refuses the owner's right code too, and the number of
 *    guesses the server actually checked is exactly what the login throttle's schedule allows
 *    (5 free, then one per lock: 30 s doubling to 15 min) — about 13 an hour, against 10^6 codes.
 * 2. Replay under concurrency: one right TOTP code (or one recovery code) sent in parallel by
 *    several clients signs in exactly once.
 *
 * Size: × RELIABILITY_SCALE (owners per burst check, hours of guessing).
 */
import { generateSync } from 'otplib';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockDurationMs, LOGIN_FREE_FAILURES } from '../../src/modules/auth/login-throttle.service.ts';
import { buildUser } from '../factories.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { reportReliability, SCALE } from './reliability-report.ts';

const NOW = Date.parse('2031-06-02T09:00:00Z');
const STEP_MS = 30_000;
const PASSWORD = 'reliable password 1';
const BURST = 8;

let t: TestApp;
beforeAll(async () => {
  // The per-IP limiters count real time; the per-account throttle under test counts server time.
  const high = { windowMs: 60_000, limit: 1_000_000 };
  t = await createTestApp({ rateLimits: { authPerIp: high, loginPerAccount: high } });
  t.clock.set(NOW);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const totp = (secret: string, ms = t.clock.now()) => generateSync({ secret, epoch: Math.floor(ms / 1000) });

async function ownerWithTwoFactor() {
  const owner = await buildUser(t, { password: PASSWORD });
  const setup = await request(t.app).post('/api/me/two-factor/setup').set(owner.auth).send({ password: PASSWORD }).expect(200);
  const enabled = await request(t.app).post('/api/me/two-factor/enable').set(owner.auth).send({ code: totp(setup.body.secret) }).expect(200);
  t.clock.advance(STEP_MS);
  return { email: owner.user.email, secret: setup.body.secret as string, recovery: enabled.body.recovery_codes as string[] };
}

const login = (email: string, code: string) => request(t.app).post('/api/auth/login').send({ email, password: PASSWORD, two_factor_code: code });

/** Guesses the server checks in `ms` of sustained guessing that waits out each lock (the throttle's schedule). */
function allowedGuesses(ms: number): number {
  let n = 0;
  let elapsed = 0;
  for (;;) {
    n += 1;
    elapsed += lockDurationMs(n);
    if (elapsed >= ms) return n;
  }
}

let seq = 0;
/** A wrong guess: a 6-digit code none of the owner's currently accepted codes, or a recovery-shaped one. */
function guess(secret: string): string {
  seq += 1;
  if (seq % 3 === 0) return `zz${String(seq).padStart(3, '2').slice(-3).replace(/[01]/g, '9')}-qqqqq`;
  const valid = new Set([-1, 0, 1].map((d) => totp(secret, t.clock.now() + d * STEP_MS)));
  let code = String((seq * 7919 + 123457) % 1_000_000).padStart(6, '0');
  while (valid.has(code)) code = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  return code;
}

describe('two-factor sign-in under attack', () => {
  it('a guessing attacker gets only the throttle schedule of checked guesses; locks refuse the right code too', async () => {
    const hours = SCALE;
    const owner = await ownerWithTwoFactor();
    const end = t.clock.now() + hours * 3_600_000;
    let requests = 0;
    let checked = 0;
    let failures = 0;
    while (t.clock.now() < end) {
      const r = await login(owner.email, guess(owner.secret));
      requests += 1;
      if (r.status === 401 && r.body.code === 'invalid_two_factor_code') {
        checked += 1;
        continue;
      }
      if (r.status !== 429 || !(Number(r.headers['retry-after']) > 0)) {
        failures += 1;
        break;
      }
      // While locked, the owner's right code is refused as well (and not spent).
      const right = await login(owner.email, totp(owner.secret));
      requests += 1;
      if (right.status !== 429) failures += 1;
      t.clock.advance(Number(r.headers['retry-after']) * 1000);
    }
    reportReliability({ check: 'two-factor guessing throttle', requests, trials: checked, failures });
    expect(failures).toBe(0);
    expect(checked).toBe(allowedGuesses(hours * 3_600_000));
    expect(checked).toBeLessThan(LOGIN_FREE_FAILURES + 10 * hours);
    // After the last lock the owner still signs in with the right code.
    t.clock.advance(15 * 60_000);
    expect((await login(owner.email, totp(owner.secret))).status).toBe(200);
  }, 120_000);

  it('one code sent by several clients at once signs in exactly once (TOTP and recovery code)', async () => {
    const owners = 2 * SCALE;
    let requests = 0;
    let failures = 0;
    for (let i = 0; i < owners; i++) {
      const owner = await ownerWithTwoFactor();
      for (const code of [totp(owner.secret), owner.recovery[i % 10]]) {
        const answers = await Promise.all(Array.from({ length: BURST }, () => login(owner.email, code)));
        requests += BURST;
        const ok = answers.filter((a) => a.status === 200).length;
        // The others are refused: a spent code (401), or the lock their failures started (429).
        const refused = answers.filter((a) => (a.status === 401 && a.body.code === 'invalid_two_factor_code') || a.status === 429).length;
        if (ok !== 1 || refused !== BURST - 1) failures += 1;
        // The refused copies counted as failures: wait out any lock before the next code.
        t.clock.advance(16 * 60_000);
      }
    }
    reportReliability({ check: 'two-factor replay under concurrency', requests, trials: owners * 2, failures });
    expect(failures).toBe(0);
  }, 120_000);
});
