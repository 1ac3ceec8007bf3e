/**
 * The engine's sorted fast path (input already ordered by start, as read from the index) gives
 * exactly the windows of the general path, property-style over random inputs, and agrees with a
 * minute-grid reference.
 */
import { describe, expect, it } from 'vitest';
import { computeFreeWindows } from './free-windows.ts';
import { isSortedByStart, mergeIntervals, subtractIntervals, type Interval } from './intervals.ts';

function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const byStart = (a: Interval, b: Interval) => a.start - b.start || a.end - b.end;
function shuffle<T>(xs: T[], r: () => number): T[] {
  const out = xs.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
function randomIntervals(r: () => number, n: number, span: number): Interval[] {
  return Array.from({ length: n }, () => {
    const s = Math.floor(r() * span);
    // Some empty and inverted ones, some touching, many overlapping.
    const len = Math.floor(r() * 40) - 5;
    return { start: s, end: s + len };
  });
}
/** Reference: covered unit cells of [0, span). */
function cells(intervals: Interval[], span: number): boolean[] {
  const c = new Array<boolean>(span).fill(false);
  for (const i of intervals) for (let x = Math.max(0, i.start); x < Math.min(span, i.end); x++) c[x] = true;
  return c;
}

describe('sorted fast path', () => {
  it('isSortedByStart', () => {
    expect(isSortedByStart([])).toBe(true);
    expect(isSortedByStart([{ start: 1, end: 3 }, { start: 1, end: 4 }, { start: 2, end: 2 }])).toBe(true);
    expect(isSortedByStart([{ start: 1, end: 4 }, { start: 1, end: 3 }])).toBe(false);
    expect(isSortedByStart([{ start: 2, end: 3 }, { start: 1, end: 4 }])).toBe(false);
  });

  it('mergeIntervals and subtractIntervals: sorted input = shuffled input = reference (500 random cases)', () => {
    const r = rng(42);
    for (let k = 0; k < 500; k++) {
      const span = 300;
      const xs = randomIntervals(r, Math.floor(r() * 60), span);
      const sorted = xs.slice().sort(byStart);
      const mixed = shuffle(xs, r);
      const m = mergeIntervals(sorted);
      expect(mergeIntervals(mixed)).toEqual(m);
      expect(cells(m, span)).toEqual(cells(xs.filter((i) => i.end > i.start), span));
      for (let i = 1; i < m.length; i++) expect(m[i].start).toBeGreaterThan(m[i - 1].end);
      const base = randomIntervals(r, 10, span).sort(byStart);
      const diff = subtractIntervals(base, sorted);
      expect(subtractIntervals(shuffle(base, r), mixed)).toEqual(diff);
      const ref = cells(base.filter((i) => i.end > i.start), span).map((b, i) => b && !cells(sorted, span)[i]);
      expect(cells(diff, span)).toEqual(ref);
    }
  });

  it('never mutates its input', () => {
    const xs = [{ start: 1, end: 5 }, { start: 3, end: 9 }];
    const copy = JSON.parse(JSON.stringify(xs));
    mergeIntervals(xs);
    subtractIntervals(xs, [{ start: 2, end: 4 }]);
    expect(xs).toEqual(copy);
  });

  it('computeFreeWindows: busy sorted as from the index = busy in any order (200 random owners)', () => {
    const r = rng(7);
    const start = Date.UTC(2026, 2, 2);
    const H = 3_600_000;
    for (let k = 0; k < 200; k++) {
      const days = 1 + Math.floor(r() * 40);
      const busy = Array.from({ length: Math.floor(r() * 200) }, () => {
        const s = start + Math.floor(r() * days * 24 * 4) * 15 * 60_000 - 2 * H;
        return { start: s, end: s + Math.floor(r() * 12) * 15 * 60_000 };
      });
      const input = {
        timezone: ['Europe/Brussels', 'America/New_York', 'Asia/Kolkata'][k % 3],
        rules: [0, 1, 2, 3, 4].map((weekday) => ({ weekday, start_time_local: '09:00', end_time_local: '17:00' })),
        exceptions: [],
        rangeStart: start,
        rangeEnd: start + days * 24 * H,
        now: start + Math.floor(r() * 48) * H,
      };
      const sorted = computeFreeWindows({ ...input, busy: busy.slice().sort(byStart) });
      expect(computeFreeWindows({ ...input, busy: shuffle(busy, r) })).toEqual(sorted);
    }
  });
});
