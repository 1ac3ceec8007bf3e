#!/usr/bin/env node
/**
 * `npm test`: every test of the project, in three lanes that run side by side (2 cores: the lanes
 * wait on servers, browsers, timers and the database much of the time), each lane's steps in order —
 *   checks:  the type-check of every workspace (the desktop app against Electron's typings), the
 *            lint (layers, import cycles, front doors, file and function sizes), knip (declared
 *            dependencies used, no unused exports), the architecture doc against the folders, the
 *            Node range check of every installed package, the desktop bundles — each one test;
 *            then the server's tests again on PostgreSQL when TEST_POSTGRES_URL is set (else
 *            counted as skipped, with the reason): after the short checks, beside the two long lanes;
 *   vitest:  engine unit tests, the conformance cases, API/repository tests on SQLite, provider
 *            tests against Radicale and local servers;
 *   browser: the web build, the packaging check (desktop/scripts/pack-check.mjs, one test),
 *            Playwright in Debian's Chromium against the real server (two workers), then the
 *            real-Electron suite (desktop/e2e; skipped, with the reason, where Electron's binary is
 *            missing).
 * Each step's output goes to test-results/logs/<step>.log (printed whole when the step fails);
 * the end prints each step's time, then one closing line `N passed, N failed, N skipped` summed
 * from the runners' JSON reports (a runner that crashes before writing its report counts as one
 * failure) and exits non-zero on any failure.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { desktopSuiteCounts } from '../desktop/e2e/suite-report.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const results = join(root, 'test-results');
const logs = join(results, 'logs');
rmSync(results, { recursive: true, force: true });
mkdirSync(logs, { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
const skipReasons = [];
/** @type {Array<{ lane: string, label: string, seconds: number, ok: boolean }>} */
const timings = [];
const bin = (name) => join(root, 'node_modules', '.bin', name);
const started = Date.now();
const clock = () => {
  const s = Math.round((Date.now() - started) / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Runs one command of a lane with its output in test-results/logs/<name>.log; resolves to its exit
 * status (1 when it could not start). A failing step's log is printed whole, under its label.
 */
function step(lane, name, label, cmd, args, env = {}) {
  const logFile = join(logs, `${name}.log`);
  const out = createWriteStream(logFile);
  const t0 = Date.now();
  console.log(`[${clock()}] ${lane} ▶ ${label}`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, FORCE_COLOR: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.on('error', (e) => out.write(`could not start ${cmd}: ${e.message}\n`));
    child.on('close', (code) => {
      out.end(() => {
        const status = code ?? 1;
        const seconds = (Date.now() - t0) / 1000;
        timings.push({ lane, label, seconds, ok: status === 0 });
        console.log(`[${clock()}] ${lane} ${status === 0 ? '✓' : '✗'} ${label} (${seconds.toFixed(0)} s)`);
        if (status !== 0) console.log(`\n──── ${label}: exit ${status}, its output (${logFile}) ────\n${readFileSync(logFile, 'utf8')}\n──── end of ${label} ────\n`);
        resolve(status);
      });
    });
  });
}

/** A step counted as one test: passed when the command exits 0. */
async function checkStep(lane, name, label, cmd, args) {
  if ((await step(lane, name, label, cmd, args)) === 0) totals.passed += 1;
  else totals.failed += 1;
}

/** Runs Vitest with a JSON report and adds its counts to the totals. */
async function vitestRun(lane, label, args, env) {
  const report = join(results, `vitest-${label}.json`);
  const status = await step(lane, `vitest-${label}`, `Vitest (${label})`, bin('vitest'), ['run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], env);
  const json = readJson(report);
  if (!json) {
    console.error(`vitest (${label}) crashed before writing its report`);
    totals.failed += 1;
    return;
  }
  totals.passed += json.numPassedTests ?? 0;
  totals.failed += json.numFailedTests ?? 0;
  totals.skipped += (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
  // A suite that fails to load has no failed test but is a failure.
  const brokenSuites = (json.testResults ?? []).filter((s) => s.status === 'failed' && (s.assertionResults ?? []).every((a) => a.status !== 'failed')).length;
  totals.failed += brokenSuites;
  if (status !== 0 && (json.numFailedTests ?? 0) + brokenSuites === 0) totals.failed += 1;
}

/**
 * Without TEST_POSTGRES_URL the PostgreSQL run does not happen: its tests are counted as skipped,
 * with the reason, instead of vanishing from the totals. They are listed, not run (`vitest list`
 * collects the server's tests, the PostgreSQL-only files included, and opens no connection).
 */
async function countPostgresSkipped(lane) {
  const list = join(results, 'vitest-postgres-list.json');
  await step(lane, 'vitest-postgres-list', 'Vitest list (PostgreSQL tests, not run)', bin('vitest'), ['list', 'server', `--json=${list}`], { TEST_POSTGRES_URL: 'postgres://not-connected.invalid/none' });
  const tests = readJson(list);
  if (!Array.isArray(tests)) {
    console.error('vitest list (PostgreSQL tests) crashed before writing its list');
    totals.failed += 1;
    return;
  }
  totals.skipped += tests.length;
  skipReasons.push(`${tests.length} PostgreSQL tests: TEST_POSTGRES_URL not set`);
}

/** Lane "checks": type-check, lint, knip, the architecture doc, engines, desktop bundles. */
async function checksLane() {
  const lane = 'checks';
  await checkStep(lane, 'typecheck', 'type-check (shared, server, web, e2e, desktop)', 'npm', ['run', '-s', 'typecheck']);
  await checkStep(lane, 'lint', 'lint: layers, front doors, import cycles, file and function sizes (eslint.config.js)', 'npm', ['run', '-s', 'lint']);
  await checkStep(lane, 'knip', 'knip: every declared dependency used, every used one declared, no unused export (knip.ts)', 'npm', ['run', '-s', 'check:knip']);
  await checkStep(lane, 'architecture-doc', 'docs/architecture.md names every folder, and only folders that exist', process.execPath, [join(root, 'scripts', 'check-architecture-doc.mjs')]);
  await checkStep(lane, 'engines', 'engines (every installed package accepts our Node range)', process.execPath, [join(root, 'scripts', 'check-engines.mjs')]);
  await checkStep(lane, 'desktop-bundles', 'desktop bundles (main.cjs, preload.cjs)', process.execPath, [join(root, 'desktop', 'scripts', 'build.mjs'), '--outdir', join(results, 'desktop-dist')]);
  // The PostgreSQL run here, not after SQLite's: both Vitest runs then overlap the browser tests
  // (in one lane they ran one after the other, the second alone at the end: 27 min against 21).
  const pgUrl = process.env.TEST_POSTGRES_URL;
  if (pgUrl) await vitestRun(lane, 'postgres', ['server'], { TEST_POSTGRES_URL: pgUrl });
  else await countPostgresSkipped(lane);
}

/** Lane "vitest": every Vitest test on SQLite, the embedded default. */
async function vitestLane() {
  await vitestRun('vitest', 'sqlite', [], { TEST_POSTGRES_URL: '' });
}

/** Adds a Playwright JSON report's counts; a missing report is one failure. */
function addPlaywrightCounts(label, status, report) {
  const json = readJson(report);
  if (!json?.stats) {
    console.error(`playwright (${label}) crashed before writing its report`);
    totals.failed += 1;
    return;
  }
  totals.passed += (json.stats.expected ?? 0) + (json.stats.flaky ?? 0);
  totals.failed += json.stats.unexpected ?? 0;
  totals.skipped += json.stats.skipped ?? 0;
  if (status !== 0 && !(json.stats.unexpected > 0)) totals.failed += 1;
}

/** Lane "browser": web build, packaging check, Playwright, then the real-Electron suite. */
async function browserLane() {
  const lane = 'browser';
  if ((await step(lane, 'web-build', 'web build (vite)', 'npm', ['run', 'build', '-w', 'web'])) !== 0) {
    totals.failed += 1;
    return;
  }
  await checkStep(lane, 'pack-check', 'packaging: electron-builder (Linux dir; deb, AppImage up to their tool download), stand-in Electron: asar contents, desktop entries, update source', process.execPath, [join(root, 'desktop', 'scripts', 'pack-check.mjs')]);
  const e2eReport = join(results, 'e2e.json');
  const e2eStatus = await step(lane, 'e2e', 'browser tests (Playwright, web/e2e)', bin('playwright'), ['test', '-c', join(root, 'web', 'e2e', 'playwright.config.ts')], { PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport });
  addPlaywrightCounts('web/e2e', e2eStatus, e2eReport);

  // The real-Electron suite (desktop/e2e): the desktop bundles into desktop/dist (the app as
  // `electron desktop/` loads them, with this lane's web/dist), then Playwright's `_electron`.
  // Without Electron's binary every spec skips itself: counted as skipped, with the reason.
  if ((await step(lane, 'desktop-build', 'desktop build (desktop/dist)', process.execPath, [join(root, 'desktop', 'scripts', 'build.mjs')])) !== 0) {
    totals.failed += 1;
    return;
  }
  const desktopReport = join(results, 'desktop-e2e.json');
  const status = await step(lane, 'desktop-e2e', 'real-Electron tests (desktop/e2e)', bin('playwright'), ['test', '-c', join(root, 'desktop', 'e2e', 'playwright.config.ts')], { PLAYWRIGHT_JSON_OUTPUT_NAME: desktopReport });
  const counts = desktopSuiteCounts(readJson(desktopReport));
  if (!counts) {
    console.error('playwright (real-Electron tests) crashed before writing its report');
    totals.failed += 1;
    return;
  }
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  totals.skipped += counts.skipped;
  skipReasons.push(...counts.skipReasons);
  if (status !== 0 && counts.failed === 0) totals.failed += 1;
}

await Promise.all([browserLane(), vitestLane(), checksLane()]);

// The reliability suite's counts (privacy, fuzz, crash, SSRF, hostile feeds) from the runs above.
if (existsSync(join(results, 'reliability.jsonl'))) await step('report', 'reliability', 'reliability table', process.execPath, [join(root, 'scripts', 'reliability.mjs'), '--table']).then(() => console.log(readFileSync(join(logs, 'reliability.log'), 'utf8')));

console.log(`\nStep times (lanes side by side; ${clock()} in all):`);
for (const t of timings) console.log(`  ${t.ok ? '✓' : '✗'} ${t.lane.padEnd(8)} ${`${t.seconds.toFixed(0)} s`.padStart(6)}  ${t.label}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped${skipReasons.length ? ` (${skipReasons.join('; ')})` : ''}`);
process.exit(totals.failed > 0 ? 1 : 0);
