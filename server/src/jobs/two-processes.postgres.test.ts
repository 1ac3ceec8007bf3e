/**
 * Real server processes (`server/src/main.ts`) on one PostgreSQL database, jobs on pg-boss:
 * - two instances, 200 connections never synced, one backup window → every feed fetched once
 *   (a second fetch only once the connection's own next window has begun);
 * - an instance SIGKILLed in the middle of a sync → another instance takes the job over after the
 *   lease (SYNC_LEASE_MS) and the connection ends synced, once.
 * PostgreSQL only (`*.postgres.test.ts` runs when TEST_POSTGRES_URL is set).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedIcsConnections } from '../../test/factories.ts';
import { startIcsServer, type IcsServer } from '../../test/ics-server.ts';
import { waitFor } from '../../test/replication/rx-device.ts';
import { freePort, serverProcess, type ServerProcess } from '../../test/server-process.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { lastBackupTime } from './backup-sync.job.ts';

/** An event a week from now (inside the sync horizon), 09:00–10:00 UTC. */
const EVENT_START = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 7, 9);
const ical = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
const feed = (i: number) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//t//EN', 'BEGIN:VEVENT', `UID:p-${i}@test`, 'DTSTAMP:20300101T000000Z', `DTSTART:${ical(EVENT_START)}`, `DTEND:${ical(EVENT_START + 3_600_000)}`, 'SUMMARY:x', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');

describe('server processes on one PostgreSQL database', () => {
  let testDb: TestDb;
  let srv: IcsServer;
  const key = randomBytes(32);
  const running: ServerProcess[] = [];
  const start = async (env: Record<string, string>) => {
    const p = serverProcess(testDb, await freePort(), key.toString('hex'), { ALLOW_PRIVATE_CALENDAR_HOSTS: 'true', ...env });
    running.push(p);
    await p.start();
    return p;
  };
  beforeAll(async () => {
    testDb = await createTestDb();
    srv = await startIcsServer();
  });
  afterAll(async () => {
    await Promise.all(running.map((p) => p.kill()));
    await srv?.close();
    await testDb?.destroy();
  });

  it('two instances, 200 connections: each feed fetched once in its window, with the work shared', async () => {
    const n = 200;
    for (let i = 0; i < n; i++) srv.set(`/two/${i}.ics`, { ics: feed(i) });
    const ids = await seedIcsConnections(testDb.db, key, n, (i) => srv.url(`/two/${i}.ics`));
    const before = srv.requests.length;
    const [a, b] = [await start({ BACKUP_SYNC_TICK_MS: '500' }), await start({ BACKUP_SYNC_TICK_MS: '500' })];
    await waitFor(
      async () => Number((await sql<{ n: number }>`select count(*) as n from calendar_connections where last_synced_at is null`.execute(testDb.db)).rows[0]!.n) === 0,
      60_000,
      'all connections synced',
    );
    await new Promise((r) => setTimeout(r, 2_500)); // 5 more ticks on each instance
    const at = new Map<string, number[]>();
    for (const r of srv.requests.slice(before)) at.set(r.path, [...(at.get(r.path) ?? []), r.at]);
    expect(at.size).toBe(n);
    let sameWindow = 0;
    for (let i = 0; i < n; i++) {
      const times = at.get(`/two/${i}.ics`)!;
      for (let k = 1; k < times.length; k++) if (lastBackupTime(ids[i]!, times[k]!) <= times[k - 1]!) sameWindow++;
    }
    expect(sameWindow).toBe(0);
    const failed = await testDb.db.selectFrom('calendar_connections').select('id').where('status', '<>', 'active').execute();
    expect(failed).toEqual([]);
    await Promise.all([a.kill(), b.kill()]);
  });

  it('an instance killed in the middle of a sync: the job is taken over after the lease and the connection syncs once', async () => {
    srv.set('/slow.ics', { ics: feed(9_999), delayMs: 4_000 });
    const [id] = await seedIcsConnections(testDb.db, key, 1, () => srv.url('/slow.ics'));
    const fetchesOf = () => srv.requests.filter((r) => r.path === '/slow.ics').length;
    const a = await start({ BACKUP_SYNC_TICK_MS: '500', SYNC_LEASE_MS: '2000' });
    await waitFor(() => fetchesOf() === 1, 20_000, 'the first instance fetches the feed');
    await a.kill(); // SIGKILL while its sync waits for the feed
    srv.set('/slow.ics', { ics: feed(9_999) }); // the feed answers at once from now on
    expect((await testDb.db.selectFrom('calendar_connections').select('last_synced_at').where('id', '=', id!).executeTakeFirstOrThrow()).last_synced_at).toBeNull();

    await start({ BACKUP_SYNC_TICK_MS: '500', SYNC_LEASE_MS: '2000' });
    await waitFor(
      async () => (await testDb.db.selectFrom('calendar_connections').select('last_synced_at').where('id', '=', id!).executeTakeFirstOrThrow()).last_synced_at != null,
      30_000,
      'the other instance syncs it',
    );
    const busy = await testDb.db.selectFrom('busy_intervals').select('start_ms').where('connection_id', '=', id!).execute();
    expect(busy.map((r) => Number(r.start_ms))).toEqual([EVENT_START]);
    // Fetched twice: the killed attempt (never stored) and the one that completed; then no more in this window.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(fetchesOf()).toBe(2);
    // The killed instance's job was picked up again and completed (pg-boss: expired → retry → completed).
    const jobsSchema = `${testDb.location}_pgboss`;
    await waitFor(
      async () => {
        const { rows } = await sql<{ state: string }>`select state from ${sql.table(`${jobsSchema}.job`)} where name = 'sync-connection' and data->>'connectionId' = ${id!}`.execute(testDb.db);
        return rows.length > 0 && rows.every((r) => r.state === 'completed');
      },
      30_000,
      'every sync job of the connection completed',
    );
  });
});
