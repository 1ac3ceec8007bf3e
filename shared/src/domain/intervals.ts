/**
 * Half-open instant intervals `[start, end)`, both UTC epoch milliseconds.
 * All functions are pure; inputs are never mutated. Outputs of {@link mergeIntervals},
 * {@link subtractIntervals} and {@link clipIntervals} are sorted, disjoint, non-touching and
 * non-empty (`start < end`).
 */

export interface Interval {
  start: number;
  end: number;
}

/** Order of {@link mergeIntervals}: by start, then by end. */
function byStartThenEnd(a: Interval, b: Interval): number {
  return a.start - b.start || a.end - b.end;
}

/**
 * True when `intervals` are already in {@link mergeIntervals}' order (start, then end ascending),
 * e.g. rows read with `ORDER BY start_ms, end_ms`. One linear pass.
 */
export function isSortedByStart(intervals: readonly Interval[]): boolean {
  for (let i = 1; i < intervals.length; i++) {
    const a = intervals[i - 1];
    const b = intervals[i];
    if (b.start < a.start || (b.start === a.start && b.end < a.end)) return false;
  }
  return true;
}

/**
 * Sorts and merges intervals; overlapping **or touching** intervals become one
 * (`[1,2)` + `[2,3)` → `[1,3)`). Empty or inverted intervals (`end <= start`) are dropped.
 * Input already sorted (see {@link isSortedByStart}) skips the sort: one linear pass. Returns new
 * objects (the input is never mutated).
 */
export function mergeIntervals(intervals: readonly Interval[]): Interval[] {
  let xs = intervals;
  if (!isSortedByStart(xs)) {
    xs = intervals.slice();
    (xs as Interval[]).sort(byStartThenEnd);
  }
  const out: Interval[] = [];
  let last: Interval | undefined;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i];
    if (!(x.end > x.start)) continue;
    if (last && x.start <= last.end) {
      if (x.end > last.end) last.end = x.end;
    } else {
      last = { start: x.start, end: x.end };
      out.push(last);
    }
  }
  return out;
}

/**
 * `base − remove`: the parts of `base` covered by no interval of `remove`. Both may be unsorted;
 * sorted inputs are merged and walked in one linear pass each (no sort).
 */
export function subtractIntervals(base: readonly Interval[], remove: readonly Interval[]): Interval[] {
  const a = mergeIntervals(base);
  // Sorted by start is enough for the walk below (no need to merge or copy); otherwise sort + merge.
  const b = isSortedByStart(remove) ? remove : mergeIntervals(remove);
  const out: Interval[] = [];
  let j = 0;
  for (const iv of a) {
    let cur = iv.start;
    // Removals ending by `cur` can touch neither this window nor any later one.
    while (j < b.length && b[j].end <= cur) j++;
    for (let k = j; k < b.length && b[k].start < iv.end; k++) {
      const r = b[k];
      if (r.end <= r.start) continue; // empty or inverted: removes nothing
      if (r.start > cur) out.push({ start: cur, end: r.start });
      if (r.end > cur) cur = r.end;
      if (cur >= iv.end) break;
    }
    if (cur < iv.end) out.push({ start: cur, end: iv.end });
  }
  return out;
}

/** Merged intervals clipped to `[from, to)`; parts outside are cut off, empty results dropped. Linear for sorted input. */
export function clipIntervals(intervals: readonly Interval[], from: number, to: number): Interval[] {
  const out: Interval[] = [];
  for (const iv of mergeIntervals(intervals)) {
    const s = Math.max(iv.start, from);
    const e = Math.min(iv.end, to);
    if (e > s) out.push({ start: s, end: e });
  }
  return out;
}

/** `true` when `[a.start, a.end)` and `[b.start, b.end)` share at least one instant. */
export function overlaps(a: Interval, b: Interval): boolean {
  return a.start < b.end && b.start < a.end;
}
