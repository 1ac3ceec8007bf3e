/**
 * The public cache (public-cache.ts), busy-query lower bound and batched page views: every kind of
 * owner change is visible to the very next visitor request (runs on SQLite, and on PostgreSQL with
 * TEST_POSTGRES_URL), the clock rule, and that an answer really is served from the cache (a row
 * written behind the change bus's back stays unseen while the entry is valid).
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, type BuiltUser } from '../../../test/factories.ts';
import { startIcsServer, type IcsServer } from '../../../test/ics-server.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { changeBusFor } from '../../store/change-bus.ts';
import { answerStillValid, publicCacheFor, secondBucket } from './public-cache.ts';
import { busyMaxSpan, busyOverlapping } from './public.repo.ts';
import { ownerFreeWindows } from './owner-windows.service.ts';
import { PageViewRecorder, flushPageViews, pageViewsFor } from '../../store/page-views.ts';

const H = 3_600_000;
const NOW = Date.UTC(2030, 0, 4, 12); // Friday 2030-01-04 12:00Z (13:00 Brussels)
const MON = '2030-01-07'; // Monday; 09:00–17:00 Brussels = 08:00–16:00Z
const RANGE = `?range=${MON}..${MON}`;

let t: TestApp;
let srv: IcsServer;
beforeAll(async () => {
  srv = await startIcsServer();
  t = await createTestApp({ env: { ALLOW_PRIVATE_CALENDAR_HOSTS: 'true' } });
  t.clock.set(NOW);
  await changeBusFor(t.db).ready();
});
afterAll(async () => {
  await t?.close();
  await srv?.close();
});

let seq = 0;
async function owner(rules: Array<[number, string, string]> = [[0, '09:00', '17:00']]): Promise<BuiltUser & { username: string }> {
  const username = `pc${++seq}${Math.random().toString(36).slice(2, 7)}`;
  const built = await buildUser(t, { username, timezone: 'Europe/Brussels', name: 'Carla Cache' });
  for (const [weekday, start_time_local, end_time_local] of rules) {
    await request(t.app).post('/api/me/availability-rules').set(built.auth).send({ weekday, start_time_local, end_time_local }).expect(201);
  }
  return { ...built, username };
}
const get = (slug: string, query = RANGE) => request(t.app).get(`/api/public/${slug}/availability${query}`);
const windowsOf = async (slug: string, query = RANGE) => {
  const res = await get(slug, query);
  expect(res.status).toBe(200);
  return res.body.availability.windows as Array<{ start: string; end: string }>;
};
/** A busy interval written straight to the table: no replicatedWrite, so no change signal. */
async function sneakBusy(userId: string, start: number, end: number) {
  const connection_id = crypto.randomUUID();
  await t.db.insertInto('calendar_connections').values({ id: connection_id, user_id: userId, provider: 'ics', name: 'x', status: 'active', account: null, connected_at: NOW, updated_at: NOW, next_sync_at: NOW + 30 * 24 * H }).execute();
  await t.db.insertInto('busy_intervals').values({ id: crypto.randomUUID(), user_id: userId, connection_id, start_ms: start, end_ms: end, depends_on_owner_zone: 0 }).execute();
}
const ics = (...events: Array<[string, string]>) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//t//t//EN', ...events.flatMap(([s, e], i) => ['BEGIN:VEVENT', `UID:ev${i}@t`, 'DTSTAMP:20300101T000000Z', `DTSTART:${s}`, `DTEND:${e}`, 'SUMMARY:Hidden', 'END:VEVENT']), 'END:VCALENDAR', ''].join('\r\n');

const FULL = [{ start: `${MON}T08:00:00Z`, end: `${MON}T16:00:00Z` }];

