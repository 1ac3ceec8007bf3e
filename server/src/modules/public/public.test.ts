import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
const NOW = Date.UTC(2026, 2, 20, 12); // Friday 2026-03-20 12:00Z
beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(NOW);
});
afterAll(async () => {
  await t.close();
});

let seq = 0;
async function owner(opts: { timezone?: string; rules?: Array<[number, string, string]> } = {}) {
  const username = `owner${++seq}x${Math.random().toString(36).slice(2, 6)}`;
  const built = await buildUser(t, { username, timezone: opts.timezone ?? 'Europe/Brussels', name: 'Olivia Owner' });
  for (const [weekday, start_time_local, end_time_local] of opts.rules ?? [[0, '09:00', '17:00']]) {
    await request(t.app).post('/api/me/availability-rules').set(built.auth).send({ weekday, start_time_local, end_time_local });
  }
  return { ...built, username };
}

async function addBusy(userId: string, start: string, end: string, title = 'Secret board meeting with ACME') {
  const connection_id = crypto.randomUUID();
  const now = t.clock.now();
  await t.db.insertInto('calendar_connections').values({ id: connection_id, user_id: userId, provider: 'ics', name: 'Private calendar', status: 'active', account: 'olivia@acme.example', connected_at: now, updated_at: now }).execute();
  const s = Date.parse(start);
  const e = Date.parse(end);
  await t.db.insertInto('calendar_events').values({ id: crypto.randomUUID(), user_id: userId, connection_id, uid: 'evt-uid-123', title, start_ms: s, end_ms: e, all_day: 0, is_busy: 1, depends_on_owner_zone: 0 }).execute();
  await t.db.insertInto('busy_intervals').values({ id: crypto.randomUUID(), user_id: userId, connection_id, start_ms: s, end_ms: e, depends_on_owner_zone: 0 }).execute();
}

const get = (slug: string, query = '') => request(t.app).get(`/api/public/${slug}/availability${query}`);

