/**
 * Issue 26: every bearer token is a session — labelled from the User-Agent, listed and ended by
 * its owner, and ended by itself after SESSION_IDLE_DAYS unused or SESSION_MAX_DAYS in all
 * (docs/account-security.md "Sessions").
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { purgeAuthLeftovers } from './auth-purge.service.ts';

const DAY = 86_400_000;
const T0 = Date.parse('2031-03-01T09:00:00Z');
const EXPIRED = { error: 'Your session has expired. Please sign in again.', code: 'session_expired' };
const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_WIN = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const DESKTOP_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Avail/0.1.0 Chrome/130.0.6723.191 Electron/33.2.1 Safari/537.36';

let t: TestApp;
beforeAll(async () => {
  // The defaults, stated: the test app itself runs with ~100-year sessions (test-app.ts).
  t = await createTestApp({ env: { SESSION_IDLE_DAYS: '30', SESSION_MAX_DAYS: '365' } });
});
afterAll(async () => {
  await t.close();
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const me = (token: string) => request(t.app).get('/api/me').set(bearer(token));
const login = (email: string, password: string, userAgent?: string) => {
  const req = request(t.app).post('/api/auth/login');
  if (userAgent !== undefined) req.set('User-Agent', userAgent);
  return req.send({ email, password });
};
async function signIn(email: string, password: string, userAgent?: string): Promise<string> {
  const res = await login(email, password, userAgent);
  expect(res.status).toBe(200);
  return res.body.token as string;
}
const tokenRows = (userId: string) => t.db.selectFrom('auth_tokens').select(['id', 'label']).where('user_id', '=', userId).execute();

describe('session expiry (defaults: 30 days idle, 365 days in all)', () => {
  it('a session used within 30 days keeps working; 30 days unused → 401 session_expired, every time until the purge', async () => {
    t.clock.set(T0);
    const { user, token } = await buildUser(t);
    t.clock.advance(29.9 * DAY);
    expect((await me(token)).status).toBe(200);
    // Idle time counts from the last use, not from the sign-in.
    t.clock.advance(29.9 * DAY);
    expect((await me(token)).status).toBe(200);
    t.clock.advance(30.1 * DAY);
    const expired = await me(token);
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual(EXPIRED);
    // Still "expired" (not "signed out") a day later and after a purge: a device back from weeks
    // away must learn that its session expired (it keeps its unpushed edits), not that it was ended.
    t.clock.advance(DAY);
    await purgeAuthLeftovers(t.deps);
    const again = await me(token);
    expect(again.status).toBe(401);
    expect(again.body).toEqual(EXPIRED);
    // Not listed among the owner's sessions.
    const fresh = await request(t.app).post('/api/auth/login').send({ email: user.email, password: 'password123' }).expect(200);
    const list = await request(t.app).get('/api/me/sessions').set(bearer(fresh.body.token)).expect(200);
    expect(list.body.sessions).toHaveLength(1);
    expect(list.body.sessions[0].current).toBe(true);
  });

  it('a session in daily use ends 365 days after sign-in', async () => {
    t.clock.set(T0);
    const { token } = await buildUser(t);
    for (let day = 20; day < 365; day += 20) {
      t.clock.set(T0 + day * DAY);
      expect((await me(token)).status).toBe(200);
    }
    t.clock.set(T0 + 364.9 * DAY);
    expect((await me(token)).status).toBe(200);
    t.clock.set(T0 + 365.1 * DAY);
    expect((await me(token)).body).toEqual(EXPIRED);
  });

  it('last_used_at is written at most once a minute', async () => {
    t.clock.set(T0);
    const { user, token } = await buildUser(t);
    const lastUsed = async () => Number((await t.db.selectFrom('auth_tokens').select('last_used_at').where('user_id', '=', user.id).executeTakeFirstOrThrow()).last_used_at);
    t.clock.advance(30_000);
    await me(token).expect(200);
    expect(await lastUsed()).toBe(T0);
    t.clock.advance(31_000);
    await me(token).expect(200);
    expect(await lastUsed()).toBe(T0 + 61_000);
  });

  it('the purge job deletes sessions 30 days past their absolute end and keeps the rest (expired ones answer session_expired until then)', async () => {
    t.clock.set(T0);
    const idle = await buildUser(t);
    const old = await buildUser(t);
    // `old` in use every 20 days until day 364.9: never idle, but past 365 days at the purge.
    for (let day = 20; day < 365; day += 20) {
      t.clock.set(T0 + day * DAY);
      await me(old.token).expect(200);
    }
    t.clock.set(T0 + 350 * DAY);
    const live = await buildUser(t);
    t.clock.set(T0 + 364.9 * DAY);
    await me(old.token).expect(200);
    await me(live.token).expect(200);
    t.clock.set(T0 + 365.1 * DAY);
    await purgeAuthLeftovers(t.deps);
    expect(await tokenRows(idle.user.id)).toHaveLength(1);
    expect((await me(idle.token)).body).toEqual(EXPIRED);
    expect((await me(old.token)).body).toEqual(EXPIRED);
    t.clock.set(T0 + 380 * DAY);
    await me(live.token).expect(200);
    t.clock.set(T0 + 395.1 * DAY);
    await me(live.token).expect(200);
    const counts = await purgeAuthLeftovers(t.deps);
    expect(counts.expiredSessions).toBeGreaterThanOrEqual(2);
    expect(await tokenRows(idle.user.id)).toHaveLength(0);
    expect(await tokenRows(old.user.id)).toHaveLength(0);
    expect(await tokenRows(live.user.id)).toHaveLength(1);
    await me(live.token).expect(200);
  });
});

describe('session expiry with decimal days (SESSION_IDLE_DAYS=0.5, SESSION_MAX_DAYS=1.5)', () => {
  let short: TestApp;
  beforeAll(async () => {
    short = await createTestApp({ env: { SESSION_IDLE_DAYS: '0.5', SESSION_MAX_DAYS: '1.5' } });
  });
  afterAll(async () => {
    await short.close();
  });
  const get = (token: string) => request(short.app).get('/api/me').set(bearer(token));

  it('ends a session after 12 hours unused, and after 36 hours in all', async () => {
    short.clock.set(T0);
    const idle = await buildUser(short);
    const busy = await buildUser(short);
    short.clock.advance(0.499 * DAY);
    expect((await get(idle.token)).status).toBe(200);
    expect((await get(busy.token)).status).toBe(200);
    short.clock.advance(0.499 * DAY);
    expect((await get(busy.token)).status).toBe(200);
    // idle: last used 0.499 days ago → 0.501 days unused now.
    short.clock.advance(0.002 * DAY + 1);
    expect((await get(idle.token)).body).toEqual(EXPIRED);
    short.clock.set(T0 + 1.499 * DAY);
    expect((await get(busy.token)).status).toBe(401); // idle more than 12 h since 0.998 days
    const busier = await buildUser(short);
    for (const h of [10, 20, 30, 35.9]) {
      short.clock.set(T0 + 1.499 * DAY + h * 3_600_000);
      expect((await get(busier.token)).status).toBe(200);
    }
    short.clock.set(T0 + 1.499 * DAY + 36.1 * 3_600_000);
    expect((await get(busier.token)).body).toEqual(EXPIRED);
  });
});

describe('SESSION_IDLE_DAYS / SESSION_MAX_DAYS', () => {
  it('default to 30 and 365 days, take decimals, and refuse zero, negatives and words', () => {
    const base = { AVAIL_SECRET_KEY: 'a'.repeat(64) };
    const c = loadConfig(base, t.testDb.dir);
    expect([c.SESSION_IDLE_DAYS, c.SESSION_MAX_DAYS]).toEqual([30, 365]);
    const d = loadConfig({ ...base, SESSION_IDLE_DAYS: '0.5', SESSION_MAX_DAYS: '1.25' }, t.testDb.dir);
    expect([d.SESSION_IDLE_DAYS, d.SESSION_MAX_DAYS]).toEqual([0.5, 1.25]);
    for (const bad of ['0', '-1', 'thirty']) {
      expect(() => loadConfig({ ...base, SESSION_IDLE_DAYS: bad }, t.testDb.dir), bad).toThrow(ConfigError);
      expect(() => loadConfig({ ...base, SESSION_MAX_DAYS: bad }, t.testDb.dir), bad).toThrow(ConfigError);
    }
  });
});

describe('GET /api/me/sessions', () => {
  it('lists the owner’s sessions with their device labels, the current one first, then by last use', async () => {
    t.clock.set(T0);
    const { user, password, token: factoryToken } = await buildUser(t);
    t.clock.advance(60_000);
    const chrome = await signIn(user.email, password, CHROME_MAC);
    t.clock.advance(60_000);
    const desktop = await signIn(user.email, password, DESKTOP_LINUX);
    t.clock.advance(60_000);
    const firefox = await signIn(user.email, password, FIREFOX_WIN);
    t.clock.advance(120_000);
    await me(chrome).expect(200); // Chrome used last
    t.clock.advance(120_000);
    const other = await buildUser(t);

    const res = await request(t.app).get('/api/me/sessions').set(bearer(desktop));
    expect(res.status).toBe(200);
    const list = res.body.sessions as Array<Record<string, unknown>>;
    expect(list.map((s) => [s.label, s.current])).toEqual([
      ['Avail desktop on Linux', true],
      ['Chrome on macOS', false],
      ['Firefox on Windows', false],
      ['Unknown device', false],
    ]);
    expect(Object.keys(list[0]).sort()).toEqual(['created_at', 'current', 'id', 'label', 'last_used_at']);
    expect(list[1].created_at).toBe(new Date(T0 + 60_000).toISOString());
    expect(list[1].last_used_at).toBe(new Date(T0 + 300_000).toISOString());
    expect(JSON.stringify(res.body)).not.toContain(firefox);
    expect(JSON.stringify(res.body)).not.toContain(factoryToken);
    expect(JSON.stringify(res.body)).not.toContain('Mozilla');
    // Another owner's sessions are not listed.
    const ids = new Set((await tokenRows(other.user.id)).map((r) => r.id));
    expect(list.some((s) => ids.has(String(s.id)))).toBe(false);
  });

  it('a session signed in by e-mail verification is labelled too; expired sessions are not listed', async () => {
    t.clock.set(T0);
    const email = `verify${Date.now().toString(36)}@example.com`;
    await request(t.app).post('/api/auth/register').send({ name: 'V', email, password: 'password123', password_confirmation: 'password123' }).expect(201);
    const code = /\b(\d{6})\b/.exec(t.outbox.filter((m) => m.to === email).at(-1)!.text)![1];
    const verified = await request(t.app).post('/api/auth/verify-email').set('User-Agent', FIREFOX_WIN).send({ email, verification_code: code });
    expect(verified.status).toBe(200);
    t.clock.advance(20 * DAY);
    const fresh = await signIn(email, 'password123', CHROME_MAC);
    t.clock.advance(15 * DAY); // the Firefox session: 35 days unused
    const res = await request(t.app).get('/api/me/sessions').set(bearer(fresh)).expect(200);
    expect(res.body.sessions.map((s: { label: string }) => s.label)).toEqual(['Chrome on macOS']);
    t.clock.set(T0);
  });

  it('401 without a token', async () => {
    expect((await request(t.app).get('/api/me/sessions')).status).toBe(401);
  });
});

describe('ending sessions', () => {
  it('DELETE /api/me/sessions/{id} ends that session at once; another owner’s or an unknown id is 404', async () => {
    t.clock.set(T0);
    const { user, password } = await buildUser(t);
    const phone = await signIn(user.email, password, CHROME_MAC);
    const laptop = await signIn(user.email, password, FIREFOX_WIN);
    const stranger = await buildUser(t);
    const list = (await request(t.app).get('/api/me/sessions').set(bearer(laptop)).expect(200)).body.sessions as Array<{ id: string; label: string }>;
    const phoneId = list.find((s) => s.label === 'Chrome on macOS')!.id;

    // Not the stranger's to end: 404, and the session keeps working.
    const foreign = await request(t.app).delete(`/api/me/sessions/${phoneId}`).set(stranger.auth);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 'not_found' });
    await me(phone).expect(200);

    await request(t.app).delete(`/api/me/sessions/${phoneId}`).set(bearer(laptop)).expect(204);
    const ended = await me(phone);
    expect(ended.status).toBe(401);
    expect(ended.body.code).toBe('unauthenticated');
    await me(laptop).expect(200);
    expect((await request(t.app).delete(`/api/me/sessions/${phoneId}`).set(bearer(laptop))).status).toBe(404);

    for (const bad of ['not-a-uuid', '1', `${phoneId}x`, '%00', 'DROP%20TABLE']) {
      const res = await request(t.app).delete(`/api/me/sessions/${bad}`).set(bearer(laptop));
      expect(res.status, bad).toBe(404);
    }
    expect((await request(t.app).delete(`/api/me/sessions/${crypto.randomUUID()}`).set(bearer(laptop))).status).toBe(404);
  });

  it('ending the current session signs this device out', async () => {
    const { token } = await buildUser(t);
    const [current] = (await request(t.app).get('/api/me/sessions').set(bearer(token)).expect(200)).body.sessions;
    expect(current.current).toBe(true);
    await request(t.app).delete(`/api/me/sessions/${current.id}`).set(bearer(token)).expect(204);
    expect((await me(token)).status).toBe(401);
  });

  it('DELETE /api/me/sessions ends every session but the current one', async () => {
    const { user, password, token: first } = await buildUser(t);
    const a = await signIn(user.email, password, CHROME_MAC);
    const b = await signIn(user.email, password, FIREFOX_WIN);
    const keep = await signIn(user.email, password, DESKTOP_LINUX);
    const stranger = await buildUser(t);
    const res = await request(t.app).delete('/api/me/sessions').set(bearer(keep));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ended: 3 });
    for (const token of [first, a, b]) expect((await me(token)).status).toBe(401);
    await me(keep).expect(200);
    await me(stranger.token).expect(200);
    const list = (await request(t.app).get('/api/me/sessions').set(bearer(keep)).expect(200)).body.sessions;
    expect(list).toHaveLength(1);
    expect((await request(t.app).delete('/api/me/sessions').set(bearer(keep))).body).toEqual({ ended: 0 });
  });
});
