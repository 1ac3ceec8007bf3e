import { describe, expect, it } from 'vitest';
import { normaliseTime } from './time-input.tsx';

describe('normaliseTime', () => {
  it('reads what owners type as 24-hour HH:MM', () => {
    expect(['9', '09', '9:00', '09:00', '900', '0900', '9.00', '9h00'].map(normaliseTime)).toEqual(Array(8).fill('09:00'));
    expect(normaliseTime('17:30')).toBe('17:30');
    expect(normaliseTime('1730')).toBe('17:30');
    expect(normaliseTime('23:59')).toBe('23:59');
  });
  it('leaves what is not a time as typed (the form then says what is wrong)', () => {
    for (const t of ['24:00', '9:60', 'abc', '', '9:5', '12345']) expect(normaliseTime(t)).toBe(t);
  });
});
