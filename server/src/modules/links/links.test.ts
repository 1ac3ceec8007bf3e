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

let seq = 0;
const uname = (prefix: string) => `${prefix}${++seq}${Math.random().toString(36).slice(2, 6)}`;

describe('GET /api/me/links', () => {
  it("lists the owner's public link with an id", async () => {
    const username = uname('link');
    const created = Date.UTC(2026, 0, 10, 9);
    const { auth, user } = await buildUser(t, { username, created_at: created });
    const res = await request(t.app).get('/api/me/links').set(auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      links: [{ id: user.id, slug: username, url: `http://avail.test/${username}`, created_at: '2026-01-10T09:00:00.000Z' }],
    });
  });

  it('dates a changed username from the change and keeps the same id', async () => {
    const changed = Date.UTC(2026, 1, 3, 15, 30);
    const { auth, user } = await buildUser(t, { username: uname('chg'), username_changed_at: changed });
    const res = await request(t.app).get('/api/me/links').set(auth);
    expect(res.body.links[0]).toMatchObject({ id: user.id, created_at: '2026-02-03T15:30:00.000Z' });
  });

  it('is empty before a username is chosen', async () => {
    const { auth } = await buildUser(t);
    const res = await request(t.app).get('/api/me/links').set(auth);
    expect(res.body).toEqual({ links: [] });
  });

  it('needs a signed-in, verified owner', async () => {
    expect((await request(t.app).get('/api/me/links')).status).toBe(401);
    const { auth } = await buildUser(t, { verified: false, username: uname('unv') });
    expect((await request(t.app).get('/api/me/links').set(auth)).status).toBe(403);
  });
});

describe('POST /api/me/links', () => {
  it('answers 201 with the current link, the same one every time', async () => {
    const username = uname('post');
    const { auth, user } = await buildUser(t, { username });
    const a = await request(t.app).post('/api/me/links').set(auth).send({});
    expect(a.status).toBe(201);
    expect(a.body.link).toMatchObject({ id: user.id, slug: username, url: `http://avail.test/${username}` });
    const b = await request(t.app).post('/api/me/links').set(auth).send({});
    expect(b.body).toEqual(a.body);
    expect((await request(t.app).get('/api/me/links').set(auth)).body.links).toEqual([a.body.link]);
  });

  it('follows a username change', async () => {
    const { auth } = await buildUser(t);
    const username = uname('flw');
    expect((await request(t.app).put('/api/me/profile/username').set(auth).send({ username })).status).toBe(200);
    const res = await request(t.app).post('/api/me/links').set(auth).send({});
    expect(res.body.link).toMatchObject({ slug: username, url: `http://avail.test/${username}` });
  });

  it('refuses without a username (409)', async () => {
    const { auth } = await buildUser(t);
    const res = await request(t.app).post('/api/me/links').set(auth).send({});
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'Choose a username first.', code: 'no_username' });
  });
});

