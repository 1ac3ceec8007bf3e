import { describe, expect, it } from 'vitest';
import { safeUpdateReason } from './update-reason.ts';

describe('safeUpdateReason', () => {
  it('keeps the first line, removes addresses and credentials', () => {
    expect(safeUpdateReason(new Error('Error: getaddrinfo ENOTFOUND\nat https://x.example/a'))).toBe('Error: getaddrinfo ENOTFOUND');
    expect(safeUpdateReason(new Error('GET http://localhost:8080/latest.yml?token=s3cr3t failed'))).toBe('GET (address) failed');
    expect(safeUpdateReason(new Error('Bearer abcdefghijklmnop rejected'))).toBe('(hidden) rejected');
    expect(safeUpdateReason(new Error('bad token=xyz123'))).toBe('bad (hidden)');
    expect(safeUpdateReason(new Error('see www.example.com/path'))).toBe('see (address)');
    expect(safeUpdateReason(undefined)).toBe('unknown error');
    expect(safeUpdateReason(new Error('word '.repeat(60)))).toHaveLength(160);
    expect(safeUpdateReason(new Error(`signed ${'A'.repeat(40)} end`))).toBe('signed (hidden) end');
  });
});
