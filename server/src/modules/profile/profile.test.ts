import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { setUsername } from './profile.service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const DAY = 86_400_000;
let n = 0;
const uname = (p = 'user') => `${p}${(++n).toString(36)}${Math.random().toString(36).slice(2, 6)}`.slice(0, 15);

describe('GET /api/me and profile reads', () => {
  it('returns the spec user shape in user and data.user, ignoring a cache-buster', async () => {
    const { user, auth } = await buildUser(t, { name: 'Grace Hopper', timezone: 'America/New_York', username: 'grace-h' });
    const res = await request(t.app).get('/api/me?t=123').set(auth);
    expect(res.status).toBe(200);
    expect(res.body.user).toEqual({
      id: user.id,
      name: 'Grace Hopper',
      email: user.email,
      timezone: 'America/New_York',
      username: 'grace-h',
      slug: 'grace-h',
      can_change_username: true,
      days_until_change: 0,
      email_verified_at: new Date(user.email_verified_at!).toISOString(),
      // Addition to the spec's shape (issue 10): the link visitors use, from PUBLIC_BASE_URL.
      public_url: 'http://avail.test/grace-h',
      // Addition (issue 22 item 3): the owner's date and time format, null = automatic.
      format_locale: null,
      hour12: null,
      week_start: null,
      // Addition (issue 26): two-factor sign-in is off.
      two_factor_enabled: false,
    });
    expect(res.body.data.user).toEqual(res.body.user);
    expect(res.body.user).not.toHaveProperty('password_hash');
  });

  it('GET /api/user/profile and /api/me/profile', async () => {
    const { user, auth } = await buildUser(t, { timezone: 'Asia/Tokyo' });
    const a = await request(t.app).get('/api/user/profile').set(auth);
    expect(a.body).toEqual({ data: { timezone: 'Asia/Tokyo', name: user.name, email: user.email } });
    const b = await request(t.app).get('/api/me/profile').set(auth);
    expect(b.body).toEqual({
      profile: { username: null, can_change_username: true, days_until_change: 0, timezone: 'Asia/Tokyo', format_locale: null, hour12: null, week_start: null, intro: null, avatar_url: null, avatar_version: null },
    });
  });
});

describe('PUT /api/me/profile (timezone)', () => {
  it('saves a known zone and refuses an unknown or empty one', async () => {
    const { auth } = await buildUser(t);
    const ok = await request(t.app).put('/api/me/profile').set(auth).send({ timezone: 'America/Los_Angeles' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ success: true, message: 'Timezone updated to America/Los_Angeles!', profile: { timezone: 'America/Los_Angeles' } });
    expect((await request(t.app).get('/api/me').set(auth)).body.user.timezone).toBe('America/Los_Angeles');

    const bad = await request(t.app).put('/api/me/profile').set(auth).send({ timezone: 'Mars/Olympus' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.timezone).toBe('Unknown timezone');
    const empty = await request(t.app).put('/api/me/profile').set(auth).send({ timezone: '' });
    expect(empty.body.error).toBe('Please select a timezone');
  });
});

describe('PUT /api/me/profile stores the zone in its IANA spelling', () => {
  it('fixes the letter case of a zone typed in lower case', async () => {
    const { auth } = await buildUser(t);
    const res = await request(t.app).put('/api/me/profile').set(auth).send({ timezone: 'america/new_york' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: 'Timezone updated to America/New_York!', profile: { timezone: 'America/New_York' } });
    expect((await request(t.app).get('/api/me').set(auth)).body.user.timezone).toBe('America/New_York');
    // Offered zones that ICU knows under another name (its supportedValuesOf lists America/Buenos_Aires).
    for (const zone of ['America/Argentina/Buenos_Aires', 'Asia/Kolkata']) {
      const r = await request(t.app).put('/api/me/profile').set(auth).send({ timezone: zone.toLowerCase() });
      expect(r.body.profile?.timezone).toBe(zone);
    }
  });
});

describe('usernames', () => {
  it('first set is allowed, a change within 14 days is refused, after 14 days allowed', async () => {
    t.clock.set(Date.UTC(2026, 2, 1, 12));
    try {
      const { auth } = await buildUser(t, { username: null });
      const first = uname('first');
      const set = await request(t.app).put('/api/me/profile/username').set(auth).send({ username: first });
      expect(set.status).toBe(200);
      expect(set.body).toMatchObject({ success: true, profile: { username: first, can_change_username: true } });

      const second = uname('second');
      expect((await request(t.app).put('/api/me/profile/username').set(auth).send({ username: second })).status).toBe(200);
      const profile = (await request(t.app).get('/api/me/profile').set(auth)).body.profile;
      expect(profile).toMatchObject({ username: second, can_change_username: false, days_until_change: 14 });

      t.clock.advance(10 * DAY);
      const early = await request(t.app).put('/api/me/profile/username').set(auth).send({ username: uname('third') });
      expect(early.status).toBe(403);
      expect(early.body).toMatchObject({ error: 'Username changes are not currently allowed.', code: 'username_change_not_allowed' });
      expect((await request(t.app).get('/api/me').set(auth)).body.user).toMatchObject({ username: second, days_until_change: 4 });

      t.clock.advance(4 * DAY);
      const later = await request(t.app).put('/api/me/profile/username').set(auth).send({ username: uname('fourth') });
      expect(later.status).toBe(200);
    } finally {
      t.clock.reset();
    }
  });

  it('is unique case-insensitively: 409 and check-username false', async () => {
    const name = uname('Taken');
    await buildUser(t, { username: name });
    const { auth } = await buildUser(t);
    const res = await request(t.app).put('/api/me/profile/username').set(auth).send({ username: name.toUpperCase() });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'Username is already taken', code: 'username_taken' });
    const check = await request(t.app).post('/api/me/profile/check-username').set(auth).send({ username: name.toLowerCase() });
    expect(check.body).toEqual({ available: false });
    const free = await request(t.app).post('/api/me/profile/check-username').set(auth).send({ username: uname('free') });
    expect(free.body).toEqual({ available: true });
  });

  it("reports the caller's own current name as available", async () => {
    const name = uname('mine');
    const { auth } = await buildUser(t, { username: name });
    const check = await request(t.app).post('/api/me/profile/check-username').set(auth).send({ username: name.toUpperCase() });
    expect(check.body).toEqual({ available: true });
  });

  it('never allows reserved route names, in any case', async () => {
    const { auth } = await buildUser(t);
    for (const reserved of ['login', 'Dashboard', 'SETTINGS', 'Support', 'verify-email']) {
      const check = await request(t.app).post('/api/me/profile/check-username').set(auth).send({ username: reserved });
      expect(check.body, reserved).toEqual({ available: false });
    }
    const put = await request(t.app).put('/api/me/profile/username').set(auth).send({ username: 'Login' });
    expect(put.status).toBe(409);
    expect(put.body.error).toBe('Username is already taken');
  });

  it('validates format with the spec messages', async () => {
    const { auth } = await buildUser(t);
    const cases: Array<[string, string]> = [
      ['', 'Username is required'],
      ['abc', 'Username must be at least 4 characters'],
      ['a'.repeat(16), 'Username must be no more than 15 characters'],
      ['bad_name', 'Username can only contain letters, numbers, and hyphens'],
    ];
    for (const [username, message] of cases) {
      const res = await request(t.app).put('/api/me/profile/username').set(auth).send({ username });
      expect(res.status, username).toBe(422);
      expect(res.body.error).toBe(message);
    }
  });
});

