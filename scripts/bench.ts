/**
 * `npm run bench`: speed targets of the core, measured (never asserted in timed tests).
 * Writes `bench-results.json` at the repository root and prints a summary.
 *
 * Measures:
 *  - engine: parse + expand + free windows per conformance case (warm, mean over rounds);
 *  - engine: 93 days of windows for an owner with 500 busy intervals;
 *  - sync: ICS feed with 300 single events + 20 weekly series → stored busy intervals;
 *  - public API: latency of GET /api/public/{slug}/availability over real HTTP (SQLite) for that
 *    owner, 4-week range, p50 / p95 / max over 300 requests, and process RSS;
 *  - replication (RxDB with the Dexie storage on fake-indexeddb, real server over HTTP): initial
 *    pull of 10,000 documents to a new device; time from reconnecting after an offline edit to the
 *    edit being stored on the server;
 *  - web bundle: gzip size of the chunks that carry RxDB/Dexie (from web/dist; run `npm run build`
 *    first) and whether the public page's chunks include any of it.
 */
import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { computeFreeWindows, validateOwnerSchedule } from '@avail/shared/domain/free-windows.ts';
import { resolveRangeObject } from '@avail/shared/domain/public-range.ts';
import { icsToBusy } from '@avail/shared/ical/index.ts';
import { createTestApp } from '../server/test/test-app.ts';
import { buildUser } from '../server/test/factories.ts';
import { startIcsServer } from '../server/test/ics-server.ts';
import { openDevice, waitFor } from '../server/test/replication/rx-device.ts';
import { replaceRulesLocal } from '@avail/shared/rx/local-writes.ts';
import { gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const referenceDir = path.resolve(root, '../shared/conformance/free-windows');
const conformanceDir = process.env.AVAIL_CONFORMANCE_DIR ?? (existsSync(referenceDir) ? referenceDir : path.join(root, 'shared/test/conformance/free-windows'));
const results: Record<string, unknown> = { date: new Date().toISOString(), node: process.version, cpus: (await import('node:os')).cpus().length };

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { n: s.length, mean_ms: +(s.reduce((a, b) => a + b, 0) / s.length).toFixed(3), p50_ms: +q(0.5).toFixed(3), p95_ms: +q(0.95).toFixed(3), max_ms: +s[s.length - 1].toFixed(3) };
}

// 1. Conformance cases through the engine.
if (existsSync(conformanceDir)) {
  const cases = readdirSync(conformanceDir).filter((d) => existsSync(path.join(conformanceDir, d, 'case.json')));
  const loaded = cases.map((d) => {
    const c = JSON.parse(readFileSync(path.join(conformanceDir, d, 'case.json'), 'utf8'));
    const ics = (c.ics as string[]).map((f) => (f.slice(0, 200).includes('BEGIN:VCALENDAR') ? f : readFileSync(path.join(conformanceDir, d, f), 'utf8')));
    return { c, ics };
  });
  const runAll = () => {
    for (const { c, ics } of loaded) {
      const now = Date.parse(c.now);
      try {
        validateOwnerSchedule(c.rules, c.exceptions);
      } catch {
        continue;
      }
      const r = resolveRangeObject(c.range, c.timezone, now);
      if (!r.ok) continue;
      const busy = ics.flatMap((text) => icsToBusy(text, { ownerZone: c.timezone, rangeStart: r.start, rangeEnd: r.end }).intervals);
      computeFreeWindows({ timezone: c.timezone, rules: c.rules, exceptions: c.exceptions, busy, rangeStart: r.start, rangeEnd: r.end, now });
    }
  };
  runAll();
  const rounds: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    runAll();
    rounds.push((performance.now() - t0) / loaded.length);
  }
  results.engine_conformance_per_case = { cases: loaded.length, ...stats(rounds) };
}

// 2. 93 days of windows, 500 busy intervals.
{
  const start = Date.parse('2026-03-01T00:00:00Z');
  const busy = Array.from({ length: 500 }, (_, i) => ({ start: start + i * 4.4 * 3_600_000, end: start + i * 4.4 * 3_600_000 + 45 * 60_000 }));
  const rules = [0, 1, 2, 3, 4].map((weekday) => ({ weekday, start_time_local: '09:00', end_time_local: '17:00' }));
  const samples: number[] = [];
  for (let i = 0; i < 300; i++) {
    const t0 = performance.now();
    computeFreeWindows({ timezone: 'Europe/Brussels', rules, exceptions: [], busy, rangeStart: start, rangeEnd: start + 93 * 86_400_000, now: start });
    samples.push(performance.now() - t0);
  }
  results.engine_93_days_500_busy = stats(samples.slice(20));
}

