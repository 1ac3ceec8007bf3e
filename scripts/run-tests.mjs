#!/usr/bin/env node
/**
 * `npm test`: every test of the project, in order —
 *   0. the type-check of every workspace (the desktop app against Electron's typings), the lint of
 *      the layers and import cycles, the dependency check (knip), the Node range check of every installed package, and the
 *      desktop bundles, each counted as one test;
 *   1. Vitest: engine unit tests, the 60 conformance cases, API/repository tests (SQLite, and
 *      PostgreSQL too when TEST_POSTGRES_URL is set), provider tests against Radicale and local servers;
 *   2. the web build, the packaging check (desktop/scripts/pack-check.mjs, one counted step), then
 *      Playwright in Debian's Chromium against the real server.
 *   3. the real-Electron suite (desktop/e2e; skipped, with the reason, where Electron's binary is missing).
 * Prints one closing line `N passed, N failed, N skipped` summed from the runners' JSON reports
 * (with the reason for skipped tests, e.g. the PostgreSQL run when TEST_POSTGRES_URL is unset)
 * (a runner that crashes before writing its report counts as one failure) and exits non-zero on
 * any failure.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { desktopSuiteCounts } from '../desktop/e2e/suite-report.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const results = join(root, 'test-results');
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
const bin = (name) => join(root, 'node_modules', '.bin', name);
const run = (cmd, args, env = {}) =>
  spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status;

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Runs Vitest with a JSON report and adds its counts to the totals. */
function vitestRun(label, args, env) {
  const report = join(results, `vitest-${label}.json`);
  const status = run(bin('vitest'), ['run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], env);
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

const skipReasons = [];

/**
 * Without TEST_POSTGRES_URL the PostgreSQL run (step 1b) does not happen: its tests are counted
 * as skipped, with the reason, instead of vanishing from the totals. They are listed, not run
 * (`vitest list` collects the server's tests, the PostgreSQL-only files included, and opens no
 * connection).
 */
function countPostgresSkipped() {
  const list = join(results, 'vitest-postgres-list.json');
  run(bin('vitest'), ['list', 'server', `--json=${list}`], { TEST_POSTGRES_URL: 'postgres://not-connected.invalid/none' });
  const tests = readJson(list);
  if (!Array.isArray(tests)) {
    console.error('vitest list (PostgreSQL tests) crashed before writing its list');
    totals.failed += 1;
    return;
  }
  totals.skipped += tests.length;
  skipReasons.push(`${tests.length} PostgreSQL tests: TEST_POSTGRES_URL not set`);
}

/** A build step counted as one test: passed when the command exits 0. */
function checkStep(label, cmd, args) {
  console.log(`\n▶ ${label}`);
  if (run(cmd, args) === 0) totals.passed += 1;
  else {
    console.error(`${label} failed`);
    totals.failed += 1;
  }
}

// 0. Type-check every workspace — the desktop app against Electron's own typings — and bundle the
//    desktop main and preload scripts (esbuild) into a scratch folder.
checkStep('type-check (shared, server, web, e2e, desktop)', 'npm', ['run', 'typecheck']);
checkStep('lint: layers and import cycles (eslint.config.js)', 'npm', ['run', 'lint']);
checkStep('dependencies: every declared one used, every used one declared (knip.ts)', 'npm', ['run', 'check:deps']);
checkStep('engines (every installed package accepts our Node range)', process.execPath, [join(root, 'scripts', 'check-engines.mjs')]);
checkStep('desktop bundles (main.cjs, preload.cjs)', process.execPath, [join(root, 'desktop', 'scripts', 'build.mjs'), '--outdir', join(results, 'desktop-dist')]);

// 1. Vitest on the embedded default (SQLite): every unit, conformance, API and provider test.
const pgUrl = process.env.TEST_POSTGRES_URL;
vitestRun('sqlite', [], { TEST_POSTGRES_URL: '' });
// 1b. The server's repository and API tests again on PostgreSQL, when one is configured.
if (pgUrl) vitestRun('postgres', ['server'], { TEST_POSTGRES_URL: pgUrl });
else countPostgresSkipped();

// 2. Browser tests: build the web app, then Playwright against the real server.
const e2eConfig = join(root, 'web', 'e2e', 'playwright.config.ts');
if (existsSync(e2eConfig)) {
  const buildStatus = run('npm', ['run', 'build', '-w', 'web']);
  if (buildStatus !== 0) {
    console.error('web build failed');
    totals.failed += 1;
  } else {
    checkStep('packaging: electron-builder (Linux dir; deb, AppImage up to their tool download), stand-in Electron: asar contents, desktop entries, update source', process.execPath, [join(root, 'desktop', 'scripts', 'pack-check.mjs')]);
    const e2eReport = join(results, 'e2e.json');
    const status = run(bin('playwright'), ['test', '-c', e2eConfig], { PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport });
    const e2e = readJson(e2eReport);
    if (e2e?.stats) {
      totals.passed += (e2e.stats.expected ?? 0) + (e2e.stats.flaky ?? 0);
      totals.failed += e2e.stats.unexpected ?? 0;
      totals.skipped += e2e.stats.skipped ?? 0;
      if (status !== 0 && !(e2e.stats.unexpected > 0)) totals.failed += 1;
    } else {
      console.error('playwright crashed before writing its report');
      totals.failed += 1;
    }
  }
}

// 3. The real-Electron suite (desktop/e2e): the desktop bundles into desktop/dist (the app as
//    `electron desktop/` loads them, with step 2's web/dist), then Playwright's `_electron`.
//    Without Electron's binary every spec skips itself: counted as skipped, with the reason.
console.log('\n▶ real-Electron tests (desktop/e2e)');
if (run(process.execPath, [join(root, 'desktop', 'scripts', 'build.mjs')]) !== 0) {
  console.error('desktop build (desktop/dist) failed');
  totals.failed += 1;
} else {
  const desktopReport = join(results, 'desktop-e2e.json');
  const status = run(bin('playwright'), ['test', '-c', join(root, 'desktop', 'e2e', 'playwright.config.ts')], { PLAYWRIGHT_JSON_OUTPUT_NAME: desktopReport });
  const counts = desktopSuiteCounts(readJson(desktopReport));
  if (counts) {
    totals.passed += counts.passed;
    totals.failed += counts.failed;
    totals.skipped += counts.skipped;
    skipReasons.push(...counts.skipReasons);
    if (status !== 0 && counts.failed === 0) totals.failed += 1;
  } else {
    console.error('playwright (real-Electron tests) crashed before writing its report');
    totals.failed += 1;
  }
}

// The reliability suite's counts (privacy, fuzz, crash, SSRF, hostile feeds) from the runs above.
if (existsSync(join(results, 'reliability.jsonl'))) run(process.execPath, [join(root, 'scripts', 'reliability.mjs'), '--table']);

console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped${skipReasons.length ? ` (${skipReasons.join('; ')})` : ''}`);
process.exit(totals.failed > 0 ? 1 : 0);
