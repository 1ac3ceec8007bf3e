import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../test/factories.ts';
import { startIcsServer, type IcsServer } from '../../test/ics-server.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { backupSyncJob } from './backup-sync.job.ts';
import { startJobs, startScheduler } from './scheduler.ts';

const feed = (start: string, end: string) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//t//EN', 'BEGIN:VEVENT', 'UID:x@test', 'DTSTAMP:20300101T000000Z', `DTSTART:${start}`, `DTEND:${end}`, 'SUMMARY:x', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('scheduler', () => {
  it('never overlaps runs of a job and stops cleanly', async () => {
    const t = await createTestApp();
    try {
      let active = 0;
      let maxActive = 0;
      let runs = 0;
      const scheduler = startScheduler(t.deps, [
        {
          name: 'slow',
          intervalMs: 20,
          async run() {
            runs++;
            active++;
            maxActive = Math.max(maxActive, active);
            await sleep(120);
            active--;
          },
        },
      ]);
      await sleep(400);
      await scheduler.stop();
      const after = runs;
      expect(after).toBeGreaterThanOrEqual(2);
      expect(after).toBeLessThanOrEqual(4); // 400 ms / 120 ms per run, ticks every 20 ms skipped meanwhile
      expect(maxActive).toBe(1);
      expect(active).toBe(0); // stop() waited for the running run
      await sleep(100);
      expect(runs).toBe(after);
    } finally {
      await t.close();
    }
  });
});

describe('backup sync job', () => {
  let t: TestApp;
  let srv: IcsServer;
  beforeAll(async () => {
    srv = await startIcsServer();
    t = await createTestApp({ env: { ALLOW_PRIVATE_CALENDAR_HOSTS: 'true' } });
    t.clock.set('2030-01-06T12:00:00Z');
  });
  afterAll(async () => {
    await t?.close();
    await srv?.close();
  });

  it('syncs active and errored connections in batches, skips expired ones, and counts', async () => {
    const owner = await buildUser(t);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      srv.set(`/j${i}.ics`, { ics: feed('20300107T090000Z', '20300107T100000Z') });
      const res = await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: srv.url(`/j${i}.ics`) }).expect(201);
      ids.push(res.body.connection.id);
    }
    await t.db.updateTable('calendar_connections').set({ status: 'expired' }).where('id', '=', ids[5]!).execute();
    await t.db.updateTable('calendar_connections').set({ status: 'error', last_error: 'old' }).where('id', '=', ids[6]!).execute();
    srv.set('/j0.ics', { ics: feed('20300107T120000Z', '20300107T130000Z') });
    srv.set('/j1.ics', { status: 500 });
    const before = srv.requests.length;
    t.clock.advance(15 * 60_000); // every connection's backup slot has come up once since it synced
    const counts = await backupSyncJob().run(t.deps, { isStopping: () => false });
    expect(counts).toEqual({ total: 6, synced: 1, unchanged: 4, failed: 1, skipped: 0, queued: 0 }); // j0 changed; j1 fails; j6 answers 304 and recovers
    const paths = srv.requests.slice(before).map((r) => r.path).sort();
    expect(paths).toEqual(['/j0.ics', '/j1.ics', '/j2.ics', '/j3.ics', '/j4.ics', '/j6.ics']);
    const rows = await t.db.selectFrom('calendar_connections').select(['id', 'status']).where('user_id', '=', owner.user.id).execute();
    const status = Object.fromEntries(rows.map((r) => [r.id, r.status]));
    expect(status[ids[1]!]).toBe('error');
    expect(status[ids[5]!]).toBe('expired');
    expect(status[ids[6]!]).toBe('active');
  });

  it('runs from startJobs on its interval and picks up a changed feed without user action', async () => {
    const owner = await buildUser(t);
    srv.set('/live.ics', { ics: feed('20300108T090000Z', '20300108T100000Z') });
    const res = await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: srv.url('/live.ics') }).expect(201);
    srv.set('/live.ics', { ics: feed('20300108T140000Z', '20300108T150000Z') });
    t.clock.advance(15 * 60_000); // its backup slot comes up
    const jobs = await startJobs(t.deps, { intervals: { 'backup-sync': 100 } });
    try {
      const deadline = Date.now() + 5_000;
      let start = 0;
      while (Date.now() < deadline) {
        const row = await t.db.selectFrom('busy_intervals').select('start_ms').where('connection_id', '=', res.body.connection.id).executeTakeFirst();
        start = Number(row?.start_ms);
        if (start === Date.parse('2030-01-08T14:00:00Z')) break;
        await sleep(50);
      }
      expect(new Date(start).toISOString()).toBe('2030-01-08T14:00:00.000Z');
    } finally {
      await jobs.stop();
    }
    const n = srv.requests.length;
    await sleep(300);
    expect(srv.requests.length).toBe(n);
  });
});
