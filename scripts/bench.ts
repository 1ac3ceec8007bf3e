/**
 * `npm run bench`: the speed targets, measured side by side in one run (never asserted in timed
 * tests). Prints each step as it goes and a PASS/FAIL table at the end; writes
 * `bench-results.json` at the repository root (untracked; a reference run is kept in
 * docs/bench-reference.json). Budget: ≤ 10 minutes on a 2-core machine (P6 alone syncs 10,000 connections). Run `npm run build` first
 * (bundle sizes, the public page). `BENCH_ONLY=p2_public_api` (comma-separated step names) runs only those steps.
 *
 * Steps (modules in scripts/bench/):
 *  1. engine: conformance cases; P1 engine on 1 year × 10,000 sorted busy intervals vs sorting them;
 *     93 days × 500 busy;
 *  2. P2 public API vs a bare Express app (own processes; load from wrk in its own process — Debian
 *     package `wrk`, the step says so and is skipped without it — Accept-Encoding: br, gzip, a new
 *     visitor address per request; A/B, 3 rounds, medians), 5 and 20 calendars × 93 days;
 *  3. sync of an ICS feed (in-process);
 *  4. replication: initial pull of 10,000 documents, offline edit → server;
 *  5. web bundle: RxDB layer size;
 *  6. isolation (scripts/bench/isolation.bench.ts) and public page (scripts/bench/public-page.bench.ts)
 *     when those modules exist;
 *  7. P6: 10,000 connections' backup syncs by two instances on PostgreSQL with pg-boss
 *     (scripts/bench/sync-scale.bench.ts; skipped without PostgreSQL).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createLog } from './bench/util.ts';
import { bench93Days, benchConformance, benchEngineVsSort } from './bench/engine.bench.ts';
import { runPublicApiBench } from './bench/public-api.bench.ts';
import { runSyncBench } from './bench/sync.bench.ts';
import { runReplicationBench, silenceRxdbBanner } from './bench/replication.bench.ts';
import { benchRxdbBundle } from './bench/bundle.bench.ts';
import { runSyncScaleBench } from './bench/sync-scale.bench.ts';

const started = performance.now();
const log = createLog(started);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const referenceDir = path.resolve(root, '../shared/conformance/free-windows');
const conformanceDir = process.env.AVAIL_CONFORMANCE_DIR ?? (existsSync(referenceDir) ? referenceDir : path.join(root, 'shared/test/conformance/free-windows'));
const results: Record<string, unknown> = { date: new Date().toISOString(), node: process.version, cpus: cpus().length, loadavg_start: loadavg().map((x) => +x.toFixed(2)) };
const outFile = path.join(root, 'bench-results.json');
const save = () => writeFileSync(outFile, JSON.stringify(results, null, 2) + '\n');
// RxDB prints a storage banner the first time a Dexie database opens (replication, isolation…).
silenceRxdbBanner();

/** BENCH_ONLY=p2_public_api,… runs only the named steps (their result keys; `sync` for '+sync'). */
const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',').map((x) => x.trim())) : null;

