/**
 * P2: the public availability API against a bare Express 5 app, each in its own process, driven
 * by the same load tool in a third process (wrk, from Debian: `apt-get install -y wrk`; without it
 * the step is skipped and says so), interleaved A/B, 3 rounds, medians. Compression on: every
 * request sends `Accept-Encoding: br, gzip` (Avail answers br from the public cache's coded bytes;
 * the bare app, default Express, answers identity).
 *
 * Avail runs as `node --import tsx server/src/main.ts` (the real entry: its config defaults,
 * request log at `info` to a file, per-IP limiter on, batched page views) on a SQLite file in a
 * temp DATA_DIR, seeded directly in the database: two owners (Europe/Brussels, Mon–Fri 09–17)
 * with 5 and 20 ICS connections, each calendar with ~1.5 busy intervals per day from 30 days back
 * to 400 days ahead (the sync horizon; so ~700 intervals fall in a 93-day range for 5 calendars).
 * The bare app answers `res.json(body)` with the very body Avail returned for that owner.
 *
 * Requests: `?range=TODAY..TODAY+92` (93 dates, the longest allowed), 32 connections, each
 * request from a new visitor: its own `X-Forwarded-For` (10.a.b.c, never repeated in the bench;
 * Avail trusts the loopback proxy), so the limiter (120/min per IP) counts every request and never
 * answers 429, and every request is a new page view.
 * Also measured: server CPU per request (ms, /proc/<pid>/stat), RSS after the runs, page views
 * written after a normal stop (SIGTERM flushes the batch).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { formatIsoDate, getIanaZone, instantToWall } from '@avail/shared/domain/zone-time.ts';
import { loadConfig } from '../../server/src/config.ts';
import { createDb, type Db } from '../../server/src/db/kysely.ts';
import { migrateToLatest } from '../../server/src/db/migrate.ts';
import { buildUser } from '../../server/test/factories.ts';
import { freePort, median, prng, round, stopChild, waitForOk, type Log } from './util.ts';


const DAY = 86_400_000;
const ROUNDS = 3;
const DURATION_S = Number(process.env.BENCH_P2_SECONDS ?? 5);
const WARMUP_S = 2;
const CONNECTIONS = 32;
/** Each wrk run starts its visitor addresses here × run number (2^20 apart): no address repeats across the bench's runs. */
const ADDRESSES_PER_RUN = 1 << 20;


/** wrk's Lua script: a new visitor address per request (X-Forwarded-For 10.a.b.c from a counter starting at the run's offset, argument 1), compression on, and one JSON line of results. */
const WRK_SCRIPT = `
local n = 0
local offset = 0
function init(args) offset = tonumber(args[1] or "0") end
function request()
  local k = (offset + n) % 16777216
  n = n + 1
  local ip = "10." .. math.floor(k / 65536) % 256 .. "." .. math.floor(k / 256) % 256 .. "." .. k % 256
  return wrk.format(nil, nil, { ["X-Forwarded-For"] = ip, ["Accept-Encoding"] = "br, gzip" })
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK_JSON {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"non2xx":%d,"errors":%d,"bytes":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), e.status, e.connect + e.read + e.write + e.timeout, summary.bytes))
end
`;

interface WrkResult {
  requests: number;
  duration_us: number;
  p50_us: number;
  p99_us: number;
  non2xx: number;
  errors: number;
  bytes: number;
}

/** The load generator: Debian's `wrk` package (a system binary, not an npm dependency; on PATH). */
const WRK_BIN = process.env.BENCH_WRK ?? 'wrk';

/** `wrk --version`'s first line, or null when wrk is not installed. */
function wrkVersion(): string | null {
  const r = spawnSync(WRK_BIN, ['--version'], { encoding: 'utf8' });
  if (r.error) return null;
  return (r.stdout + r.stderr).split('\n')[0].trim();
}

