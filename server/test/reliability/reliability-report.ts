/**
 * The reliability suite's counts (issue 12): each check appends `{ check, requests, trials,
 * failures }` to `test-results/reliability.jsonl`; `npm run test:reliability` prints them as one
 * table (scripts/reliability-summary.mjs). `RELIABILITY_SCALE` (default 1 in `npm test`, 10 in
 * `npm run test:reliability`) multiplies every check's size.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The size multiplier of this run (≥ 1). */
export const SCALE = Math.max(1, Number(process.env.RELIABILITY_SCALE ?? '1') || 1);

export interface ReliabilityRow {
  check: string;
  /** HTTP requests made by the check. */
  requests: number;
  /** Generated cases (calendars, bodies, address forms, kills). */
  trials: number;
  /** Cases that broke the property (0 when the test passes). */
  failures: number;
}

export function reportReliability(row: ReliabilityRow): void {
  const dir = path.join(root, 'test-results');
  mkdirSync(dir, { recursive: true });
  appendFileSync(path.join(dir, 'reliability.jsonl'), `${JSON.stringify({ ...row, scale: SCALE, dialect: process.env.TEST_POSTGRES_URL ? 'postgres' : 'sqlite' })}\n`);
}
