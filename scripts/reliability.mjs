#!/usr/bin/env node
/**
 * `npm run test:reliability`: the reliability suite (issue 12) at RELIABILITY_SCALE (default 10):
 * privacy property, fuzz, crash (SIGKILL), SSRF and hostile feeds — on SQLite, and again on
 * PostgreSQL when TEST_POSTGRES_URL is set — then ONE table of what ran: requests, trials,
 * failures per check. `npm test` runs the same files at scale 1 and also writes
 * test-results/reliability.jsonl; `node scripts/reliability.mjs --table` prints its table alone.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const report = join(root, 'test-results', 'reliability.jsonl');
const FILES = ['server/test/reliability', 'server/src/modules/sync/sync-isolation.test.ts'];

function printTable() {
  const rows = existsSync(report)
    ? readFileSync(report, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))
    : [];
  const head = ['check', 'db', 'scale', 'requests', 'trials', 'failures'];
  const body = rows.map((r) => [r.check, r.dialect, String(r.scale), String(r.requests), String(r.trials), String(r.failures)]);
  const total = ['total', '', '', ...[3, 4, 5].map((i) => String(body.reduce((n, r) => n + Number(r[i]), 0)))];
  const all = [head, ...body, total];
  const widths = head.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => (i >= 2 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
  console.log(`\n${line(head)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const r of body) console.log(line(r));
  console.log(line(total));
  return rows;
}

if (process.argv.includes('--table')) {
  printTable();
} else {
  rmSync(report, { force: true });
  mkdirSync(dirname(report), { recursive: true });
  const scale = process.env.RELIABILITY_SCALE ?? '10';
  const vitest = join(root, 'node_modules', '.bin', 'vitest');
  const runs = [['sqlite', '']];
  if (process.env.TEST_POSTGRES_URL) runs.push(['postgres', process.env.TEST_POSTGRES_URL]);
  let failed = false;
  for (const [label, pg] of runs) {
    console.log(`\n▶ reliability suite on ${label}, scale ${scale}`);
    const status = spawnSync(vitest, ['run', ...FILES], { cwd: root, stdio: 'inherit', env: { ...process.env, RELIABILITY_SCALE: scale, TEST_POSTGRES_URL: pg } }).status;
    if (status !== 0) failed = true;
  }
  const rows = printTable();
  process.exit(failed || rows.some((r) => r.failures > 0) ? 1 : 0);
}
