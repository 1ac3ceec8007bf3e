/**
 * Issue 11, "Isolation" and "Budgets per connection": every hostile feed is generated here,
 * served by a local HTTP server and connected through the real API. Asserted for each: what the
 * owner reads (the answer, status, last_error), the stored rows stay within the caps, a previous
 * good state is kept on refusal, and visitors are served meanwhile (their requests all complete
 * and the event loop is never blocked for long — bounds, not wall times).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CONNECTION_BUSY_INTERVALS, MAX_CONNECTION_EVENTS } from '@avail/shared/constants.ts';
import { buildUser, type BuiltUser } from '../../../test/factories.ts';
import { HOSTILE_FEEDS, icsUtc } from '../../../test/hostile-feeds.ts';
import { startIcsServer, type IcsServer } from '../../../test/ics-server.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { configureDerivePool } from './derive-pool.ts';
import { reportReliability } from '../../../test/reliability/reliability-report.ts';

const NOW = Date.parse('2030-01-06T12:00:00Z');
/**
 * Longest the event loop may be blocked while a hostile feed syncs (ms). On the request thread
 * these feeds blocked it for 1.4 s (100k EXDATEs), 3 s (33k events) and minutes (MINUTELY); off
 * it, what is left is the fetch, copies to the worker and the write (tens of ms on a quiet
 * machine; 40–410 ms measured for this file alone at load 11 on 2 cores, 1.1 s once inside
 * the whole suite at load 15, where the scheduler and this process's own garbage collection hold
 * the thread). The bound is set for such a shared machine: it fails the minutes-long and 3 s
 * stalls of the old behaviour, not every slow tick of a busy CI box.
 */
const MAX_LOOP_BLOCK_MS = 1_500;
/**
 * The derive worker runs at nice SYNC_WORKER_NICE (19) so visitors go first; where both cores are
 * busy with nice-0 work (the other Vitest fork, or anything else on a shared CI box) it gets a
 * sliver of the CPU. Measured for the 33k-events feed: 0.98 s on an idle machine, 28.8 s with
 * three nice-0 busy loops on 2 cores — right at the product's 30 s wall-clock limit
 * (SYNC_DERIVE_TIMEOUT_MS), which then refused the feed for its time instead of its budget.
 * These tests assert budgets and isolation, not time: the derivation gets this long here.
 */
const LOADED_BOX_DERIVE_TIMEOUT_MS = 150_000;
/** Per test: two derivations of a hostile feed on such a box, plus the visitors (ms). */
const HOSTILE_TEST_TIMEOUT_MS = 2 * LOADED_BOX_DERIVE_TIMEOUT_MS + 60_000;
const VISITORS = 6;

function goodFeed(): string {
  const s = NOW + 86_400_000;
  return [
    'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//avail-test//EN',
    'BEGIN:VEVENT', 'UID:good@test', 'DTSTAMP:20300101T000000Z', `DTSTART:${icsUtc(s)}`, `DTEND:${icsUtc(s + 3_600_000)}`, 'SUMMARY:Good', 'END:VEVENT',
    'END:VCALENDAR', '',
  ].join('\r\n');
}

async function rowsOf(t: TestApp, userId: string) {
  const count = async (table: 'calendar_events' | 'busy_intervals' | 'calendar_connections') =>
    Number((await t.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow()).n);
  const busy = await t.db.selectFrom('busy_intervals').select(['start_ms', 'end_ms']).where('user_id', '=', userId).orderBy('start_ms').execute();
  return { events: await count('calendar_events'), intervals: await count('busy_intervals'), connections: await count('calendar_connections'), busy: busy.map((b) => [Number(b.start_ms), Number(b.end_ms)]) };
}

/**
 * Runs `work` while VISITORS public availability requests are made and the event loop's delay
 * is sampled; returns the work's result, the visitors' statuses and the longest block (ms).
 */
async function whileVisitorsCome<T>(t: TestApp, slug: string, work: () => PromiseLike<T>) {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  try {
    const job = Promise.resolve(work());
    const statuses: number[] = [];
    let finished = false;
    void job.finally(() => {
      finished = true;
    });
    // visitors keep coming while the sync runs (at least VISITORS of them)
    const visitor = async () => {
      const r = await request(t.app).get(`/api/public/${slug}/availability`);
      statuses.push(r.status);
    };
    await Promise.all(Array.from({ length: VISITORS }, visitor));
    while (!finished && statuses.length < 40) await visitor();
    const result = await job;
    return { result, statuses, maxBlockMs: h.max / 1e6 };
  } finally {
    h.disable();
  }
}

