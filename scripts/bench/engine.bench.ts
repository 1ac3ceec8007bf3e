/**
 * Engine measurements (in this process, warm):
 *  - conformance: parse + expand + free windows per conformance case (mean over 10 rounds);
 *  - P1: free windows over 1 year with 10,000 busy intervals arriving sorted (as from the
 *    (user_id, start_ms) index) against sorting those 10,000 intervals from a shuffled order with
 *    the engine's comparator — both medians of 41 runs; target ratio ≤ 1.0. Also reported: the
 *    engine on the shuffled input (it must sort), and a stricter baseline, a numeric Float64Array
 *    sort of the 10,000 start times;
 *  - 93 days of windows with 500 busy intervals.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { computeFreeWindows, validateOwnerSchedule } from '@avail/shared/domain/free-windows.ts';
import { resolveRangeObject } from '@avail/shared/domain/public-range.ts';
import { icsToBusy } from '@avail/shared/ical/index.ts';
import { median, prng, round, stats, type Log } from './util.ts';

/** Conformance cases through the engine, ms per case. */
export function benchConformance(conformanceDir: string, log: Log) {
  if (!existsSync(conformanceDir)) return { skipped: `no conformance cases at ${conformanceDir}` };
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
  for (let i = 0; i < 10; i++) {
    const t0 = performance.now();
    runAll();
    rounds.push((performance.now() - t0) / loaded.length);
  }
  log(`conformance: ${loaded.length} cases, ${stats(rounds).mean_ms} ms per case`);
  return { cases: loaded.length, ...stats(rounds) };
}

const RULES = [0, 1, 2, 3, 4].map((weekday) => ({ weekday, start_time_local: '09:00', end_time_local: '17:00' }));
const byStart = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start - b.start || a.end - b.end;

/** P1: engine on 1 year × 10,000 sorted busy intervals vs sorting them (shuffled), same process. */
export function benchEngineVsSort(log: Log) {
  const start = Date.parse('2026-03-02T00:00:00Z');
  const YEAR = 365 * 86_400_000;
  const N = 10_000;
  const rnd = prng(11);
  const busy = Array.from({ length: N }, () => {
    const s = start + Math.floor(rnd() * YEAR / 60_000) * 60_000;
    return { start: s, end: s + (1 + Math.floor(rnd() * 8)) * 15 * 60_000 };
  }).sort(byStart);
  const shuffled = busy.slice();
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
  }
  const engine = (input: typeof busy) => computeFreeWindows({ timezone: 'Europe/Brussels', rules: RULES, exceptions: [], busy: input, rangeStart: start, rangeEnd: start + YEAR, now: start });
  const sortOnly = () => shuffled.slice().sort(byStart);
  // A stricter baseline, reported too: the 10,000 start times alone as a Float64Array, numeric sort.
  const shuffledStarts = Float64Array.from(shuffled, (b) => b.start);
  const sortTyped = () => shuffledStarts.slice().sort();
  const time = (f: () => unknown) => {
    const t0 = performance.now();
    f();
    return performance.now() - t0;
  };
  for (let i = 0; i < 30; i++) {
    engine(busy);
    engine(shuffled);
    sortOnly();
  }
  const e: number[] = [];
  const u: number[] = [];
  const s: number[] = [];
  const ty: number[] = [];
  // Interleaved so machine load hits all three alike.
  for (let i = 0; i < 41; i++) {
    e.push(time(() => engine(busy)));
    s.push(time(sortOnly));
    u.push(time(() => engine(shuffled)));
    ty.push(time(sortTyped));
  }
  const result = {
    busy_intervals: N,
    days: 365,
    engine_sorted_input_ms: round(median(e)),
    engine_unsorted_input_ms: round(median(u)),
    sort_shuffled_ms: round(median(s)),
    ratio: round(median(e) / median(s)),
    target: '≤ 1.0',
    sort_typed_starts_ms: round(median(ty)),
    ratio_vs_typed_starts_sort: round(median(e) / median(ty)),
  };
  log(`P1 engine vs sort: engine ${result.engine_sorted_input_ms} ms (unsorted input ${result.engine_unsorted_input_ms} ms), sort ${result.sort_shuffled_ms} ms → ${result.ratio}× (vs a Float64Array sort of the starts, ${result.sort_typed_starts_ms} ms: ${result.ratio_vs_typed_starts_sort}×)`);
  return result;
}

/** 93 days of windows, 500 busy intervals. */
export function bench93Days(log: Log) {
  const start = Date.parse('2026-03-01T00:00:00Z');
  const busy = Array.from({ length: 500 }, (_, i) => ({ start: start + i * 4.4 * 3_600_000, end: start + i * 4.4 * 3_600_000 + 45 * 60_000 }));
  const samples: number[] = [];
  for (let i = 0; i < 300; i++) {
    const t0 = performance.now();
    computeFreeWindows({ timezone: 'Europe/Brussels', rules: RULES, exceptions: [], busy, rangeStart: start, rangeEnd: start + 93 * 86_400_000, now: start });
    samples.push(performance.now() - t0);
  }
  const r = stats(samples.slice(20));
  log(`engine 93 days × 500 busy: ${r.p50_ms} ms p50`);
  return r;
}