describe('public cache: invalidated by the change bus', () => {
  it('serves a repeat from the cache: a row written behind the bus is not seen until a real change', async () => {
    const o = await owner();
    expect(await windowsOf(o.username)).toEqual(FULL);
    await sneakBusy(o.user.id, Date.parse(`${MON}T10:00:00Z`), Date.parse(`${MON}T11:00:00Z`));
    expect(await windowsOf(o.username)).toEqual(FULL); // cached
    // Any replicated write of the owner (here an exception on another day) drops the owner's entries.
    await request(t.app).post('/api/me/exceptions').set(o.auth).send({ date: '2030-02-01', start_time_local: null, end_time_local: null }).expect(201);
    expect(await windowsOf(o.username)).toEqual([
      { start: `${MON}T08:00:00Z`, end: `${MON}T10:00:00Z` },
      { start: `${MON}T11:00:00Z`, end: `${MON}T16:00:00Z` },
    ]);
  });

  it('weekly rules: add, replace', async () => {
    const o = await owner([]);
    expect(await windowsOf(o.username)).toEqual([]);
    await request(t.app).post('/api/me/availability-rules').set(o.auth).send({ weekday: 0, start_time_local: '10:00', end_time_local: '12:00' }).expect(201);
    expect(await windowsOf(o.username)).toEqual([{ start: `${MON}T09:00:00Z`, end: `${MON}T11:00:00Z` }]);
    // Replacing the whole set (the onboarding form's call).
    await request(t.app).post('/api/me/availability-rules').set(o.auth).send({ rules: [{ weekday: 0, start_time_local: '13:00', end_time_local: '14:00' }] }).expect((r) => expect(r.status).toBeLessThan(300));
    expect(await windowsOf(o.username)).toEqual([{ start: `${MON}T12:00:00Z`, end: `${MON}T13:00:00Z` }]);
  });

  it('date exceptions', async () => {
    const o = await owner();
    expect(await windowsOf(o.username)).toEqual(FULL);
    await request(t.app).post('/api/me/exceptions').set(o.auth).send({ date: MON, start_time_local: '15:00', end_time_local: '16:00' }).expect(201);
    expect(await windowsOf(o.username)).toEqual([{ start: `${MON}T14:00:00Z`, end: `${MON}T15:00:00Z` }]);
  });

  it('busy blocks: create and delete', async () => {
    const o = await owner();
    expect(await windowsOf(o.username)).toEqual(FULL);
    const b = await request(t.app).post('/api/me/blocks').set(o.auth).send({ start_ms: Date.parse(`${MON}T09:00:00Z`), end_ms: Date.parse(`${MON}T10:00:00Z`) });
    expect(b.status).toBe(201);
    expect(await windowsOf(o.username)).toEqual([
      { start: `${MON}T08:00:00Z`, end: `${MON}T09:00:00Z` },
      { start: `${MON}T10:00:00Z`, end: `${MON}T16:00:00Z` },
    ]);
    const id = b.body.block?.id ?? b.body.id;
    await request(t.app).delete(`/api/me/blocks/${id}`).set(o.auth).expect((r) => expect(r.status).toBeLessThan(300));
    expect(await windowsOf(o.username)).toEqual(FULL);
  });

  it('busy intervals written by a calendar sync (connect, Sync Now with a changed feed, disconnect)', async () => {
    const o = await owner();
    expect(await windowsOf(o.username)).toEqual(FULL);
    const path = `/pc-${o.user.id}.ics`;
    srv.set(path, { ics: ics(['20300107T090000Z', '20300107T100000Z']) });
    const c = await request(t.app).post('/api/me/calendar/ics/connect').set(o.auth).send({ url: srv.url(path) });
    expect(c.status).toBe(201);
    expect(await windowsOf(o.username)).toEqual([
      { start: `${MON}T08:00:00Z`, end: `${MON}T09:00:00Z` },
      { start: `${MON}T10:00:00Z`, end: `${MON}T16:00:00Z` },
    ]);
    srv.set(path, { ics: ics(['20300107T140000Z', '20300107T150000Z']) });
    await request(t.app).post('/api/me/calendar/sync').set(o.auth).expect(200);
    expect(await windowsOf(o.username)).toEqual([
      { start: `${MON}T08:00:00Z`, end: `${MON}T14:00:00Z` },
      { start: `${MON}T15:00:00Z`, end: `${MON}T16:00:00Z` },
    ]);
    await request(t.app).delete(`/api/me/calendar/connections/${c.body.connection.id}`).set(o.auth).expect((r) => expect(r.status).toBeLessThan(300));
    expect(await windowsOf(o.username)).toEqual(FULL);
  });

  it('profile: a new time zone and a new username', async () => {
    const o = await owner();
    const before = await get(o.username);
    expect(before.body.user_timezone).toBe('Europe/Brussels');
    await request(t.app).put('/api/me/profile').set(o.auth).send({ timezone: 'America/New_York' }).expect(200);
    const after = await get(o.username);
    expect(after.body.user_timezone).toBe('America/New_York');
    // Monday 09–17 New York (UTC-5), range dates still read in the owner's (new) zone.
    expect(after.body.availability.windows).toEqual([{ start: `${MON}T14:00:00Z`, end: `${MON}T22:00:00Z` }]);

    const renamed = `r${o.username}`.slice(0, 15);
    await request(t.app).put('/api/me/profile/username').set(o.auth).send({ username: renamed }).expect(200);
    expect((await get(o.username)).status).toBe(404);
    expect((await get(renamed)).status).toBe(200);
  });

  it('a slug released by one owner and taken by another answers for the new owner', async () => {
    const a = await owner();
    const b = await owner([[0, '10:00', '11:00']]);
    expect(await windowsOf(a.username)).toEqual(FULL);
    const old = a.username;
    await request(t.app).put('/api/me/profile/username').set(a.auth).send({ username: `x${old}`.slice(0, 15) }).expect(200);
    await request(t.app).put('/api/me/profile/username').set(b.auth).send({ username: old }).expect(200);
    expect(await windowsOf(old)).toEqual([{ start: `${MON}T09:00:00Z`, end: `${MON}T10:00:00Z` }]);
  });
});

