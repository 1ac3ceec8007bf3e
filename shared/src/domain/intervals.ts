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

/**
 * Sorts and merges intervals; overlapping **or touching** intervals become one
 * (`[1,2)` + `[2,3)` → `[1,3)`). Empty or inverted intervals (`end <= start`) are dropped.
 */
export function mergeIntervals(intervals: readonly Interval[]): Interval[] {
  const xs = intervals.filter((i) => i.end > i.start).map((i) => ({ start: i.start, end: i.end }));
  xs.sort((a, b) => a.start - b.start || a.end - b.end);
  const out: Interval[] = [];
  for (const x of xs) {
    const last = out[out.length - 1];
    if (last && x.start <= last.end) {
      if (x.end > last.end) last.end = x.end;
    } else {
      out.push(x);
    }
  }
  return out;
}

/** `base − remove`: the parts of `base` covered by no interval of `remove`. Both may be unsorted. */
export function subtractIntervals(base: readonly Interval[], remove: readonly Interval[]): Interval[] {
  const a = mergeIntervals(base);
  const b = mergeIntervals(remove);
  const out: Interval[] = [];
  let j = 0;
  for (const iv of a) {
    let cur = iv.start;
    while (j < b.length && b[j].end <= cur) j++;
    let k = j;
    while (k < b.length && b[k].start < iv.end) {
      if (b[k].start > cur) out.push({ start: cur, end: b[k].start });
      if (b[k].end > cur) cur = b[k].end;
      if (cur >= iv.end) break;
      k++;
    }
    if (cur < iv.end) out.push({ start: cur, end: iv.end });
  }
  return out;
}

/** Merged intervals clipped to `[from, to)`; parts outside are cut off, empty results dropped. */
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
