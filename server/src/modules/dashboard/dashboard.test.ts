import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories.ts';
import type { BuiltUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { currentWeek } from './dashboard.service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});


describe('currentWeek', () => {
  it('runs Monday 00:00 to Monday 00:00 in the owner zone', () => {
    // Wednesday 2026-03-25 12:00Z; Brussels is UTC+1 then.
    const w = currentWeek('Europe/Brussels', Date.UTC(2026, 2, 25, 12));
    expect(new Date(w.start).toISOString()).toBe('2026-03-22T23:00:00.000Z');
    // DST starts on 2026-03-29: the next Monday is at UTC+2.
    expect(new Date(w.end).toISOString()).toBe('2026-03-29T22:00:00.000Z');
    // Sunday 23:30 in New York is still that week there, already next week in UTC.
    const ny = currentWeek('America/New_York', Date.UTC(2026, 2, 30, 3, 30));
    expect(new Date(ny.start).toISOString()).toBe('2026-03-23T04:00:00.000Z');
  });
});

describe('GET /api/me/dashboard/stats', () => {
  it('starts at zero for a new user', async () => {
    const { auth } = await buildUser(t);
    const res = await request(t.app).get('/api/me/dashboard/stats').set(auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      total_views: 0, has_availability: false, this_week_events: 0, user_slug: null,
      views_last_7_days: 0, views_previous_7_days: 0, views_change_percent: null,
    });
  });

  it("counts views, rules and this week's events", async () => {
    t.clock.set(Date.UTC(2026, 2, 25, 12)); // Wednesday
    try {
      const { auth, user } = await buildUser(t, { username: 'statsowner', timezone: 'Europe/Brussels' });
      await request(t.app).post('/api/me/availability-rules').set(auth).send({ weekday: 0, start_time_local: '09:00', end_time_local: '17:00' });
      const connection_id = crypto.randomUUID();
      const now = t.clock.now();
      await t.db.insertInto('calendar_connections').values({ id: connection_id, user_id: user.id, provider: 'ics', name: 'Work', status: 'active', connected_at: now, updated_at: now }).execute();
      const event = (start: number, end: number) => ({
        id: crypto.randomUUID(), user_id: user.id, connection_id, uid: crypto.randomUUID(), title: 'Meeting',
        start_ms: start, end_ms: end, all_day: 0, is_busy: 1, depends_on_owner_zone: 0,
      });
      await t.db.insertInto('calendar_events').values([
        event(Date.UTC(2026, 2, 23, 8), Date.UTC(2026, 2, 23, 9)), // Monday this week
        event(Date.UTC(2026, 2, 22, 22, 30), Date.UTC(2026, 2, 23, 0)), // Sunday 23:30 → Monday 01:00 Brussels: overlaps
        event(Date.UTC(2026, 2, 29, 21), Date.UTC(2026, 2, 29, 21, 30)), // Sunday 23:00 Brussels (UTC+2): this week
        event(Date.UTC(2026, 2, 22, 10), Date.UTC(2026, 2, 22, 11)), // last Sunday
        event(Date.UTC(2026, 2, 29, 22), Date.UTC(2026, 2, 29, 23)), // next Monday 00:00 Brussels
      ]).execute();
      // Two visitors, one of them twice.
      await request(t.app).get('/api/public/statsowner/availability').set('User-Agent', 'A');
      await request(t.app).get('/api/public/statsowner/availability').set('User-Agent', 'A');
      await request(t.app).get('/api/public/statsowner/availability').set('User-Agent', 'B');
      const res = await request(t.app).get('/api/me/dashboard/stats').set(auth);
      expect(res.body).toEqual({
        total_views: 2, has_availability: true, this_week_events: 3, user_slug: 'statsowner',
        // Both visitors came today; nobody the week before, so there is no percentage to show.
        views_last_7_days: 2, views_previous_7_days: 0, views_change_percent: null,
      });
    } finally {
      t.clock.reset();
    }
  });
});

/** Inserts `count` page views (distinct visitors) of `user` on owner-zone date `day`. */
async function addViews(user: BuiltUser['user'], day: string, count: number) {
  for (let i = 0; i < count; i++) {
    await t.db.insertInto('page_views').values({ user_id: user.id, day, visitor_hash: crypto.randomUUID(), created_at: t.clock.now() }).execute();
  }
}

describe('Total Views change on /api/me/dashboard/stats', () => {
  it('compares the last 7 days with the 7 before, in the owner zone', async () => {
    // 2026-04-01 10:00 in New York (UTC-4): "today" is 2026-04-01 there.
    t.clock.set(Date.UTC(2026, 3, 1, 14));
    try {
      const { auth, user } = await buildUser(t, { username: `chg${Date.now().toString(36).slice(-6)}`, timezone: 'America/New_York' });
      await addViews(user, '2026-04-01', 2); // today
      await addViews(user, '2026-03-26', 3); // today − 6: last day of the current period
      await addViews(user, '2026-03-25', 1); // today − 7: previous period
      await addViews(user, '2026-03-19', 3); // today − 13: previous period
      await addViews(user, '2026-03-18', 7); // today − 14: in neither period
      const res = await request(t.app).get('/api/me/dashboard/stats').set(auth);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ total_views: 16, views_last_7_days: 5, views_previous_7_days: 4, views_change_percent: 25 });
    } finally {
      t.clock.reset();
    }
  });

  it('rounds a drop to a negative whole percent', async () => {
    t.clock.set(Date.UTC(2026, 3, 1, 14));
    try {
      const { auth, user } = await buildUser(t, { timezone: 'Europe/Brussels' });
      await addViews(user, '2026-03-30', 1);
      await addViews(user, '2026-03-22', 3);
      const res = await request(t.app).get('/api/me/dashboard/stats').set(auth);
      expect(res.body).toMatchObject({ total_views: 4, views_last_7_days: 1, views_previous_7_days: 3, views_change_percent: -67 });
    } finally {
      t.clock.reset();
    }
  });

  it("counts a late-evening visit on the owner's date, not the UTC date", async () => {
    const username = `eve${Date.now().toString(36).slice(-6)}`;
    // Wednesday 2026-03-25 22:30 in New York is already Thursday 02:30 UTC.
    t.clock.set(Date.UTC(2026, 2, 26, 2, 30));
    try {
      const { auth } = await buildUser(t, { username, timezone: 'America/New_York' });
      await request(t.app).get(`/api/public/${username}/availability`).set('User-Agent', 'Late visitor');
      // Seven New York days later (Wednesday 2026-04-01, 20:00 there = 00:00 UTC Thursday) the visit is
      // exactly one week old: it belongs to the previous period. Counted under the UTC date (03-26) it
      // would still be in the last 7 days.
      t.clock.set(Date.UTC(2026, 3, 2, 0));
      await request(t.app).get(`/api/public/${username}/availability`).set('User-Agent', 'Today visitor');
      const res = await request(t.app).get('/api/me/dashboard/stats').set(auth);
      expect(res.body).toMatchObject({ total_views: 2, views_last_7_days: 1, views_previous_7_days: 1, views_change_percent: 0 });
    } finally {
      t.clock.reset();
    }
  });
});
