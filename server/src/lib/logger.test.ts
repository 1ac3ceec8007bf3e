import { describe, expect, it } from 'vitest';
import { logFormatFor } from './logger.ts';

describe('log format', () => {
  it('is readable on a terminal and JSON lines anywhere else, unless LOG_FORMAT says otherwise', () => {
    expect(logFormatFor(true)).toBe('pretty');
    expect(logFormatFor(false)).toBe('json');
    expect(logFormatFor(true, 'json')).toBe('json');
    expect(logFormatFor(false, 'pretty')).toBe('pretty');
    expect(logFormatFor(false, 'yaml')).toBe('json');
  });
});
