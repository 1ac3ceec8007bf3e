import { describe, expect, it } from 'vitest';
import { BUSY_BLOCK_MAX_MS } from '../constants.ts';
import { blockTimesProblem, busyBlockSchema, busyBlockSchemaAt, isBlockOver } from './block.schema.ts';

const H = 3_600_000;
const T = Date.UTC(2026, 5, 1, 9); // 2026-06-01 09:00Z
const firstIssue = (r: { success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } }) => r.error?.issues[0];

describe('busyBlockSchema', () => {
  it('takes a block with or without a note; a blank note becomes null and a note is trimmed', () => {
    expect(busyBlockSchema.parse({ start_ms: T, end_ms: T + H })).toEqual({ start_ms: T, end_ms: T + H, note: null });
    expect(busyBlockSchema.parse({ start_ms: T, end_ms: T + H, note: '  Dentist ' }).note).toBe('Dentist');
    expect(busyBlockSchema.parse({ start_ms: T, end_ms: T + H, note: '   ' }).note).toBeNull();
    expect(busyBlockSchema.parse({ start_ms: T, end_ms: T + H, note: null }).note).toBeNull();
  });

  it('refuses an end at or before the start with the spec message, keyed end_ms', () => {
    for (const end_ms of [T, T - 1]) {
      const issue = firstIssue(busyBlockSchema.safeParse({ start_ms: T, end_ms }));
      expect(issue?.message).toBe('The end must be after the start.');
      expect(issue?.path).toEqual(['end_ms']);
    }
  });

  it('allows exactly 14 days and refuses one millisecond more', () => {
    expect(busyBlockSchema.safeParse({ start_ms: T, end_ms: T + BUSY_BLOCK_MAX_MS }).success).toBe(true);
    expect(firstIssue(busyBlockSchema.safeParse({ start_ms: T, end_ms: T + BUSY_BLOCK_MAX_MS + 1 }))?.message).toBe(
      'A busy block can last at most 14 days.',
    );
    expect(BUSY_BLOCK_MAX_MS).toBe(14 * 24 * H);
  });

  it('refuses a note over 200 characters (after trimming)', () => {
    expect(busyBlockSchema.safeParse({ start_ms: T, end_ms: T + H, note: 'x'.repeat(200) }).success).toBe(true);
    expect(busyBlockSchema.safeParse({ start_ms: T, end_ms: T + H, note: ` ${'x'.repeat(200)} ` }).success).toBe(true);
    const issue = firstIssue(busyBlockSchema.safeParse({ start_ms: T, end_ms: T + H, note: 'x'.repeat(201) }));
    expect(issue?.message).toBe('The note can be at most 200 characters.');
    expect(issue?.path).toEqual(['note']);
  });

  it('refuses times that are not integer epoch milliseconds (no string coercion)', () => {
    for (const start_ms of ['2026-06-01T09:00:00Z', String(T), T + 0.5, -1, 2e15, null, undefined, Number.NaN]) {
      const r = busyBlockSchema.safeParse({ start_ms, end_ms: T + H });
      expect(r.success, String(start_ms)).toBe(false);
      expect(firstIssue(r)?.message).toBe('The start must be a time in UTC epoch milliseconds.');
    }
    expect(firstIssue(busyBlockSchema.safeParse({ start_ms: T }))?.message).toBe('The end must be a time in UTC epoch milliseconds.');
  });

  it('is clock-free: a block long over is still well-formed', () => {
    expect(busyBlockSchema.safeParse({ start_ms: 0, end_ms: H }).success).toBe(true);
  });
});

describe('busyBlockSchemaAt(now)', () => {
  it('refuses a block that is already over (end ≤ now)', () => {
    for (const end_ms of [T, T - H]) {
      const issue = firstIssue(busyBlockSchemaAt(T).safeParse({ start_ms: end_ms - H, end_ms }));
      expect(issue?.message).toBe('This time is already over.');
      expect(issue?.path).toEqual(['end_ms']);
    }
  });

  it('accepts a block that has started but not ended, and one in the future', () => {
    expect(busyBlockSchemaAt(T).safeParse({ start_ms: T - H, end_ms: T + 1 }).success).toBe(true);
    expect(busyBlockSchemaAt(T).safeParse({ start_ms: T + H, end_ms: T + 2 * H }).success).toBe(true);
  });

  it('reports the order problem first when a block is both reversed and over', () => {
    expect(firstIssue(busyBlockSchemaAt(T).safeParse({ start_ms: T - H, end_ms: T - 2 * H }))?.message).toBe('The end must be after the start.');
    expect(busyBlockSchemaAt(T).safeParse({ start_ms: T - H, end_ms: T - 2 * H }).error?.issues).toHaveLength(1);
  });
});

describe('blockTimesProblem / isBlockOver', () => {
  it('name the first problem, or null for a good block', () => {
    expect(blockTimesProblem({ start_ms: T, end_ms: T + H })).toBeNull();
    expect(blockTimesProblem({ start_ms: T, end_ms: T + H }, T + H)).toBe('This time is already over.');
    expect(blockTimesProblem({ start_ms: T, end_ms: T + 15 * 24 * H }, T + H)).toBe('A busy block can last at most 14 days.');
    expect(isBlockOver({ end_ms: T }, T)).toBe(true);
    expect(isBlockOver({ end_ms: T + 1 }, T)).toBe(false);
  });
});