describe('hostile feeds: sync off the request thread, budgets per connection', () => {
  let t: TestApp;
  let srv: IcsServer;

  beforeAll(async () => {
    srv = await startIcsServer();
    t = await createTestApp({
      env: { ALLOW_PRIVATE_CALENDAR_HOSTS: 'true' },
      rateLimits: { publicPerIp: { windowMs: 60_000, limit: 1_000_000 } },
    });
    t.clock.set(NOW);
    await configureDerivePool({ timeoutMs: LOADED_BOX_DERIVE_TIMEOUT_MS });
  });
  afterAll(async () => {
    await t?.close();
    await srv?.close();
  });

  for (const hostile of HOSTILE_FEEDS) {
    it(`${hostile.name}: ${hostile.expect === 'refused' ? 'refused with a clear error, last good data kept' : 'imported within the caps'}; visitors served`, async () => {
      const slug = `h${Math.random().toString(36).slice(2, 10)}`;
      const owner: BuiltUser = await buildUser(t, { timezone: 'Europe/Brussels', username: slug });
      const path = `/hostile-${owner.user.id}.ics`;
      const bytes = hostile.build(NOW);

      // 1. A first connect of the hostile feed (the one that froze the server for minutes).
      srv.set(`${path}.new`, { ics: bytes.ics, body: bytes.body, headers: bytes.headers });
      const connect = await whileVisitorsCome(t, slug, () =>
        request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: srv.url(`${path}.new`) }),
      );
      expect(connect.statuses.every((s) => s === 200)).toBe(true);
      expect(connect.statuses.length).toBeGreaterThanOrEqual(VISITORS);
      expect(connect.maxBlockMs).toBeLessThan(MAX_LOOP_BLOCK_MS);
      const afterConnect = await rowsOf(t, owner.user.id);
      expect(afterConnect.events).toBeLessThanOrEqual(MAX_CONNECTION_EVENTS);
      expect(afterConnect.intervals).toBeLessThanOrEqual(MAX_CONNECTION_BUSY_INTERVALS);
      if (hostile.expect === 'refused') {
        expect(connect.result.status).toBe(400);
        expect(connect.result.body.error).toMatch(hostile.error!);
        expect(afterConnect).toMatchObject({ connections: 0, events: 0, intervals: 0 });
      } else {
        expect(connect.result.status).toBe(201);
        expect(connect.result.body.connection).toMatchObject({ status: 'active', last_error: null });
        expect(afterConnect.events).toBeGreaterThan(0);
        await request(t.app).delete(`/api/me/calendar/connections/${connect.result.body.connection.id}`).set(owner.auth).expect(200);
      }

      // 2. A good feed, then it turns hostile: Sync Now through the API.
      srv.set(path, { ics: goodFeed() });
      const good = await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: srv.url(path) }).expect(201);
      const before = await rowsOf(t, owner.user.id);
      expect(before.busy).toHaveLength(1);
      srv.set(path, { ics: bytes.ics, body: bytes.body, headers: bytes.headers });
      const sync = await whileVisitorsCome(t, slug, () => request(t.app).post('/api/me/calendar/sync').set(owner.auth));
      expect(sync.statuses.every((s) => s === 200)).toBe(true);
      expect(sync.maxBlockMs).toBeLessThan(MAX_LOOP_BLOCK_MS);
      expect(sync.result.status).toBe(200);
      const conn = sync.result.body.connections.find((c: { id: string }) => c.id === good.body.connection.id);
      const after = await rowsOf(t, owner.user.id);
      expect(after.events).toBeLessThanOrEqual(MAX_CONNECTION_EVENTS);
      expect(after.intervals).toBeLessThanOrEqual(MAX_CONNECTION_BUSY_INTERVALS);
      reportReliability({
        check: `hostile feed: ${hostile.name}`,
        requests: 3 + connect.statuses.length + sync.statuses.length,
        trials: 2, // a first connect, and a good feed turning hostile
        failures: [...connect.statuses, ...sync.statuses].filter((s) => s !== 200).length,
      });
      if (hostile.expect === 'refused') {
        expect(conn).toMatchObject({ status: 'error' });
        expect(conn.last_error).toMatch(hostile.error!);
        expect(after).toEqual(before); // never a half-written state: the last good rows stay
      } else {
        expect(conn).toMatchObject({ status: 'active', last_error: null });
        expect(after.events).toBeGreaterThan(1);
      }
    }, HOSTILE_TEST_TIMEOUT_MS);
  }
});