/** Runs wrk (its own process) against `url` with the script; resolves with its JSON line. */
function runWrk(url: string, seconds: number, script: string, offset: number): Promise<WrkResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(WRK_BIN, ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '--timeout', '10s', '-s', script, url, '--', String(offset)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const m = /WRK_JSON (\{.*\})/.exec(out);
      if (code !== 0 || !m) return reject(new Error(`wrk exited ${code}: ${out.slice(-500)}`));
      resolve(JSON.parse(m[1]) as WrkResult);
    });
  });
}

/** user + system CPU time of a process so far, ms (Linux /proc; 0 elsewhere). */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10; // USER_HZ = 100
  } catch {
    return 0;
  }
}

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

async function seed(db: Db, now: number) {
  const rnd = prng(7);
  const owners: Record<string, { calendars: number; id: string }> = {};
  for (const [username, calendars] of [['bench5', 5], ['bench20', 20]] as const) {
    const { user } = await buildUser({ db, now: () => now }, { username, name: `Bench Owner ${calendars}`, timezone: 'Europe/Brussels' });
    owners[username] = { calendars, id: user.id };
    await db
      .insertInto('availability_rules')
      .values([0, 1, 2, 3, 4].map((weekday) => ({ id: randomUUID(), user_id: user.id, weekday, start_time_local: '09:00', end_time_local: '17:00', created_at: now, updated_at: now })))
      .execute();
    for (let c = 0; c < calendars; c++) {
      const connection_id = randomUUID();
      await db
        .insertInto('calendar_connections')
        .values({ id: connection_id, user_id: user.id, provider: 'ics', name: `Calendar ${c}`, status: 'active', account: null, connected_at: now, updated_at: now, last_synced_at: now, next_sync_at: now + 30 * DAY })
        .execute();
      const rows = [];
      // ~1.5 intervals per day, 08:00–18:00 UTC, 15–120 minutes, -30 … +400 days.
      for (let d = -30; d < 400; d++) {
        const n = rnd() < 0.5 ? 1 : 2;
        for (let k = 0; k < n; k++) {
          const dayStart = Math.floor(now / DAY) * DAY + d * DAY;
          const start = dayStart + 8 * 3_600_000 + Math.floor(rnd() * 40) * 15 * 60_000;
          rows.push({ id: randomUUID(), user_id: user.id, connection_id, start_ms: start, end_ms: start + (1 + Math.floor(rnd() * 8)) * 15 * 60_000, depends_on_owner_zone: 0 });
        }
      }
      for (let i = 0; i < rows.length; i += 500) await db.insertInto('busy_intervals').values(rows.slice(i, i + 500)).execute();
    }
  }
  return owners;
}

function spawnNode(args: string[], env: Record<string, string>, logFile: string): ChildProcess {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = createWriteStream(logFile);
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  return child;
}



/**
 * Runs P2 (see the file comment). Returns `{ tool, query, …, '5_calendars': { bare, avail,
 * throughput_ratio, p99_ratio, cpu_ratio, avail_non2xx }, '20_calendars': … }` (rps: requests/s,
 * latencies ms), or `{ skipped }` when wrk is not installed.
 */
