/**
 * Issue 11 "Isolation": the real server in its own process (SQLite, temp DATA_DIR, started like
 * web/e2e/global-setup.ts with tsx), one owner whose public link visitors keep loading, and each
 * hostile feed (server/test/hostile-feeds.ts) connected through the API by another account.
 *
 * Measures a visitor's GET /api/public/{slug}/availability latency (ms) idle and while each
 * hostile feed syncs (2 visitors back to back, each request from another X-Forwarded-For so the
 * per-IP limiter stays on but never answers 429), and the server's RSS (MB, /proc/<pid>/status
 * VmRSS sampled every 100 ms and VmHWM at the end).
 *
 * Targets: during each sync p99 ≤ 2 × idle p99 and < 100 ms; RSS ≤ 512 MB. Runs in about a minute.
 *
 *   npx tsx -e "import('./scripts/bench/isolation.bench.ts').then(m => m.runIsolationBench(console.log)).then(r => console.log(JSON.stringify(r, null, 2)))"
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HOSTILE_FEEDS, icsUtc } from '../../server/test/hostile-feeds.ts';
import { startIcsServer } from '../../server/test/ics-server.ts';
import { freePort } from './util.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const IDLE_MS = 3_000;
/** Visitors are measured for at least this long per feed, even when its sync ends sooner. */
const MIN_WINDOW_MS = 1_500;
const VISITORS = 2;
const TARGET_P99_MS = 100;
const TARGET_P99_FACTOR = 2;
const TARGET_RSS_MB = 512;


function p99(samples: number[]): number {
  if (samples.length === 0) return NaN;
  const s = [...samples].sort((a, b) => a - b);
  return +s[Math.min(s.length - 1, Math.ceil(0.99 * s.length) - 1)]!.toFixed(2);
}

/** The process that runs main.ts: tsx's CLI starts node as a child, so take that child when there is one. */
function serverPid(child: ChildProcess): number {
  try {
    const kids = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    if (kids.length) return Number(kids[0]);
  } catch {
    /* not Linux, or gone */
  }
  return child.pid!;
}

function memOf(pid: number): { rssMb: number; hwmMb: number } {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(s)?.[1] ?? NaN);
    return { rssMb: +(kb('VmRSS') / 1024).toFixed(1), hwmMb: +(kb('VmHWM') / 1024).toFixed(1) };
  } catch {
    return { rssMb: NaN, hwmMb: NaN };
  }
}

