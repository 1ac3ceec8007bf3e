/**
 * Two server instances on one PostgreSQL database, in one process (each with its own connection
 * pool, app, and job runner): one backup sync per connection per window, one push channel per
 * calendar when both run upkeep at once, one fetch when Sync Now reaches both at once, and rate
 * limits that count requests to either instance together. (server/test/multi-instance/ runs the
 * same with real server processes.) PostgreSQL only: `*.postgres.test.ts` runs when
 * TEST_POSTGRES_URL is set.
 */
import { sql } from 'kysely';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start as startGoogleFake, type GoogleCalendarFake } from '../../test/fakes/google-calendar-fake.ts';
import { buildUser } from '../../test/factories.ts';
import { startIcsServer, type IcsServer } from '../../test/ics-server.ts';
import { connectThroughConsent, listen, waitFor } from '../../test/oauth-kit.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createApp } from '../app.ts';
import { createDb, type Db } from '../db/kysely.ts';
import type { Deps } from '../http/deps.ts';
import { waitForSharedLimits } from '../http/rate-limit.ts';
import { renewPushChannels } from '../modules/oauth/push.service.ts';
import { scheduleSync } from '../modules/sync/sync-queue.ts';
import { startJobs } from './scheduler.ts';

const feed = (uid: string) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//t//EN', 'BEGIN:VEVENT', `UID:${uid}@test`, 'DTSTAMP:20300101T000000Z', 'DTSTART:20300107T090000Z', 'DTEND:20300107T100000Z', 'SUMMARY:x', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');

/** A second instance on `t`'s database: its own pool, same config and clock. */
function secondInstance(t: TestApp): { deps: Deps; db: Db } {
  const db = createDb({ DATABASE_URL: process.env.TEST_POSTGRES_URL!, SQLITE_PATH: '' }, { pgSchema: t.testDb.location });
  return { db, deps: { ...t.deps, db } };
}