/** Runs one step; a failing step records its error and the bench goes on. */
async function step(name: string, fn: () => unknown | Promise<unknown>) {
  if (only && !only.has(name.replace(/^\+/, ''))) return;
  log(`▶ ${name}`);
  const t0 = performance.now();
  try {
    const value = await fn();
    if (value && typeof value === 'object' && !Array.isArray(value) && name.startsWith('+')) Object.assign(results, value);
    else results[name.replace(/^\+/, '')] = value;
  } catch (err) {
    results[name.replace(/^\+/, '')] = { error: err instanceof Error ? err.message : String(err) };
    log(`✗ ${name} failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
  }
  log(`  ${name.replace(/^\+/, '')} done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  save();
}

await step('engine_conformance_per_case', () => benchConformance(conformanceDir, log));
await step('p1_engine_vs_sort', () => benchEngineVsSort(log));
await step('engine_93_days_500_busy', () => bench93Days(log));
await step('p2_public_api', () => runPublicApiBench(root, log));
await step('+sync', () => runSyncBench(log));
await step('+replication', () => runReplicationBench(log));
await step('+bundle', () => benchRxdbBundle(root, log));

/** Other engineers' modules: called when present. */
for (const [file, fn, key] of [
  ['isolation.bench.ts', 'runIsolationBench', 'isolation'],
  ['public-page.bench.ts', 'runPublicPageBench', 'public_page'],
] as const) {
  const p = path.join(root, 'scripts/bench', file);
  if (!existsSync(p)) {
    log(`(scripts/bench/${file} not present: ${key} skipped)`);
    continue;
  }
  await step(key, async () => {
    const mod = (await import(pathToFileURL(p).href)) as Record<string, (l: typeof log) => Promise<Record<string, unknown>>>;
    return mod[fn](log);
  });
}

await step('p6_sync_scale', () => runSyncScaleBench(root, log));

results.total_s = +((performance.now() - started) / 1000).toFixed(1);
results.loadavg_end = loadavg().map((x) => +x.toFixed(2));

// ── Targets ──
type Row = [string, string, string, boolean | null];
const rows: Row[] = [];
const p1 = results.p1_engine_vs_sort as { ratio?: number } | undefined;
rows.push(['P1 engine (1 y × 10k sorted) / sort of 10k', p1?.ratio !== undefined ? `${p1.ratio}×` : 'n/a', '≤ 1.0×', p1?.ratio !== undefined ? p1.ratio <= 1 : null]);
const p2 = results.p2_public_api as (Record<string, { throughput_ratio?: number; p99_ratio?: number; avail_non2xx?: number }> & { skipped?: string }) | undefined;
// Issue 22 item 6: with compression on (Accept-Encoding: br, gzip) and a new visitor per request, from wrk's own process.
if (typeof p2?.skipped === 'string') rows.push(['P2 public API vs bare Express', p2.skipped, '≥ 0.6×, p99 ≤ 2×', null]);
else for (const [label, min] of [['5_calendars', 0.6], ['20_calendars', 0.6]] as const) {
  const r = p2?.[label];
  rows.push([`P2 ${label.replace('_', ' ')}: throughput Avail / bare`, r?.throughput_ratio !== undefined ? `${r.throughput_ratio}×` : 'n/a', `≥ ${min}×`, r?.throughput_ratio !== undefined ? r.throughput_ratio >= min : null]);
  rows.push([`P2 ${label.replace('_', ' ')}: p99 Avail / bare`, r?.p99_ratio !== undefined ? `${r.p99_ratio}×` : 'n/a', '≤ 2×', r?.p99_ratio !== undefined ? r.p99_ratio <= 2 : null]);
  rows.push([`P2 ${label.replace('_', ' ')}: Avail non-2xx (limiter on)`, r?.avail_non2xx !== undefined ? String(r.avail_non2xx) : 'n/a', '0', r?.avail_non2xx !== undefined ? r.avail_non2xx === 0 : null]);
}
const iso = results.isolation as { worst_visitor_p99_during_sync_ms?: number; idle_visitor_p99_ms?: number; server_rss_max_mb?: number; pass_p99?: boolean; pass_rss?: boolean } | undefined;
if (iso && 'pass_p99' in iso) {
  rows.push(['Isolation: visitor p99 during hostile syncs', `${iso.worst_visitor_p99_during_sync_ms} ms (idle ${iso.idle_visitor_p99_ms} ms)`, '≤ 2× idle, < 100 ms', !!iso.pass_p99]);
  rows.push(['Isolation: server RSS max', `${iso.server_rss_max_mb} MB`, '≤ 512 MB', !!iso.pass_rss]);
}
const page = results.public_page as { js_gzip_kb_on_load?: number; js_gzip_kb_with_dialog?: number; server_rendered?: boolean; fcp_ms_median?: number; pass?: boolean } | undefined;
if (page && 'pass' in page) {
  rows.push(['P3 /{username}: server-rendered, JS gzip (with dialog)', `${page.server_rendered ? 'SSR' : 'not SSR'}, ${page.js_gzip_kb_on_load} KB (${page.js_gzip_kb_with_dialog} KB), FCP ${page.fcp_ms_median} ms`, '≤ 70 KB', !!page.pass]);
}
const p6 = results.p6_sync_scale as { connections?: number; window_ratio?: number; ratio_vs_plain_fetch?: number; synced?: number; fetches_per_feed_max?: number; second_fetches_same_window?: number; skipped?: string } | undefined;
if (p6 && p6.window_ratio !== undefined) {
  rows.push([`P6 ${p6.connections} connections, 2 instances: time / 15-min window`, `${p6.window_ratio}× (${p6.ratio_vs_plain_fetch}× plain fetch)`, '≤ 1×', p6.window_ratio <= 1 && p6.synced === p6.connections]);
  rows.push(['P6 claims: second fetch in the same window', String(p6.second_fetches_same_window), '0', p6.second_fetches_same_window === 0]);
} else {
  rows.push(['P6 sync scale (PostgreSQL)', p6?.skipped ?? 'n/a', '≤ 1× window', null]);
}
// The P6 step syncs 10,000 connections for real (about 4 minutes here); the rest takes about 2.
rows.push(['npm run bench total', `${results.total_s} s`, '≤ 600 s', (results.total_s as number) <= 600]);
results.targets = rows.map(([target, measured, goal, pass]) => ({ target, measured, goal, result: pass === null ? 'n/a' : pass ? 'PASS' : 'FAIL' }));
save();

const w = [Math.max(...rows.map((r) => r[0].length)), Math.max(8, ...rows.map((r) => r[1].length)), 8];
console.log(`\n${'target'.padEnd(w[0])}  ${'measured'.padEnd(w[1])}  ${'goal'.padEnd(w[2])}  result`);
for (const [target, measured, goal, pass] of rows) console.log(`${target.padEnd(w[0])}  ${measured.padEnd(w[1])}  ${goal.padEnd(w[2])}  ${pass === null ? 'n/a' : pass ? 'PASS' : 'FAIL'}`);
console.log(`\nload average ${loadavg().map((x) => x.toFixed(2)).join(' ')} (start ${(results.loadavg_start as number[]).join(' ')}); results in bench-results.json`);
process.exit(0);