describe('username changes under concurrency', () => {
  it('two changes racing on the same stale account row: only one passes the 14-day rule', async () => {
    t.clock.set(Date.UTC(2026, 2, 1, 12));
    try {
      // Last change 20 days ago: one change is allowed now, a second one is not.
      const { user } = await buildUser(t, { username: uname('race'), username_changed_at: t.clock.now() - 20 * DAY });
      // Both requests authenticated (and read the row) before either wrote.
      const first = uname('racea');
      await setUsername(t.deps, user, first);
      await expect(setUsername(t.deps, user, uname('raceb'))).rejects.toMatchObject({ status: 403, code: 'username_change_not_allowed' });
      const row = await t.db.selectFrom('users').select(['username', 'username_changed_at']).where('id', '=', user.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ username: first, username_changed_at: t.clock.now() });
    } finally {
      t.clock.reset();
    }
  });
});

describe('time zone change moves zone-dependent busy time', () => {
  it('re-derives an all-day event in the new zone, so the public page changes at once', async () => {
    t.clock.set(Date.UTC(2026, 2, 20, 12));
    try {
      const username = uname('zoner');
      const { user, auth } = await buildUser(t, { username, timezone: 'Europe/Brussels' });
      await request(t.app).post('/api/me/availability-rules').set(auth).send({ rules: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start_time_local: '00:00', end_time_local: '23:59' })) });
      const now = t.clock.now();
      const connection_id = crypto.randomUUID();
      await t.db.insertInto('calendar_connections').values({ id: connection_id, user_id: user.id, provider: 'ics', name: 'Holidays', status: 'active', connected_at: now, updated_at: now }).execute();
      const ics = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//t//EN', 'BEGIN:VEVENT', 'UID:day@t', 'DTSTAMP:20260101T000000Z', 'DTSTART;VALUE=DATE:20260325', 'SUMMARY:Day off', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');
      await t.db.insertInto('calendar_sources').values({ id: crypto.randomUUID(), connection_id, user_id: user.id, calendar_url: `ics:${connection_id}`, object_href: `ics:${connection_id}`, etag: null, ics_text: ics, updated_at: now }).execute();
      // Busy as derived earlier in Brussels (UTC+1): 2026-03-24T23:00Z → 2026-03-25T23:00Z.
      await t.db.insertInto('busy_intervals').values({ id: crypto.randomUUID(), user_id: user.id, connection_id, start_ms: Date.UTC(2026, 2, 24, 23), end_ms: Date.UTC(2026, 2, 25, 23), depends_on_owner_zone: 1 }).execute();

      const res = await request(t.app).put('/api/me/profile').set(auth).send({ timezone: 'America/New_York' });
      expect(res.status).toBe(200);
      const busy = await t.db.selectFrom('busy_intervals').select(['start_ms', 'end_ms']).where('connection_id', '=', connection_id).execute();
      // In New York (UTC-4) the all-day event is 2026-03-25T04:00Z → 2026-03-26T04:00Z.
      expect(busy.map((b) => [new Date(b.start_ms).toISOString(), new Date(b.end_ms).toISOString()])).toEqual([
        ['2026-03-25T04:00:00.000Z', '2026-03-26T04:00:00.000Z'],
      ]);
      const pub = await request(t.app).get(`/api/public/${username}/availability?range=2026-03-25..2026-03-25`);
      expect(pub.body.user_timezone).toBe('America/New_York');
      expect(pub.body.availability.windows).toEqual([]);
    } finally {
      t.clock.reset();
    }
  });
});
