import { describe, expect, it } from 'vitest';
import { weekScrollState, weekScrollStep } from './week-scroll.ts';

describe('weekScrollState', () => {
  it('a week that fits has nothing hidden', () => {
    expect(weekScrollState(0, 1100, 1100)).toEqual({ overflows: false, moreBefore: false, moreAfter: false });
  });
  it('at the start of a wide week, the later days are hidden', () => {
    expect(weekScrollState(0, 330, 720)).toEqual({ overflows: true, moreBefore: false, moreAfter: true });
  });
  it('in the middle, days are hidden on both sides', () => {
    expect(weekScrollState(200, 330, 720)).toEqual({ overflows: true, moreBefore: true, moreAfter: true });
  });
  it('at the end (rounded scroll positions count), only earlier days are hidden', () => {
    expect(weekScrollState(389.6, 330, 720)).toEqual({ overflows: true, moreBefore: true, moreAfter: false });
  });
});

describe('weekScrollStep', () => {
  it('scrolls by the whole days that fit beside the hour gutter', () => {
    expect(weekScrollStep(330, 56, 96)).toBe(192);
  });
  it('scrolls at least one day on a very narrow box', () => {
    expect(weekScrollStep(120, 56, 96)).toBe(96);
  });
});
