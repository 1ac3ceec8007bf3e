/**
 * P6 (issue 13): backup syncs of many connections by two server instances on one PostgreSQL
 * database, with the jobs on pg-boss. N connections (default 10,000; `BENCH_P6_CONNECTIONS`), each
 * an ICS feed on a local HTTP server that counts requests, all due at once; two real server
 * processes (`server/src/main.ts`, BACKUP_SYNC_TICK_MS=1000, SYNC_WORKERS default) share the work.
 *
 * Measured: wall time until every connection has synced once; fetches per feed (min/max: the claim
 * must make it exactly 1); CPU seconds and peak RSS of the two servers (/proc). Reported against
 * the 15-minute window (time / 900 s ≤ 1 means 10,000 connections fit in one backup window) and
 * against a baseline measured in the same run: the same N feeds fetched by plain `fetch` from one
 * process at the same total concurrency (the I/O floor, no parsing or storing).
 * Needs PostgreSQL at `BENCH_POSTGRES_URL` (default postgres://postgres@127.0.0.1:5432/test);
 * without it the step says so and is skipped.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createDb } from '../../server/src/db/kysely.ts';
import { migrateToLatest } from '../../server/src/db/migrate.ts';
import { lastBackupTime } from '../../server/src/jobs/backup-sync.job.ts';
import { seedIcsConnections } from '../../server/test/factories.ts';
import { freePort, round, stopChild, waitForOk, type Log } from './util.ts';

const WINDOW_S = 15 * 60;
const SYNC_WORKERS = 4;

const feedText = (i: number) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//bench//EN', 'BEGIN:VEVENT', `UID:p6-${i}@bench`, 'DTSTAMP:20300101T000000Z', 'DTSTART:20300107T090000Z', 'DTEND:20300107T100000Z', 'SUMMARY:Busy', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');

/** CPU seconds (user + system) and RSS (MB) of a process, from /proc. */
function procUsage(pid: number): { cpuS: number; rssMb: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (clock ticks, 100/s on Linux)
    const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return { cpuS: ticks / 100, rssMb: rss ? Number(rss[1]) / 1024 : 0 };
  } catch {
    return null;
  }
}