describe('public cache: the clock rule (windows never start before now)', () => {
  it('a default range (now … now + 28 d) moves with the clock, to the second', async () => {
    const o = await owner([[4, '09:00', '17:00']]); // Fridays; now is Friday 13:00 Brussels
    try {
      const first = (await get(o.username, '')).body.availability;
      expect(first.windows[0]).toEqual({ start: '2030-01-04T12:00:00Z', end: '2030-01-04T16:00:00Z' });
      t.clock.set(NOW + 400); // NOW was an exact second; +400 ms is inside the next bucket
      expect((await get(o.username, '')).body.availability.windows[0].start).toBe('2030-01-04T12:00:01Z');
      t.clock.set(NOW + 900); // same bucket as +400: the same answer
      expect((await get(o.username, '')).body.availability.windows[0].start).toBe('2030-01-04T12:00:01Z');
      t.clock.set(NOW + 61_000);
      const later = (await get(o.username, '')).body.availability;
      expect(later.windows[0].start).toBe('2030-01-04T12:01:01Z');
      expect(later.range.start).toBe('2030-01-04T12:01:01Z');
    } finally {
      t.clock.set(NOW);
    }
  });

  it('an explicit range stays cached until its first window starts, then is cut at now', async () => {
    const o = await owner([[4, '09:00', '17:00']]);
    const q = '?range=2030-01-11..2030-01-11'; // next Friday: 08:00–16:00Z
    expect(await windowsOf(o.username, q)).toEqual([{ start: '2030-01-11T08:00:00Z', end: '2030-01-11T16:00:00Z' }]);
    await sneakBusy(o.user.id, Date.parse('2030-01-11T12:00:00Z'), Date.parse('2030-01-11T13:00:00Z'));
    try {
      t.clock.set(Date.parse('2030-01-11T07:00:00Z')); // later, but before the first window: still valid (cached)
      expect(await windowsOf(o.username, q)).toEqual([{ start: '2030-01-11T08:00:00Z', end: '2030-01-11T16:00:00Z' }]);
      t.clock.set(Date.parse('2030-01-11T08:30:00Z')); // the first window has begun: recomputed, cut at now
      expect(await windowsOf(o.username, q)).toEqual([
        { start: '2030-01-11T08:30:00Z', end: '2030-01-11T12:00:00Z' },
        { start: '2030-01-11T13:00:00Z', end: '2030-01-11T16:00:00Z' },
      ]);
    } finally {
      t.clock.set(NOW);
    }
  });

  it('answerStillValid / secondBucket', () => {
    expect(secondBucket(5000)).not.toBe(secondBucket(5001));
    expect(secondBucket(5001)).toBe(secondBucket(5999));
    expect(secondBucket(5999)).not.toBe(secondBucket(6000));
    const e = { body: Buffer.from('{}'), computedAt: 10_500, firstWindowStart: 20_000, fixedRange: true };
    expect(answerStillValid(e, 10_900)).toBe(true);
    expect(answerStillValid(e, 20_000)).toBe(true);
    expect(answerStillValid(e, 20_001)).toBe(false);
    expect(answerStillValid(e, 10_000)).toBe(false); // the clock went back: not this bucket, before computedAt
    expect(answerStillValid({ ...e, fixedRange: false }, 11_000)).toBe(false);
    expect(answerStillValid({ ...e, fixedRange: false }, 10_999)).toBe(true);
  });
});