describe('GET /api/public/:slug/availability', () => {
  it("answers the owner's Monday 09:00–17:00 Brussels as UTC windows, minus busy time", async () => {
    const o = await owner();
    await addBusy(o.user.id, '2026-03-23T10:00:00Z', '2026-03-23T11:30:00Z');
    const res = await get(o.username, '?range=2026-03-23..2026-03-29');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      user_name: 'Olivia Owner',
      user_timezone: 'Europe/Brussels',
      // The host (issue 22): no introduction, no picture yet.
      host: { intro: null, avatar_url: null },
      // The busy time comes from a calendar that never synced (inserted by hand): not up to date.
      as_of: null,
      stale: true,
      zone_changes: [{ at: '2026-03-29T01:00:00Z', zone: 'Europe/Brussels', offset_before: 60, offset_after: 120 }],
      availability: {
        windows: [
          { start: '2026-03-23T08:00:00Z', end: '2026-03-23T10:00:00Z' },
          { start: '2026-03-23T11:30:00Z', end: '2026-03-23T16:00:00Z' },
        ],
        range: { start: '2026-03-22T23:00:00Z', end: '2026-03-29T22:00:00Z' },
      },
    });
  });

  it('reads date ranges in the visitor zone (tz) while windows stay in the owner zone', async () => {
    const o = await owner();
    const res = await get(o.username, '?range=2026-03-23..2026-03-23&tz=America/New_York');
    expect(res.status).toBe(200);
    // 2026-03-23 in New York (UTC-4) is 04:00Z → next day 04:00Z; Monday 09–17 Brussels is 08–16Z.
    expect(res.body.availability.range).toEqual({ start: '2026-03-23T04:00:00Z', end: '2026-03-24T04:00:00Z' });
    expect(res.body.availability.windows).toEqual([{ start: '2026-03-23T08:00:00Z', end: '2026-03-23T16:00:00Z' }]);
  });

  it('follows DST: the Monday after the switch is 07:00–15:00Z', async () => {
    const o = await owner();
    const res = await get(o.username, '?range=2026-03-30..2026-03-30');
    expect(res.body.availability.windows).toEqual([{ start: '2026-03-30T07:00:00Z', end: '2026-03-30T15:00:00Z' }]);
  });

  it('accepts instant ranges and applies exceptions', async () => {
    const o = await owner();
    await request(t.app).post('/api/me/exceptions').set(o.auth).send({ date: '2026-03-23', start_time_local: '13:00', end_time_local: '14:00' });
    const res = await get(o.username, '?range=2026-03-23T00:00:00Z..2026-03-24T00:00:00Z&tz=Asia/Tokyo');
    expect(res.status).toBe(200);
    expect(res.body.availability.windows).toEqual([{ start: '2026-03-23T12:00:00Z', end: '2026-03-23T13:00:00Z' }]);
  });

  it('defaults to now … now + 28 days and never returns the past', async () => {
    const o = await owner({ rules: [[4, '09:00', '17:00']] }); // Fridays
    const res = await get(o.username);
    expect(res.status).toBe(200);
    expect(res.body.availability.range).toEqual({ start: '2026-03-20T12:00:00Z', end: '2026-04-17T12:00:00Z' });
    // Today (Friday) is cut at now (12:00Z = 13:00 Brussels).
    expect(res.body.availability.windows[0]).toEqual({ start: '2026-03-20T12:00:00Z', end: '2026-03-20T16:00:00Z' });
    // Fridays 20, 27 Mar, 3, 10 Apr, and 17 Apr cut at the range end (now + 28 days).
    expect(res.body.availability.windows).toHaveLength(5);
    expect(res.body.availability.windows[4]).toEqual({ start: '2026-04-17T07:00:00Z', end: '2026-04-17T12:00:00Z' });
  });

  it('never shows a window starting before now when now is mid-second', async () => {
    const o = await owner({ rules: [[4, '09:00', '17:00']] }); // Fridays; now is Friday 13:00 Brussels
    t.clock.set(NOW + 400);
    try {
      const res = await get(o.username, '?range=2026-03-20..2026-03-20');
      expect(res.status).toBe(200);
      // Rounded inward to whole seconds: 12:00:00.400Z is not free at 12:00:00Z.
      expect(res.body.availability.windows).toEqual([{ start: '2026-03-20T12:00:01Z', end: '2026-03-20T16:00:00Z' }]);
    } finally {
      t.clock.set(NOW);
    }
  });

  it('finds the slug case-insensitively', async () => {
    const o = await owner();
    expect((await get(o.username.toUpperCase(), '?range=2026-03-23..2026-03-23')).status).toBe(200);
  });

  it('never puts titles, calendar names, accounts, rules or ids in the body or headers', async () => {
    const o = await owner();
    await addBusy(o.user.id, '2026-03-23T12:00:00Z', '2026-03-23T13:00:00Z', 'Dentist appointment TOPSECRET');
    const res = await get(o.username, '?range=2026-03-23..2026-03-29');
    const everything = JSON.stringify(res.body) + JSON.stringify(res.headers);
    for (const leak of ['TOPSECRET', 'Dentist', 'Private calendar', 'olivia@acme.example', 'evt-uid-123', o.user.email, o.user.id, 'start_time_local', '09:00', 'ics']) {
      expect(everything, leak).not.toContain(leak);
    }
    expect(Object.keys(res.body).sort()).toEqual(['as_of', 'availability', 'host', 'stale', 'user_name', 'user_timezone', 'zone_changes']);
    expect(res.body.host).toEqual({ intro: null, avatar_url: null });
    expect(Object.keys(res.body.availability).sort()).toEqual(['range', 'windows']);
  });

  it('sends no-store, noindex and no-referrer headers, also on errors', async () => {
    const o = await owner();
    for (const res of [await get(o.username, '?range=2026-03-23..2026-03-23'), await get('nobody-here-xyz'), await get(o.username, '?range=bad')]) {
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-robots-tag']).toBe('noindex');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
  });

  it('answers 404 with the same body for an unknown, a reserved and a released slug', async () => {
    const o = await owner();
    const old = o.username;
    // The owner renames: the old slug is released.
    await request(t.app).put('/api/me/profile/username').set(o.auth).send({ username: `new${old}`.slice(0, 15) });
    const bodies = [];
    for (const slug of ['never-existed', 'login', old]) {
      const res = await get(slug);
      expect(res.status, slug).toBe(404);
      bodies.push(res.body);
    }
    expect(bodies[0]).toEqual({ error: 'This availability link could not be found.', code: 'not_found' });
    expect(bodies[1]).toEqual(bodies[0]);
    expect(bodies[2]).toEqual(bodies[0]);
  });

  it.each([
    ['?range=2026-03-23..2026-03-20', /before its start/],
    ['?range=2026-01-01..2026-04-04', /longer than 93 days/],
    ['?range=2026-03-23..2026-06-24', /longer than 93 days/],
    ['?range=2026-02-30..2026-03-01', /invalid date/],
    ['?range=2026-03-23T00:00:00..2026-03-24T00:00:00Z', /without a zone/],
    ['?range=2026-03-23', /malformed range/],
    ['?range=2026-03-23..2026-03-24&tz=Mars/Base', /unknown time zone/],
    ['?range=2026-03-23T00:00:00Z..2026-03-24T00:00:00Z&tz=Nowhere/City', /unknown time zone/],
    ['?range=2027-03-01..2027-03-31', /366 days/],
    ['?range=a..b&range=c..d', /once/],
  ])('answers 400 for %s', async (query, message) => {
    const o = await owner();
    const res = await get(o.username, query);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });

  it('accepts exactly 93 dates', async () => {
    const o = await owner();
    expect((await get(o.username, '?range=2026-03-23..2026-06-23')).status).toBe(200);
  });

  it('counts one view per visitor per day without storing the IP', async () => {
    const o = await owner();
    await get(o.username).set('User-Agent', 'Firefox');
    await get(o.username).set('User-Agent', 'Firefox');
    await get(o.username).set('User-Agent', 'Safari');
    await get(o.username, '?range=bad').set('User-Agent', 'Chrome'); // errors are not views
    const rows = await t.db.selectFrom('page_views').selectAll().where('user_id', '=', o.user.id).execute();
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect(r.day).toBe('2026-03-20');
      expect(r.visitor_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(r.visitor_hash).not.toContain('127.0.0.1');
    }
    t.clock.set(NOW + 86_400_000);
    try {
      await get(o.username).set('User-Agent', 'Firefox');
    } finally {
      t.clock.set(NOW);
    }
    expect(await t.db.selectFrom('page_views').selectAll().where('user_id', '=', o.user.id).execute()).toHaveLength(3);
  });
});