export async function runIsolationBench(log: (msg: string) => void): Promise<Record<string, unknown>> {
  const started = Date.now();
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'avail-isolation-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const feeds = await startIcsServer();
  const logs: string[] = [];
  const child = spawn(path.join(root, 'node_modules', '.bin', 'tsx'), ['server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: path.join(tmp, 'data'),
      DATABASE_URL: '',
      AVAIL_SECRET_KEY: randomBytes(32).toString('hex'),
      PUBLIC_BASE_URL: base,
      ALLOW_PRIVATE_CALENDAR_HOSTS: 'true',
      LOG_LEVEL: 'info',
      SMTP_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => logs.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => logs.push(d.toString()));
  let rssMaxMb = 0;
  let rssFeedMaxMb = 0;
  let sampler: NodeJS.Timeout | undefined;
  try {
    log('isolation: starting the server (SQLite, own process)');
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`server exited: ${logs.join('').slice(-2000)}`);
      try {
        if ((await fetch(`${base}/api/me`)).status < 500) break;
      } catch {
        /* not up yet */
      }
      if (i > 300) throw new Error(`server did not start: ${logs.join('').slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const pid = serverPid(child);
    sampler = setInterval(() => {
      const m = memOf(pid);
      if (m.rssMb > rssMaxMb) rssMaxMb = m.rssMb;
      if (m.rssMb > rssFeedMaxMb) rssFeedMaxMb = m.rssMb;
    }, 100);

    // Accounts: the owner visitors look at, and another that connects the hostile feeds.
    const json = async (method: string, url: string, body?: unknown, token?: string) => {
      const r = await fetch(`${base}${url}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await r.text();
      let parsed: any = null;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
      return { status: r.status, body: parsed };
    };
    const signUp = async (name: string) => {
      const email = `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${Date.now()}@example.com`;
      const reg = await json('POST', '/api/auth/register', { name, email, password: 'password123', password_confirmation: 'password123' });
      if (reg.status >= 300) throw new Error(`register: ${reg.status} ${JSON.stringify(reg.body)}`);
      let code: string | undefined;
      for (let i = 0; i < 50 && !code; i++) {
        const line = logs.join('').split('\n').find((l) => l.includes(`to ${email}: Your Avail verification code:`));
        code = line ? /verification code: (\d{6})/.exec(line)?.[1] : undefined;
        if (!code) await new Promise((r) => setTimeout(r, 100));
      }
      if (!code) throw new Error('no verification code in the server log');
      const ver = await json('POST', '/api/auth/verify-email', { email, verification_code: code });
      if (ver.status >= 300) throw new Error(`verify: ${ver.status} ${JSON.stringify(ver.body)}`);
      const token: string = ver.body.token ?? reg.body.token;
      return { email, token };
    };
    const owner = await signUp('Visited Owner');
    const slug = `iso${Date.now().toString(36).slice(-8)}`;
    const un = await json('PUT', '/api/me/profile/username', { username: slug }, owner.token);
    if (un.status >= 300) throw new Error(`username: ${un.status} ${JSON.stringify(un.body)}`);
    await json('POST', '/api/me/availability-rules', { rules: [0, 1, 2, 3, 4].map((weekday) => ({ weekday, start_time_local: '08:00', end_time_local: '18:00' })) }, owner.token);
    const now = Date.now();
    const good: string[] = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//avail//isolation-bench//EN'];
    for (let i = 0; i < 150; i++) {
      const s = Math.ceil(now / 3_600_000) * 3_600_000 + (i - 20) * 5 * 3_600_000;
      good.push('BEGIN:VEVENT', `UID:good-${i}@bench`, `DTSTAMP:${icsUtc(now)}`, `DTSTART:${icsUtc(s)}`, `DTEND:${icsUtc(s + 3_600_000)}`, 'SUMMARY:Busy', 'END:VEVENT');
    }
    good.push('END:VCALENDAR', '');
    feeds.set('/good.ics', { ics: good.join('\r\n') });
    const goodConnect = await json('POST', '/api/me/calendar/ics/connect', { url: feeds.url('/good.ics') }, owner.token);
    if (goodConnect.status !== 201) throw new Error(`good connect: ${goodConnect.status} ${JSON.stringify(goodConnect.body)}`);
    const hostileOwner = await signUp('Hostile Owner');

    // Visitors: back to back, each request from another client address.
    let seq = 0;
    const visit = async (): Promise<number> => {
      seq++;
      const t0 = performance.now();
      const r = await fetch(`${base}/api/public/${slug}/availability`, {
        headers: { 'x-forwarded-for': `10.${(seq >> 16) & 255}.${(seq >> 8) & 255}.${seq & 255}` },
      });
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`visitor got ${r.status}`);
      return performance.now() - t0;
    };
    const measure = async (until: () => boolean) => {
      const samples: number[] = [];
      await Promise.all(
        Array.from({ length: VISITORS }, async () => {
          while (!until()) samples.push(await visit());
        }),
      );
      return samples;
    };
    for (let i = 0; i < 50; i++) await visit(); // warm-up
    log('isolation: idle visitors');
    const idleEnd = Date.now() + IDLE_MS;
    const idle = await measure(() => Date.now() >= idleEnd);
    const idleP99 = p99(idle);
    log(`isolation: idle p99 ${idleP99} ms over ${idle.length} requests`);

    const perFeed: Array<Record<string, unknown>> = [];
    for (const [i, hostile] of HOSTILE_FEEDS.entries()) {
      const bytes = hostile.build(Date.now());
      const feedPath = `/hostile-${i}.ics`;
      feeds.set(feedPath, { ics: bytes.ics, body: bytes.body, headers: bytes.headers });
      let done = false;
      rssFeedMaxMb = 0;
      const windowEnd = Date.now() + MIN_WINDOW_MS;
      const t0 = performance.now();
      let syncMs = NaN;
      const connecting = json('POST', '/api/me/calendar/ics/connect', { url: feeds.url(feedPath) }, hostileOwner.token).finally(() => {
        syncMs = +(performance.now() - t0).toFixed(0);
        done = true;
      });
      const samples = await measure(() => done && Date.now() >= windowEnd);
      const answer = await connecting;
      const feedP99 = p99(samples);
      const pass = feedP99 <= TARGET_P99_FACTOR * idleP99 && feedP99 < TARGET_P99_MS;
      const outcome = answer.status === 201 ? `imported (${answer.body.connection?.status})` : `refused ${answer.status}: ${answer.body?.error}`;
      perFeed.push({ feed: hostile.name, visitor_requests: samples.length, visitor_p99_ms: feedP99, connect_ms: syncMs, server_rss_max_mb: rssFeedMaxMb, outcome, pass });
      log(`isolation: ${hostile.name}: visitor p99 ${feedP99} ms (${samples.length} requests), connect ${syncMs} ms, RSS ≤ ${rssFeedMaxMb} MB, ${outcome}${pass ? '' : '  ← over target'}`);
    }
    const mem = memOf(pid);
    const rssMax = Math.max(rssMaxMb, mem.hwmMb || 0);
    const worstP99 = Math.max(...perFeed.map((f) => f.visitor_p99_ms as number));
    const result = {
      idle_visitor_p99_ms: idleP99,
      idle_visitor_requests: idle.length,
      feeds: perFeed,
      worst_visitor_p99_during_sync_ms: worstP99,
      server_rss_max_mb: rssMax,
      server_rss_end_mb: mem.rssMb,
      targets: { visitor_p99_max_factor_of_idle: TARGET_P99_FACTOR, visitor_p99_max_ms: TARGET_P99_MS, rss_max_mb: TARGET_RSS_MB },
      pass_p99: perFeed.every((f) => f.pass),
      pass_rss: rssMax <= TARGET_RSS_MB,
      pass: perFeed.every((f) => f.pass) && rssMax <= TARGET_RSS_MB,
      load_avg: os.loadavg().map((l) => +l.toFixed(2)),
      cpus: os.cpus().length,
      duration_s: +((Date.now() - started) / 1000).toFixed(1),
    };
    log(`isolation: worst p99 ${worstP99} ms (idle ${idleP99} ms), RSS max ${rssMax} MB → ${result.pass ? 'pass' : 'FAIL'}`);
    return result;
  } finally {
    if (sampler) clearInterval(sampler);
    child.kill('SIGTERM');
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
    });
    await feeds.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}