describe('busy-interval query: lower bound', () => {
  it('reads from start − the longest interval, sorted, and still sees a long interval', async () => {
    const o = await owner();
    const start = Date.parse(`${MON}T00:00:00Z`);
    await sneakBusy(o.user.id, start - 10 * 24 * H, start - 9 * 24 * H); // long past: never needed
    await sneakBusy(o.user.id, start + 9 * H, start + 10 * H);
    await sneakBusy(o.user.id, start - 3 * 24 * H, start + 9 * H + 30 * 60_000); // 3.4 days, into Monday
    await sneakBusy(o.user.id, start + 2 * H, start + 3 * H);
    const span = await busyMaxSpan(t.db, o.user.id);
    expect(span).toBe(3 * 24 * H + 9 * H + 30 * 60_000);
    const rows = (await busyOverlapping(t.db, o.user.id, start, start + 24 * H, span)).map((r) => [Number(r.start), Number(r.end)]);
    expect(rows).toEqual([
      [start - 3 * 24 * H, start + 9 * H + 30 * 60_000],
      [start + 2 * H, start + 3 * H],
      [start + 9 * H, start + 10 * H],
    ]);
    // A smaller bound really cuts (the bound is applied in SQL).
    expect(await busyOverlapping(t.db, o.user.id, start, start + 24 * H, H)).toHaveLength(2);
    publicCacheFor(t.db).invalidate(o.user.id);
    const w = await ownerFreeWindows(t.deps, { id: o.user.id, timezone: 'Europe/Brussels' }, start, start + 24 * H);
    expect(w).toEqual([{ start: start + 10 * H, end: start + 16 * H }]);
  });
});

describe('page views: batched, once per visitor per owner day', () => {
  it('keeps new views in memory, drops repeats, writes them in one flush', async () => {
    const o = await owner();
    const rec = new PageViewRecorder(t.db, 60_000);
    const row = (visitor: string, day = '2030-01-04') => ({ user_id: o.user.id, day, visitor_hash: visitor.padEnd(64, '0'), created_at: NOW });
    await rec.record(row('a'));
    await rec.record(row('a'));
    await rec.record(row('b'));
    await rec.record(row('a', '2030-01-05'));
    expect(rec.pendingCount).toBe(3);
    const count = async () => (await t.db.selectFrom('page_views').selectAll().where('user_id', '=', o.user.id).execute()).length;
    expect(await count()).toBe(0);
    await rec.flush();
    expect(rec.pendingCount).toBe(0);
    expect(await count()).toBe(3);
    await rec.record(row('b'));
    expect(rec.pendingCount).toBe(0);
    // Another recorder (another instance) writing the same view: the unique key keeps one row.
    const other = new PageViewRecorder(t.db, 0);
    await other.record(row('b'));
    expect(await count()).toBe(3);
  });

  it("a row that cannot be stored (its owner's account was deleted) costs only that row, not the batch", async () => {
    const kept = await owner();
    const rec = new PageViewRecorder(t.db, 60_000);
    const row = (userId: string, visitor: string) => ({ user_id: userId, day: '2030-01-06', visitor_hash: visitor.padEnd(64, '0'), created_at: NOW });
    await rec.record(row(kept.user.id, 'c'));
    await rec.record(row(crypto.randomUUID(), 'd')); // no such user: the foreign key refuses it
    await rec.record(row(kept.user.id, 'e'));
    await rec.flush();
    const rows = await t.db.selectFrom('page_views').select('visitor_hash').where('user_id', '=', kept.user.id).where('day', '=', '2030-01-06').execute();
    expect(rows.map((r) => r.visitor_hash[0]).sort()).toEqual(['c', 'e']);
  });

  it('through the API with batching on: analytics flush first, so counts are right', async () => {
    const b = await createTestApp({ env: { PAGE_VIEW_FLUSH_MS: '60000' } });
    try {
      b.clock.set(NOW);
      const o = await buildUser(b, { username: `pv${Math.random().toString(36).slice(2, 8)}`, timezone: 'Europe/Brussels' });
      const slug = o.user.username!;
      for (const ua of ['Firefox', 'Firefox', 'Safari', 'Firefox']) await request(b.app).get(`/api/public/${slug}/availability`).set('User-Agent', ua).expect(200);
      expect(pageViewsFor(b.db, 0).pendingCount).toBe(2);
      expect(await b.db.selectFrom('page_views').selectAll().where('user_id', '=', o.user.id).execute()).toHaveLength(0);
      const a = await request(b.app).get('/api/me/analytics/links?days=7').set(o.auth);
      expect(a.status).toBe(200);
      expect(a.body.total).toBe(2);
      expect(await b.db.selectFrom('page_views').selectAll().where('user_id', '=', o.user.id).execute()).toHaveLength(2);
      // Shutdown flushes what is pending (test-app close → closePageViews).
      await request(b.app).get(`/api/public/${slug}/availability`).set('User-Agent', 'Chrome').expect(200);
      expect(pageViewsFor(b.db, 0).pendingCount).toBe(1);
      await flushPageViews(b.db);
      expect(await b.db.selectFrom('page_views').selectAll().where('user_id', '=', o.user.id).execute()).toHaveLength(3);
    } finally {
      await b.close();
    }
  });
});