describe('two instances on one PostgreSQL database', () => {
  let t: TestApp;
  let b: { deps: Deps; db: Db };
  let srv: IcsServer;
  beforeAll(async () => {
    srv = await startIcsServer();
    t = await createTestApp({ env: { ALLOW_PRIVATE_CALENDAR_HOSTS: 'true', BACKUP_SYNC_TICK_MS: '300', SYNC_WORKERS: '4' } });
    b = secondInstance(t);
  });
  afterAll(async () => {
    await b?.db.destroy();
    await t?.close();
    await srv?.close();
  });

  it('backup sync with pg-boss on both: each of 30 connections fetched exactly once in the window, not again on later ticks', async () => {
    const owner = await buildUser(t);
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      srv.set(`/b${i}.ics`, { ics: feed(`b${i}`) });
      const res = await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: srv.url(`/b${i}.ics`) }).expect(201);
      ids.push(res.body.connection.id);
    }
    // The window must not move during the test (a connection whose minute comes up would be due again, rightly).
    t.clock.set(Date.now());
    // Never synced: every connection is due at once.
    await t.db.updateTable('calendar_connections').set({ last_synced_at: null, sync_started_at: null }).where('id', 'in', ids).execute();
    const before = srv.requests.length;
    const fetchesOf = () => {
      const n = new Map<string, number>();
      for (const r of srv.requests.slice(before)) n.set(r.path, (n.get(r.path) ?? 0) + 1);
      return n;
    };
    const [jobsA, jobsB] = await Promise.all([startJobs(t.deps), startJobs(b.deps)]);
    try {
      await waitFor(async () => {
        const rows = await t.db.selectFrom('calendar_connections').select('id').where('id', 'in', ids).where('last_synced_at', 'is', null).execute();
        return rows.length === 0;
      }, 30_000);
      await new Promise((r) => setTimeout(r, 1_500)); // several more ticks on both instances
      const n = fetchesOf();
      expect(n.size).toBe(30);
      expect([...n.values()].every((c) => c === 1)).toBe(true);
      // Both instances took part (the queue is shared): each ran some of the syncs. Not asserted —
      // which instance claims a job is up to timing; exactly-once is the contract.
    } finally {
      await Promise.all([jobsA.stop(), jobsB.stop()]);
      t.clock.reset();
    }
  });

  it('webhook syncs go through the shared queue: a burst on both instances is one fetch; a back-off (Retry-After) is waited out', async () => {
    const owner = await buildUser(t);
    srv.set('/hook.ics', { ics: feed('hook') });
    const res = await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: srv.url('/hook.ics') }).expect(201);
    const id = res.body.connection.id as string;
    const fetches = () => srv.requests.filter((r) => r.path === '/hook.ics').length;
    const [jobsA, jobsB] = await Promise.all([startJobs(t.deps), startJobs(b.deps)]);
    try {
      const before = fetches();
      for (let i = 0; i < 3; i++) {
        scheduleSync(t.deps, id, 200);
        scheduleSync(b.deps, id, 200);
      }
      await waitFor(() => fetches() > before, 10_000);
      await new Promise((r) => setTimeout(r, 2_000)); // every queued request has run by now
      expect(fetches() - before).toBe(1);
      // The provider asked to wait (next_sync_at): the queued sync runs after it, not before.
      const until = Date.now() + 2_500;
      await t.db.updateTable('calendar_connections').set({ next_sync_at: until }).where('id', '=', id).execute();
      const mid = fetches();
      scheduleSync(b.deps, id, 0);
      await new Promise((r) => setTimeout(r, 1_500));
      expect(fetches()).toBe(mid);
      await waitFor(() => fetches() > mid, 10_000);
      expect(Date.now()).toBeGreaterThanOrEqual(until);
    } finally {
      await Promise.all([jobsA.stop(), jobsB.stop()]);
    }
  });

  it('Sync Now sent to both instances at the same moment fetches the calendar once', async () => {
    const owner = await buildUser(t);
    srv.set('/now.ics', { ics: feed('now'), delayMs: 150 });
    await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: srv.url('/now.ics') }).expect(201);
    const appB = createApp(b.deps);
    const before = srv.requests.filter((r) => r.path === '/now.ics').length;
    const [ra, rb] = await Promise.all([
      request(t.app).post('/api/me/calendar/sync').set(owner.auth),
      request(appB).post('/api/me/calendar/sync').set(owner.auth),
    ]);
    expect([ra.status, rb.status]).toEqual([200, 200]);
    expect(srv.requests.filter((r) => r.path === '/now.ics').length - before).toBe(1);
    // A later Sync Now (after that sync began) fetches again.
    await request(appB).post('/api/me/calendar/sync').set(owner.auth).expect(200);
    expect(srv.requests.filter((r) => r.path === '/now.ics').length - before).toBe(2);
  });

  it('a rate limit hit on one instance counts on the other (shared PostgreSQL store)', async () => {
    const limits = { proposalsPerIp: { windowMs: 60_000, limit: 3 } };
    const shared = (deps: Deps) => createApp({ ...deps, config: { ...deps.config, RATE_LIMIT_STORE: 'postgres' } }, { rateLimits: limits });
    const appA = shared(t.deps);
    const appB = shared(b.deps);
    await waitForSharedLimits(process.env.TEST_POSTGRES_URL!, 30_000);
    const hit = (app: typeof appA) => request(app).post('/api/public/nobody-here/proposals').send({}).then((r) => r.status);
    const statuses = [await hit(appA), await hit(appB), await hit(appA), await hit(appB), await hit(appA)];
    expect(statuses.slice(0, 3).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(3)).toEqual([429, 429]);
    // In memory (one process's counts) the fourth request, B's second, would have passed:
    const memA = createApp(t.deps, { rateLimits: limits });
    const memB = createApp(b.deps, { rateLimits: limits });
    const mem = [await hit(memA), await hit(memB), await hit(memA), await hit(memB)];
    expect(mem[3]).not.toBe(429);
  });

  it('the shared store keeps no e-mail address: login limits count under a keyed hash (issue 26: account deletion leaves no address behind)', async () => {
    const app = createApp({ ...t.deps, config: { ...t.deps.config, RATE_LIMIT_STORE: 'postgres' } });
    await waitForSharedLimits(process.env.TEST_POSTGRES_URL!, 30_000);
    const local = `rl-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    const address = `${local}@owner-mail.test`;
    await request(app).post('/api/auth/login').send({ email: address, password: 'wrong password 1' }).expect(401);
    await request(app).post('/api/auth/forgot-password').send({ email: address }).expect(200);
    const dump = JSON.stringify((await sql<{ r: unknown }>`select row_to_json(x) as r from rate_limit.records_aggregated x`.execute(t.db)).rows);
    expect(dump).toContain('|'); // the login limiter's ip|e-mail key is there…
    expect(dump).not.toContain(address); // …without the address
    expect(dump).not.toContain(local);
  });
});

describe('push-channel upkeep on two instances at once', () => {
  let fake: GoogleCalendarFake;
  let t: TestApp;
  let b: { deps: Deps; db: Db };
  let http: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    fake = await startGoogleFake({ autoApprove: true });
    t = await createTestApp({ env: { ...fake.env } });
    http = await listen(t);
    b = secondInstance(t);
  });
  afterAll(async () => {
    await b?.db.destroy();
    await http?.close();
    await t?.close();
    await fake?.close();
  });

  it('opens one channel per calendar between them (a unique claim per connection and calendar)', async () => {
    const owner = await buildUser(t);
    const { callback } = await connectThroughConsent(t, owner.auth, 'google');
    expect(callback.status).toBe(200);
    const conn = await t.db.selectFrom('calendar_connections').select('id').where('user_id', '=', owner.user.id).executeTakeFirstOrThrow();
    const calendars = (await t.db.selectFrom('push_channels').select('calendar_id').where('connection_id', '=', conn.id).execute()).length;
    expect(calendars).toBeGreaterThan(0);
    // Channels lost (e.g. deleted by hand): both instances' upkeep starts at the same moment.
    await t.db.deleteFrom('push_channels').where('connection_id', '=', conn.id).execute();
    const openedBefore = fake.channels.length;
    const [a, bb] = await Promise.all([renewPushChannels(t.deps), renewPushChannels(b.deps)]);
    expect(a.opened + bb.opened).toBe(calendars);
    expect(fake.channels.length - openedBefore).toBe(calendars);
    const rows = await t.db.selectFrom('push_channels').select(['calendar_id', 'opening_until']).where('connection_id', '=', conn.id).execute();
    expect(rows).toHaveLength(calendars);
    expect(rows.every((r) => r.opening_until === null)).toBe(true);
    // The index refuses a second row for one calendar, whatever the code does.
    await expect(
      sql`insert into push_channels (id, user_id, connection_id, provider, channel_id, calendar_id, token_hash, expires_at, created_at)
          values ('dup', ${owner.user.id}, ${conn.id}, 'google', 'dup-channel', ${rows[0]!.calendar_id}, 'x', 0, 0)`.execute(t.db),
    ).rejects.toThrow(/unique|duplicate/i);
  });
});
