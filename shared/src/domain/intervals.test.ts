import { describe, expect, it } from 'vitest';
import { clipIntervals, mergeIntervals, overlaps, subtractIntervals } from './intervals.ts';

const iv = (start: number, end: number) => ({ start, end });

describe('mergeIntervals', () => {
  it('sorts, merges overlapping and touching, drops empty', () => {
    expect(mergeIntervals([iv(5, 7), iv(1, 2), iv(2, 3), iv(6, 9), iv(4, 4), iv(10, 8)])).toEqual([iv(1, 3), iv(5, 9)]);
  });
  it('keeps a gap of one millisecond', () => {
    expect(mergeIntervals([iv(1, 2), iv(3, 4)])).toEqual([iv(1, 2), iv(3, 4)]);
  });
  it('does not mutate its input', () => {
    const input = [iv(3, 4), iv(1, 3)];
    mergeIntervals(input);
    expect(input).toEqual([iv(3, 4), iv(1, 3)]);
  });
});

describe('subtractIntervals', () => {
  it('cuts holes, trims edges and removes covered parts', () => {
    expect(subtractIntervals([iv(0, 10), iv(20, 30)], [iv(2, 3), iv(5, 6), iv(9, 21), iv(29, 40)])).toEqual([
      iv(0, 2), iv(3, 5), iv(6, 9), iv(21, 29),
    ]);
  });
  it('touching busy time leaves the rest', () => {
    expect(subtractIntervals([iv(0, 10)], [iv(10, 12), iv(-5, 0)])).toEqual([iv(0, 10)]);
  });
  it('fully covered gives nothing; nothing to remove gives the merged base', () => {
    expect(subtractIntervals([iv(3, 4)], [iv(0, 10)])).toEqual([]);
    expect(subtractIntervals([iv(3, 4), iv(4, 6)], [])).toEqual([iv(3, 6)]);
  });
  it('one busy interval spanning several windows', () => {
    expect(subtractIntervals([iv(0, 2), iv(4, 6), iv(8, 10)], [iv(1, 9)])).toEqual([iv(0, 1), iv(9, 10)]);
  });
});

describe('clipIntervals / overlaps', () => {
  it('clips to [from, to)', () => {
    expect(clipIntervals([iv(0, 5), iv(6, 8), iv(9, 12)], 3, 10)).toEqual([iv(3, 5), iv(6, 8), iv(9, 10)]);
    expect(clipIntervals([iv(0, 3)], 3, 10)).toEqual([]);
  });
  it('overlaps is half-open', () => {
    expect(overlaps(iv(0, 2), iv(2, 3))).toBe(false);
    expect(overlaps(iv(0, 3), iv(2, 3))).toBe(true);
  });
});
