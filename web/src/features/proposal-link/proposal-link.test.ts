import { describe, expect, it } from 'vitest';
import { ApiError } from '@avail/shared/api/api-client.ts';
import { INVALID_LINK_MESSAGE, NETWORK_MESSAGE, linkErrorText, tokenFromHash } from './proposal-link.ts';

describe('one-click proposal link', () => {
  it('reads the token from the fragment only', () => {
    expect(tokenFromHash('#t=abc.def-ghi')).toBe('abc.def-ghi');
    expect(tokenFromHash('t=abc&x=1')).toBe('abc');
    expect(tokenFromHash('#t=a%2Bb')).toBe('a+b');
    expect(tokenFromHash('')).toBeNull();
    expect(tokenFromHash('#t=')).toBeNull();
    expect(tokenFromHash('#proposals')).toBeNull();
  });
  it('404 is not valid; 410 and 409 say the server\'s words; no answer is a connection problem', () => {
    expect(linkErrorText(new ApiError('Not found', 404, { error: 'Not found' }))).toBe(INVALID_LINK_MESSAGE);
    expect(linkErrorText(new ApiError('x', 410, { error: 'This link has already been used.', code: 'used' }))).toBe('This link has already been used.');
    expect(linkErrorText(new ApiError('x', 409, { error: 'That time is no longer free.', code: 'not_free' }))).toBe('That time is no longer free.');
    expect(linkErrorText(new TypeError('Failed to fetch'))).toBe(NETWORK_MESSAGE);
  });
});