// 3 + 4. Sync an ICS feed, then the public API over real HTTP.
{
  // The public per-IP limit would answer 429 to one client's 330 requests: raise it for the measurement.
  const t = await createTestApp({ env: { ALLOW_PRIVATE_CALENDAR_HOSTS: 'true' }, rateLimits: { publicPerIp: { windowMs: 60_000, limit: 1_000_000 } } });
  const feed = await startIcsServer();
  const now = Date.now();
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Avail//bench//EN'];
  const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  for (let i = 0; i < 300; i++) {
    const s = now + (i - 20) * 7 * 3_600_000;
    lines.push('BEGIN:VEVENT', `UID:bench-${i}@avail`, `DTSTAMP:${stamp(now)}`, `DTSTART:${stamp(s)}`, `DTEND:${stamp(s + 3_600_000)}`, `SUMMARY:Private meeting ${i}`, 'END:VEVENT');
  }
  for (let i = 0; i < 20; i++) {
    lines.push('BEGIN:VEVENT', `UID:bench-series-${i}@avail`, `DTSTAMP:${stamp(now)}`, `DTSTART;TZID=Europe/Brussels:2024010${(i % 9) + 1}T${String(8 + (i % 9)).padStart(2, '0')}0000`, `DTEND;TZID=Europe/Brussels:2024010${(i % 9) + 1}T${String(8 + (i % 9)).padStart(2, '0')}3000`, 'RRULE:FREQ=WEEKLY', `SUMMARY:Series ${i}`, 'END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  feed.set('/bench.ics', { ics: lines.join('\r\n') + '\r\n' });
  const owner = await buildUser(t, { username: 'benchowner' });
  await request(t.app).post('/api/me/availability-rules').set(owner.auth).send({ rules: [0, 1, 2, 3, 4].map((weekday) => ({ weekday, start_time_local: '08:00', end_time_local: '18:00' })) });
  const t0 = performance.now();
  const connect = await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: feed.url('/bench.ics') });
  results.sync_ics_connect_ms = +(performance.now() - t0).toFixed(1);
  if (connect.status !== 201) throw new Error(`ICS connect failed: ${connect.status} ${JSON.stringify(connect.body)}`);
  const busyCount = await t.db.selectFrom('busy_intervals').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  results.sync_ics_busy_intervals = Number(busyCount.n);

  const server = t.app.listen(0);
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const samples: number[] = [];
  for (let i = 0; i < 330; i++) {
    const s = performance.now();
    const res = await fetch(`${base}/api/public/benchowner/availability?tz=America/New_York`);
    await res.json();
    if (res.status !== 200) throw new Error(`public API answered ${res.status}`);
    samples.push(performance.now() - s);
  }
  results.public_api_4_weeks = stats(samples.slice(30));
  results.rss_mb = Math.round(process.memoryUsage().rss / 1e6);
  server.close();
  await feed.close();
  await t.close();
}

// 5. Replication: initial pull of 10,000 documents; offline edit → server after reconnect.
{
  const t = await createTestApp();
  const server = t.app.listen(0);
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const owner = await buildUser(t);
  const now = Date.now();
  const connId = crypto.randomUUID();
  await t.db
    .insertInto('calendar_connections')
    .values({ id: connId, user_id: owner.user.id, provider: 'ics', name: 'Bench', status: 'active', account: null, connected_at: now, updated_at: now })
    .execute();
  const rows = Array.from({ length: 10_000 }, (_, i) => ({
    id: `bench-ev-${i}`, user_id: owner.user.id, connection_id: connId, uid: `bench-${i}@avail`, title: `Meeting ${i}`,
    start_ms: now + i * 3_600_000, end_ms: now + i * 3_600_000 + 1_800_000, all_day: 0, is_busy: 1, depends_on_owner_zone: 0, updated_at: now + i,
  }));
  for (let i = 0; i < rows.length; i += 500) await t.db.insertInto('calendar_events').values(rows.slice(i, i + 500)).execute();
  const pulls: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const d = await openDevice(base, owner.token);
    await d.replication.states.calendar_events.awaitInitialReplication();
    pulls.push(performance.now() - t0);
    const n = await d.db.calendar_events.count().exec();
    await d.close();
    if (n !== 10_000) throw new Error(`initial pull brought ${n} events`);
  }
  results.replication_initial_pull_10000_docs = stats(pulls);

  // In a browser RxDB retries a failed push on the window's 'online' event; in Node it waits
  // retryTime, so the number below is bounded by this retry time plus the real work.
  const retryTime = 250;
  const d = await openDevice(base, owner.token, { retryTime });
  await d.replication.awaitInSync();
  const arrivals: number[] = [];
  for (let i = 0; i < 10; i++) {
    d.setOffline(true);
    const end = `${String(12 + (i % 8)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`;
    await replaceRulesLocal(d.db, d.deviceId, [{ weekday: i % 7, start_time_local: '09:00', end_time_local: end }]);
    const t0 = performance.now();
    d.setOffline(false);
    await waitFor(async () => {
      const r = await t.db.selectFrom('availability_rules').select('end_time_local').where('user_id', '=', owner.user.id).where('is_deleted', '=', 0).execute();
      return r.length === 1 && r[0].end_time_local === end;
    }, 10_000, 'offline edit on the server');
    arrivals.push(performance.now() - t0);
    await d.replication.awaitInSync();
  }
  results.replication_offline_edit_to_server_after_reconnect = { retry_time_ms: retryTime, ...stats(arrivals) };
  await d.close();
  server.closeAllConnections();
  server.close();
  await t.close();
}

// 6. What the RxDB layer adds to the web bundle (gzip), and proof the public page does not load it.
{
  const assets = path.join(root, 'web/dist/assets');
  if (existsSync(assets)) {
    const files = readdirSync(assets).filter((f) => f.endsWith('.js'));
    const rx = files.filter((f) => /rxdb\.info|RxDB|Dexie/.test(readFileSync(path.join(assets, f), 'utf8')));
    const gz = (f: string) => gzipSync(readFileSync(path.join(assets, f))).length;
    results.web_rxdb_layer_gzip_kb = +(rx.reduce((a, f) => a + gz(f), 0) / 1024).toFixed(1);
    results.web_rxdb_chunks = rx;
  } else {
    results.web_rxdb_layer_gzip_kb = 'web/dist missing: run `npm run build` first';
  }
}

writeFileSync(path.join(root, 'bench-results.json'), JSON.stringify(results, null, 2) + '\n');
console.log(JSON.stringify(results, null, 2));