export async function runSyncScaleBench(root: string, log: Log): Promise<Record<string, unknown>> {
  const n = Number(process.env.BENCH_P6_CONNECTIONS ?? 10_000);
  const pgUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const admin = new pg.Client({ connectionString: pgUrl });
  try {
    await admin.connect();
  } catch {
    log(`  P6 skipped: no PostgreSQL at ${pgUrl}`);
    return { skipped: `no PostgreSQL at ${pgUrl}` };
  }
  const schema = `bench_p6_${Date.now().toString(36)}`;
  await admin.query(`CREATE SCHEMA ${schema}`);
  const dir = mkdtempSync(path.join(tmpdir(), 'avail-p6-'));
  const key = randomBytes(32);
  const fetches = new Map<string, number>();
  /** Wall-clock instants (UTC ms) of each feed's fetches. */
  const fetchedAt = new Map<string, number[]>();
  const feeds = http.createServer((req, res) => {
    fetches.set(req.url!, (fetches.get(req.url!) ?? 0) + 1);
    const at = fetchedAt.get(req.url!) ?? [];
    at.push(Date.now());
    fetchedAt.set(req.url!, at);
    const i = Number(/\/f\/(\d+)\.ics/.exec(req.url ?? '')?.[1] ?? -1);
    res.writeHead(i >= 0 ? 200 : 404, { 'content-type': 'text/calendar', etag: `"p6-${i}"` });
    res.end(i >= 0 ? feedText(i) : '');
  });
  await new Promise<void>((r) => feeds.listen(0, '127.0.0.1', () => r()));
  const feedPort = (feeds.address() as { port: number }).port;
  const urlOf = (i: number) => `http://127.0.0.1:${feedPort}/f/${i}.ics`;
  const children: ChildProcess[] = [];
  /** Connection id of feed i. */
  const connectionOf: string[] = [];
  try {
    // ── seed N owners, each with one ICS connection never synced (stored as the app stores them) ──
    const db = createDb({ DATABASE_URL: pgUrl, SQLITE_PATH: '' }, { pgSchema: schema });
    await migrateToLatest(db);
    const seedStart = performance.now();
    connectionOf.push(...(await seedIcsConnections(db, key, n, urlOf)));
    log(`  P6: ${n} owners and ICS connections seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s (schema ${schema})`);

    // ── baseline: the same N feeds fetched by plain fetch, same total concurrency ──
    const baseStart = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 2 * SYNC_WORKERS }, async () => {
        while (next < n) {
          const i = next++;
          await (await fetch(urlOf(i))).text();
        }
      }),
    );
    const baselineS = (performance.now() - baseStart) / 1000;
    fetches.clear();
    fetchedAt.clear();
    log(`  P6 baseline: ${n} feeds fetched in ${baselineS.toFixed(1)} s (plain fetch, ${2 * SYNC_WORKERS} at once)`);

    // ── two server instances ──
    const ports = [await freePort(), await freePort()];
    for (const port of ports) {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/src/main.ts')], {
        cwd: root,
        env: {
          ...process.env,
          PORT: String(port),
          DATA_DIR: path.join(dir, String(port)),
          DATABASE_URL: `${pgUrl}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
          AVAIL_SECRET_KEY: key.toString('hex'),
          ALLOW_PRIVATE_CALENDAR_HOSTS: 'true',
          BACKUP_SYNC_TICK_MS: '1000',
          SYNC_WORKERS: String(SYNC_WORKERS),
          LOG_LEVEL: 'warn',
          LOG_FORMAT: 'json',
          WEB_DIST_DIR: path.join(dir, 'no-web'),
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      children.push(child);
    }
    await Promise.all(ports.map((p) => waitForOk(`http://127.0.0.1:${p}/api/ready`, 120_000)));
    const start = performance.now();
    const cpu0 = children.map((c) => procUsage(c.pid!)?.cpuS ?? 0);
    let rssMax = 0;
    let synced = 0;
    const deadline = start + WINDOW_S * 1000;
    while (performance.now() < deadline) {
      for (const c of children) rssMax = Math.max(rssMax, procUsage(c.pid!)?.rssMb ?? 0);
      const { rows } = await admin.query(`select count(*)::int as n from ${schema}.calendar_connections where last_synced_at is not null`);
      synced = rows[0].n;
      if (synced >= n) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const elapsedS = (performance.now() - start) / 1000;
    const cpuS = children.reduce((s, c, k) => s + ((procUsage(c.pid!)?.cpuS ?? 0) - cpu0[k]!), 0);
    // A few more ticks on both instances: nothing may be fetched again in this window.
    await new Promise((r) => setTimeout(r, 3_000));
    const counts = [...fetches.values()];
    // A second fetch is right when the connection's next 15-minute window began in between (its
    // own minute came up during the run); one inside the same window would be a double claim.
    let sameWindow = 0;
    let nextWindow = 0;
    for (let i = 0; i < n; i++) {
      const at = fetchedAt.get(`/f/${i}.ics`) ?? [];
      for (let k = 1; k < at.length; k++) {
        if (lastBackupTime(connectionOf[i]!, at[k]!) > at[k - 1]!) nextWindow++;
        else sameWindow++;
      }
    }
    const failed = (await admin.query(`select count(*)::int as n from ${schema}.calendar_connections where status <> 'active'`)).rows[0].n;
    const result = {
      connections: n,
      instances: 2,
      sync_workers_per_instance: SYNC_WORKERS,
      synced,
      failed,
      seconds_to_sync_all: round(elapsedS, 1),
      syncs_per_s: round(synced / elapsedS, 1),
      window_ratio: round(elapsedS / WINDOW_S, 3),
      baseline_fetch_s: round(baselineS, 1),
      ratio_vs_plain_fetch: round(elapsedS / baselineS, 1),
      fetches_per_feed_min: counts.length ? Math.min(...counts) : 0,
      fetches_per_feed_max: counts.length ? Math.max(...counts) : 0,
      feeds_fetched: counts.length,
      second_fetches_same_window: sameWindow,
      second_fetches_next_window: nextWindow,
      server_cpu_s: round(cpuS, 1),
      server_cpu_ms_per_sync: round((cpuS * 1000) / Math.max(1, synced), 2),
      server_rss_max_mb: round(rssMax, 1),
    };
    log(
      `  P6: ${synced}/${n} synced in ${elapsedS.toFixed(1)} s by 2 instances (${result.syncs_per_s}/s; window ratio ${result.window_ratio}), fetches per feed ${result.fetches_per_feed_min}–${result.fetches_per_feed_max} (again in the same window: ${sameWindow}; in the connection's next window: ${nextWindow}), CPU ${result.server_cpu_s} s, RSS ≤ ${result.server_rss_max_mb} MB`,
    );
    await db.destroy();
    return result;
  } finally {
    await Promise.all(children.map((c) => stopChild(c)));
    await new Promise<void>((r) => feeds.close(() => r()));
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
    await admin.query(`DROP SCHEMA IF EXISTS ${schema}_pgboss CASCADE`).catch(() => undefined);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  }
}
