/**
 * Sessions that end (issue 26), on SQLite and PostgreSQL:
 *
 * 1. Expiry: sessions with random ages and idle times (and cases 1 ms either side of each limit)
 *    are used at random instants; each answers 200 exactly while it is younger than
 *    SESSION_MAX_DAYS and used within SESSION_IDLE_DAYS, otherwise 401 `session_expired` (and again
 *    on the next request: the row stays until the purge, 30 days past its absolute end). Decimal days (0.5 / 2.5) so the limits are not whole days.
 * 2. Revocation under load: while an owner's other devices keep sending requests, "Sign out
 *    everywhere else", ending one session, and a password change each take effect at once: no
 *    request with an ended token that starts after the answer succeeds.
 *
 * Size: × RELIABILITY_SCALE (sessions in 1, owners in 2).
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../src/http/authenticate.ts';
import { buildUser } from '../factories.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { reportReliability, SCALE } from './reliability-report.ts';

const DAY = 86_400_000;
const IDLE_DAYS = 0.5;
const MAX_DAYS = 2.5;
const NOW = Date.parse('2031-07-01T09:00:00Z');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { SESSION_IDLE_DAYS: String(IDLE_DAYS), SESSION_MAX_DAYS: String(MAX_DAYS) } });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** A small seeded PRNG (mulberry32): the same cases on every run. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const me = (token: string) => request(t.app).get('/api/me').set(bearer(token));

describe('sessions under test', () => {
  it('every session answers 200 exactly while it is within both limits, then session_expired (again on the next request)', async () => {
    const random = rng(26);
    const idle = IDLE_DAYS * DAY;
    const max = MAX_DAYS * DAY;
    // [age at the request, idle time at the request] in ms: the edges, then random ones.
    const cases: Array<[number, number]> = [
      [idle - 1, idle - 1], [idle, idle], [idle + 1, idle + 1],
      [max - 1, 1], [max, 1], [max + 1, 1], [max - 1, idle - 1], [max - 1, idle],
    ];
    for (let i = 0; i < 40 * SCALE; i++) {
      const age = Math.floor(random() * max * 1.3);
      cases.push([age, Math.floor(random() * Math.min(age, idle * 1.5))]);
    }
    const { user } = await buildUser(t);
    let requests = 0;
    let failures = 0;
    for (const [age, idleFor] of cases) {
      const created = NOW - age;
      const token = await issueToken({ db: t.db, now: () => created }, user.id, 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0');
      await t.db.updateTable('auth_tokens').set({ last_used_at: NOW - idleFor }).where('created_at', '=', created).where('user_id', '=', user.id).execute();
      t.clock.set(NOW);
      const alive = age < max && idleFor < idle;
      const first = await me(token);
      const second = await me(token);
      requests += 2;
      const ok = alive
        ? first.status === 200 && second.status === 200
        : first.status === 401 && first.body.code === 'session_expired' && second.status === 401 && second.body.code === 'session_expired';
      if (!ok) failures += 1;
      // Alive or not, end it so the next case starts clean.
      await t.db.deleteFrom('auth_tokens').where('user_id', '=', user.id).execute();
    }
    reportReliability({ check: 'session expiry (idle and absolute)', requests, trials: cases.length, failures });
    expect(failures).toBe(0);
  }, 120_000);

  it('ending sessions takes effect at once while the other devices keep sending requests', async () => {
    t.clock.reset();
    const owners = 3 * SCALE;
    const DEVICES = 6;
    let requests = 0;
    let failures = 0;
    let trials = 0;
    for (let o = 0; o < owners; o++) {
      const { user, password, token: first } = await buildUser(t, { password: 'reliable password 1' });
      // The owner's own session (a password change renews its token: `keep` follows it).
      let keep = first;
      const others: string[] = [];
      for (let d = 0; d < DEVICES; d++) others.push(await issueToken(t.deps, user.id, 'Mozilla/5.0 (Windows NT 10.0) Chrome/131.0.0.0'));
      // The other devices poll while the owner ends them (three ways in turn).
      let ended = false;
      let lateSuccesses = 0;
      const poll = async (token: string) => {
        for (let i = 0; i < 10; i++) {
          const startedAfterEnd = ended;
          const res = await me(token);
          requests += 1;
          if (startedAfterEnd && res.status === 200) lateSuccesses += 1;
        }
      };
      const end = async () => {
        let res;
        if (o % 3 === 0) res = await request(t.app).delete('/api/me/sessions').set(bearer(keep));
        else if (o % 3 === 1) {
          res = await request(t.app).put('/api/me/password').set(bearer(keep)).send({ current_password: password, password: 'another password 2', password_confirmation: 'another password 2' });
          if (res.status === 200) {
            // The token sent stops working; the answer's token goes on.
            requests += 1;
            if ((await me(keep)).status !== 401) failures += 1;
            keep = res.body.token as string;
          }
        }
        else {
          const list = (await request(t.app).get('/api/me/sessions').set(bearer(keep))).body.sessions as Array<{ id: string; current: boolean }>;
          requests += 1;
          for (const s of list.filter((x) => !x.current)) {
            const del = await request(t.app).delete(`/api/me/sessions/${s.id}`).set(bearer(keep));
            requests += 1;
            if (del.status !== 204) failures += 1;
          }
          res = { status: 200 };
        }
        requests += 1;
        if (res.status !== 200) failures += 1;
        ended = true;
      };
      await Promise.all([...others.map(poll), end()]);
      for (const token of others) {
        trials += 1;
        requests += 1;
        if ((await me(token)).status !== 401) failures += 1;
      }
      requests += 1;
      if ((await me(keep)).status !== 200) failures += 1;
      failures += lateSuccesses;
    }
    reportReliability({ check: 'session revocation under load', requests, trials, failures });
    expect(failures).toBe(0);
  }, 120_000);
});