export async function runPublicApiBench(root: string, log: Log): Promise<Record<string, unknown>> {
  const wrk = wrkVersion();
  if (!wrk) {
    const skipped = 'wrk is not installed: P2 needs it as its load generator (apt-get install -y wrk)';
    log(`P2: ${skipped}`);
    return { skipped };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'avail-bench-'));
  const children: ChildProcess[] = [];
  try {
    const config = loadConfig({ DATA_DIR: dir, AVAIL_SECRET_KEY: randomBytes(32).toString('hex'), LOG_LEVEL: 'silent' }, dir);
    const db = createDb(config);
    await migrateToLatest(db);
    const now = Date.now();
    const owners = await seed(db, now);
    const today = formatIsoDate(instantToWall(getIanaZone('Europe/Brussels'), now));
    const last = formatIsoDate(instantToWall(getIanaZone('Europe/Brussels'), now) + 92 * DAY);
    const query = `?range=${today}..${last}`;
    const inRange: Record<string, number> = {};
    for (const [slug, o] of Object.entries(owners)) {
      const r = await db
        .selectFrom('busy_intervals')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('user_id', '=', o.id)
        .where('start_ms', '<', now + 93 * DAY)
        .where('end_ms', '>', now - DAY)
        .executeTakeFirstOrThrow();
      inRange[slug] = Number(r.n);
    }
    await db.destroy();
    log(`P2: seeded ${JSON.stringify(inRange)} busy intervals in range (SQLite in ${dir})`);

    const availPort = await freePort();
    const profArgs = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
    const avail = spawnNode([...profArgs, '--import', 'tsx', path.join(root, 'server/src/main.ts')], {
      PORT: String(availPort),
      DATA_DIR: dir,
      AVAIL_SECRET_KEY: randomBytes(32).toString('hex'),
      PUBLIC_BASE_URL: `http://127.0.0.1:${availPort}`,
      WEB_DIST_DIR: path.join(root, 'web/dist'),
      NODE_ENV: 'production',
    }, path.join(dir, 'avail.log'));
    children.push(avail);
    const availBase = `http://127.0.0.1:${availPort}`;
    const bodies: Record<string, unknown> = {};
    const bodyBytes: Record<string, number> = {};
    const sentBytes: Record<string, { encoding: string; bytes: number }> = {};
    for (const slug of Object.keys(owners)) {
      const r = await waitForOk(`${availBase}/api/public/${slug}/availability${query}`);
      const text = await r.text();
      bodies[slug] = JSON.parse(text);
      bodyBytes[slug] = Buffer.byteLength(text);
      // What the load's requests get: the raw bytes for Accept-Encoding: br, gzip (http.get does not decode).
      sentBytes[slug] = await new Promise((resolve, reject) => {
        get(`${availBase}/api/public/${slug}/availability${query}`, { headers: { 'Accept-Encoding': 'br, gzip' } }, (res) => {
          let n = 0;
          res.on('data', (c: Buffer) => (n += c.length));
          res.on('end', () => resolve({ encoding: String(res.headers['content-encoding'] ?? 'identity'), bytes: n }));
        }).on('error', reject);
      });
    }
    log(`P2: Avail up on :${availPort} (pid ${avail.pid}); bodies ${JSON.stringify(bodyBytes)} bytes, sent for br/gzip ${JSON.stringify(sentBytes)}`);

    const bodiesFile = path.join(dir, 'bodies.json');
    writeFileSync(bodiesFile, JSON.stringify(bodies));
    const bare = spawnNode(['--import', 'tsx', path.join(root, 'scripts/bench/bare-server.ts')], { BARE_BODIES: bodiesFile }, path.join(dir, 'bare.log'));
    children.push(bare);
    const barePort = await new Promise<number>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('bare server did not start')), 30_000);
      bare.stdout!.on('data', (d: Buffer) => {
        const m = /PORT (\d+)/.exec(d.toString());
        if (m) {
          clearTimeout(t);
          resolve(Number(m[1]));
        }
      });
    });
    const bareBase = `http://127.0.0.1:${barePort}`;
    for (const slug of Object.keys(owners)) {
      const a = await (await fetch(`${availBase}/api/public/${slug}/availability${query}`)).text();
      const b = await (await fetch(`${bareBase}/api/public/${slug}/availability${query}`)).text();
      if (a !== b) throw new Error(`bare and Avail bodies differ for ${slug}`);
    }
    log(`P2: bare Express up on :${barePort} (pid ${bare.pid}), same bodies`);

    const script = path.join(dir, 'p2.lua');
    writeFileSync(script, WRK_SCRIPT);
    let run = 0;
    let visitors = 0;
    const load = async (base: string, slug: string, seconds: number, pid: number) => {
      const cpu0 = cpuMs(pid);
      const r = await runWrk(`${base}/api/public/${slug}/availability${query}`, seconds, script, run++ * ADDRESSES_PER_RUN);
      const cpu = cpuMs(pid) - cpu0;
      if (base === availBase) visitors += r.requests;
      return {
        rps: round(r.requests / (r.duration_us / 1e6), 1),
        p50_ms: round(r.p50_us / 1000, 2),
        p99_ms: round(r.p99_us / 1000, 2),
        total: r.requests,
        non2xx: r.non2xx,
        errors: r.errors,
        bytes_per_req: r.requests > 0 ? Math.round(r.bytes / r.requests) : null,
        cpu_ms_per_req: r.requests > 0 ? round(cpu / r.requests, 4) : null,
      };
    };

    const out: Record<string, unknown> = {
      tool: `${wrk}: its own process, 1 thread, ${CONNECTIONS} connections, ${DURATION_S} s per run, ${ROUNDS} rounds interleaved A/B, medians; Accept-Encoding: br, gzip; a new X-Forwarded-For address per request`,
      query,
      busy_intervals_in_range: inRange,
      body_bytes: bodyBytes,
      avail_sent_for_br_gzip: sentBytes,
    };
    for (const slug of Object.keys(owners)) {
      const label = `${owners[slug].calendars}_calendars`;
      await load(bareBase, slug, WARMUP_S, bare.pid!);
      await load(availBase, slug, WARMUP_S, avail.pid!);
      const bareRuns: Array<Awaited<ReturnType<typeof load>>> = [];
      const availRuns: Array<Awaited<ReturnType<typeof load>>> = [];
      for (let round_ = 0; round_ < ROUNDS; round_++) {
        // A/B, then B/A: neither side always runs on a machine warmed by the other.
        if (round_ % 2 === 0) {
          bareRuns.push(await load(bareBase, slug, DURATION_S, bare.pid!));
          availRuns.push(await load(availBase, slug, DURATION_S, avail.pid!));
        } else {
          availRuns.push(await load(availBase, slug, DURATION_S, avail.pid!));
          bareRuns.push(await load(bareBase, slug, DURATION_S, bare.pid!));
        }
        const b = bareRuns.at(-1)!;
        const a = availRuns.at(-1)!;
        log(`P2 ${label} round ${round_ + 1}: bare ${b.rps} req/s p99 ${b.p99_ms} ms | Avail ${a.rps} req/s p99 ${a.p99_ms} ms (non-2xx ${a.non2xx}, errors ${a.errors})`);
      }
      const m = (runs: typeof bareRuns, k: 'rps' | 'p99_ms' | 'p50_ms' | 'cpu_ms_per_req') => median(runs.map((r) => Number(r[k])));
      out[label] = {
        bare: { rps: m(bareRuns, 'rps'), p50_ms: m(bareRuns, 'p50_ms'), p99_ms: m(bareRuns, 'p99_ms'), cpu_ms_per_req: m(bareRuns, 'cpu_ms_per_req'), runs: bareRuns },
        avail: { rps: m(availRuns, 'rps'), p50_ms: m(availRuns, 'p50_ms'), p99_ms: m(availRuns, 'p99_ms'), cpu_ms_per_req: m(availRuns, 'cpu_ms_per_req'), runs: availRuns },
        throughput_ratio: round(m(availRuns, 'rps') / m(bareRuns, 'rps')),
        p99_ratio: round(m(availRuns, 'p99_ms') / Math.max(1, m(bareRuns, 'p99_ms'))),
        cpu_ratio: round(m(availRuns, 'cpu_ms_per_req') / m(bareRuns, 'cpu_ms_per_req')),
        avail_non2xx: availRuns.reduce((s, r) => s + r.non2xx, 0),
      };
    }
    out.avail_rss_mb = rssMb(avail.pid!);
    await stopChild(bare);
    await stopChild(avail);
    // A normal stop flushes the batched page views: one per distinct address (visitor) and day.
    const db2 = createDb(config);
    const views = await db2.selectFrom('page_views').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    await db2.destroy();
    out.page_views_after_stop = Number(views.n);
    out.avail_visitor_addresses = visitors;
    log(`P2: Avail stopped; page_views ${out.page_views_after_stop} (one per owner and visitor address: ${visitors} requests to Avail, each from a new address)`);
    return out;
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}