describe('GET /api/me/analytics/links', () => {
  async function addViews(userId: string, day: string, count: number) {
    for (let i = 0; i < count; i++) {
      await t.db.insertInto('page_views').values({ user_id: userId, day, visitor_hash: crypto.randomUUID(), created_at: t.clock.now() }).execute();
    }
  }

  it('lists every day of the last 7 in the owner zone, oldest first, with zeros', async () => {
    // 2026-03-10 06:00 UTC is 19:00 in Auckland (UTC+13): today there is 2026-03-10.
    t.clock.set(Date.UTC(2026, 2, 10, 6));
    try {
      const { auth, user } = await buildUser(t, { username: uname('ana'), timezone: 'Pacific/Auckland' });
      await addViews(user.id, '2026-03-10', 2); // today
      await addViews(user.id, '2026-03-07', 1);
      await addViews(user.id, '2026-03-04', 4); // the first day of the range
      await addViews(user.id, '2026-03-03', 5); // the day before: previous period
      await addViews(user.id, '2026-02-25', 1); // first day of the previous period
      await addViews(user.id, '2026-02-24', 9); // before both
      await addViews(user.id, '2026-03-11', 9); // not yet (never written in practice)
      const res = await request(t.app).get('/api/me/analytics/links?days=7').set(auth);
      expect(res.status).toBe(200);
      const ids = res.body.analytics.map((e: { id: string }) => e.id);
      expect(new Set(ids).size).toBe(7);
      expect(res.body).toEqual({
        analytics: [
          ['2026-03-04', 4], ['2026-03-05', 0], ['2026-03-06', 0], ['2026-03-07', 1],
          ['2026-03-08', 0], ['2026-03-09', 0], ['2026-03-10', 2],
        ].map(([date, views]) => ({ id: `${user.id}:${date}`, link_id: user.id, date, views })),
        days: 7,
        total: 7,
        previous_total: 6,
      });
    } finally {
      t.clock.reset();
    }
  });

  it('defaults to 30 days and offers 90', async () => {
    t.clock.set(Date.UTC(2026, 5, 15, 12));
    try {
      const { auth, user } = await buildUser(t, { username: uname('rng'), timezone: 'Europe/Brussels' });
      await addViews(user.id, '2026-05-17', 2); // 30th day back (first of the 30-day range)
      await addViews(user.id, '2026-05-16', 3); // previous 30 days
      await addViews(user.id, '2026-03-18', 1); // first of the 90-day range
      const d30 = (await request(t.app).get('/api/me/analytics/links').set(auth)).body;
      expect(d30.analytics).toHaveLength(30);
      expect(d30.analytics[0]).toMatchObject({ date: '2026-05-17', views: 2 });
      expect(d30.analytics[29]).toMatchObject({ date: '2026-06-15', views: 0 });
      expect(d30).toMatchObject({ days: 30, total: 2, previous_total: 3 });
      const d90 = (await request(t.app).get('/api/me/analytics/links?days=90').set(auth)).body;
      expect(d90.analytics).toHaveLength(90);
      expect(d90.analytics[0]).toMatchObject({ date: '2026-03-18', views: 1 });
      expect(d90).toMatchObject({ days: 90, total: 6, previous_total: 0 });
    } finally {
      t.clock.reset();
    }
  });

  it("counts visits to the public page on the owner's dates", async () => {
    const username = uname('vis');
    // Monday 2026-03-23 23:30 in Brussels (UTC+1) is 22:30 UTC.
    t.clock.set(Date.UTC(2026, 2, 23, 22, 30));
    try {
      const { auth } = await buildUser(t, { username, timezone: 'Europe/Brussels' });
      await request(t.app).get(`/api/public/${username}/availability`).set('User-Agent', 'A');
      await request(t.app).get(`/api/public/${username}/availability`).set('User-Agent', 'A'); // same visitor
      await request(t.app).get(`/api/public/${username}/availability`).set('User-Agent', 'B');
      // 00:30 Tuesday in Brussels, still Monday in UTC.
      t.clock.set(Date.UTC(2026, 2, 23, 23, 30));
      await request(t.app).get(`/api/public/${username}/availability`).set('User-Agent', 'A');
      const res = await request(t.app).get('/api/me/analytics/links?days=7').set(auth);
      expect(res.body.analytics.slice(-2).map((e: { date: string; views: number }) => [e.date, e.views])).toEqual([
        ['2026-03-23', 2],
        ['2026-03-24', 1],
      ]);
      expect(res.body.total).toBe(3);
    } finally {
      t.clock.reset();
    }
  });

  it('gives an owner without a username zeros under the same link id', async () => {
    const { auth, user } = await buildUser(t);
    const res = await request(t.app).get('/api/me/analytics/links?days=7').set(auth);
    expect(res.status).toBe(200);
    expect(res.body.analytics).toHaveLength(7);
    for (const e of res.body.analytics) expect(e).toMatchObject({ link_id: user.id, views: 0 });
    expect(res.body).toMatchObject({ total: 0, previous_total: 0 });
  });

  it('refuses other ranges (400)', async () => {
    const { auth } = await buildUser(t);
    for (const q of ['days=14', 'days=abc', 'days=', 'days=7&days=30', 'days=7.0']) {
      const res = await request(t.app).get(`/api/me/analytics/links?${q}`).set(auth);
      expect(res.status, q).toBe(400);
      expect(res.body, q).toMatchObject({ error: 'days must be 7, 30 or 90', code: 'invalid_days' });
    }
    expect((await request(t.app).get('/api/me/analytics/links')).status).toBe(401);
  });
});
