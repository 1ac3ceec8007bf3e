/**
 * P3 (issue 11): the public page `/{username}`, server-rendered and light.
 *
 * Starts Avail in its own process (`node --import tsx server/src/main.ts`, the web build in
 * web/dist — run `npm run build` first) on a temp DATA_DIR with one seeded owner (Europe/Brussels,
 * free 08:00–20:00 every day, 3 calendars of busy intervals), then opens `/{username}` five times in
 * Debian's Chromium (playwright-core, fresh context each time, no cache) and records:
 * - first contentful paint (PerformanceObserver 'paint'), median of 5 loads;
 * - the gzipped bytes of every script the page loaded (level 9), on load and after opening the
 *   propose dialog, against the 70 KB target;
 * - that the HTML as served already holds the owner's name (server-rendered);
 * - the same sum read statically from web/dist/public.html (entry, modulepreloads, their static
 *   and dynamic imports), for a check without a browser.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { loadConfig } from '../../server/src/config.ts';
import { createDb } from '../../server/src/db/kysely.ts';
import { migrateToLatest } from '../../server/src/db/migrate.ts';
import { buildUser } from '../../server/test/factories.ts';
import { PUBLIC_JS_BUDGET_BYTES, publicPageStaticJs } from './public-page-js.ts';
import { freePort, median, round, stopChild, waitForOk } from './util.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DAY = 86_400_000;
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];




/** Runs the P3 measurements; see the file's comment. */
export async function runPublicPageBench(log: (msg: string) => void): Promise<Record<string, unknown>> {
  // BENCH_PUBLIC_WEB_DIST: another web build to measure the same way (e.g. one from before issue 11,
  // which has no public.html: the server then answers the SPA's index.html, as it did).
  const dist = process.env.BENCH_PUBLIC_WEB_DIST ? path.resolve(process.env.BENCH_PUBLIC_WEB_DIST) : path.join(root, 'web/dist');
  if (!existsSync(path.join(dist, 'index.html'))) return { error: `${dist} missing: run \`npm run build\` first` };
  const staticJs = existsSync(path.join(dist, 'public.html')) ? publicPageStaticJs(dist) : { files: {}, total: NaN };
  log(`P3: public page JS from ${path.relative(root, dist)} (static): ${round(staticJs.total / 1024, 1)} KB gzip in ${Object.keys(staticJs.files).length} file(s)`);

  const dir = mkdtempSync(path.join(tmpdir(), 'avail-bench-page-'));
  let server: ChildProcess | undefined;
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const secret = randomBytes(32).toString('hex');
    const config = loadConfig({ DATA_DIR: dir, AVAIL_SECRET_KEY: secret, LOG_LEVEL: 'silent' }, dir);
    const db = createDb(config);
    await migrateToLatest(db);
    const now = Date.now();
    const username = 'benchpage';
    const { user } = await buildUser({ db, now: () => now }, { username, name: 'Bench Page Owner', timezone: 'Europe/Brussels' });
    await db
      .insertInto('availability_rules')
      .values([0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ id: randomUUID(), user_id: user.id, weekday, start_time_local: '08:00', end_time_local: '20:00', created_at: now, updated_at: now })))
      .execute();
    for (let c = 0; c < 3; c++) {
      const connection_id = randomUUID();
      await db.insertInto('calendar_connections').values({ id: connection_id, user_id: user.id, provider: 'ics', name: `Calendar ${c}`, status: 'active', account: null, connected_at: now, updated_at: now }).execute();
      const rows = [];
      for (let d = 0; d < 40; d++) {
        const start = Math.floor(now / DAY) * DAY + d * DAY + (9 + c * 3) * 3_600_000;
        rows.push({ id: randomUUID(), user_id: user.id, connection_id, start_ms: start, end_ms: start + 3_600_000, depends_on_owner_zone: 0 });
      }
      await db.insertInto('busy_intervals').values(rows).execute();
    }
    await db.destroy();

    const port = await freePort();
    server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/src/main.ts')], {
      env: { ...process.env, PORT: String(port), DATA_DIR: dir, AVAIL_SECRET_KEY: secret, PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, WEB_DIST_DIR: dist, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = createWriteStream(path.join(dir, 'avail.log'));
    server.stdout!.pipe(out);
    server.stderr!.pipe(out);
    const base = `http://127.0.0.1:${port}`;
    const html = await (await waitForOk(`${base}/${username}`)).text();
    const serverRendered = html.includes('Bench Page Owner&#x27;s Availability') || html.includes("Bench Page Owner's Availability") || html.includes('Bench Page Owner&#39;s Availability');
    const htmlMs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      await (await fetch(`${base}/${username}`, { headers: { 'X-Forwarded-For': `198.18.1.${i + 1}` } })).text();
      htmlMs.push(performance.now() - t0);
    }
    log(`P3: Avail up on :${port}; HTML server-rendered with the owner's name: ${serverRendered}; HTML answer median ${round(median(htmlMs), 1)} ms`);

    const fcps: number[] = [];
    const loaded: number[] = [];
    let withDialog = 0;
    let scriptList: string[] = [];
    for (let i = 0; i < 5; i++) {
      const ctx = await browser.newContext({ timezoneId: 'Europe/Brussels', locale: 'en-US', extraHTTPHeaders: { 'X-Forwarded-For': `198.18.0.${i + 1}` } });
      const page = await ctx.newPage();
      const scripts = new Map<string, Promise<number>>();
      page.on('response', (res) => {
        if (res.request().resourceType() === 'script') scripts.set(new URL(res.url()).pathname, res.body().then((b) => gzipSync(b, { level: 9 }).length).catch(() => 0));
      });
      await page.goto(`${base}/${username}`, { waitUntil: 'load' });
      const fcp = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            new PerformanceObserver((list) => {
              const e = list.getEntries().find((x) => x.name === 'first-contentful-paint');
              if (e) resolve(e.startTime);
            }).observe({ type: 'paint', buffered: true });
            setTimeout(() => resolve(-1), 10_000);
          }),
      );
      await page.waitForLoadState('networkidle');
      const sum = async () => (await Promise.all(scripts.values())).reduce((a, b) => a + b, 0);
      fcps.push(fcp);
      loaded.push(await sum());
      if (i === 0) {
        await page.locator('button[aria-label$="propose a time"]').first().click({ timeout: 30_000 });
        await page.getByRole('dialog').waitFor();
        await page.waitForLoadState('networkidle');
        withDialog = await sum();
        scriptList = [...scripts.keys()];
      }
      await ctx.close();
    }
    const fcpMedian = round(median(fcps), 1);
    const loadKb = round(median(loaded) / 1024, 1);
    const dialogKb = round(withDialog / 1024, 1);
    const pass = serverRendered && withDialog <= PUBLIC_JS_BUDGET_BYTES && median(loaded) <= PUBLIC_JS_BUDGET_BYTES;
    log(`P3: FCP median ${fcpMedian} ms (${fcps.map((x) => round(x, 1)).join(', ')}); JS ${loadKb} KB gzip on load, ${dialogKb} KB with the dialog; target ≤ 70 KB: ${pass ? 'pass' : 'FAIL'}`);
    return {
      username,
      server_rendered: serverRendered,
      html_ms_median: round(median(htmlMs), 1),
      fcp_ms_median: fcpMedian,
      fcp_ms_samples: fcps.map((x) => round(x, 1)),
      js_gzip_kb_on_load: loadKb,
      js_gzip_kb_with_dialog: dialogKb,
      js_gzip_kb_static: round(staticJs.total / 1024, 1),
      scripts: scriptList,
      target_js_gzip_kb: 70,
      pass,
    };
  } finally {
    await browser.close();
    if (server) await stopChild(server);
    rmSync(dir, { recursive: true, force: true });
  }
}
