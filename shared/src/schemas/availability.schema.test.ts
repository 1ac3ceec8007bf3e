import { describe, expect, it } from 'vitest';
import { availabilityRuleSchema, exceptionSchema } from './availability.schema.ts';

const rule = (over: Record<string, unknown>) => ({ weekday: 0, start_time_local: '09:00', end_time_local: '17:00', ...over });
const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe('availabilityRuleSchema', () => {
  it('accepts a weekday given as a number or a numeric string', () => {
    expect(availabilityRuleSchema.parse(rule({ weekday: 6 })).weekday).toBe(6);
    expect(availabilityRuleSchema.parse(rule({ weekday: '3' })).weekday).toBe(3);
  });
  it('refuses a missing, null or out-of-range weekday instead of reading it as Monday', () => {
    for (const weekday of [null, undefined, '', 7, -1, 1.5, 'monday']) {
      const r = availabilityRuleSchema.safeParse(rule({ weekday }));
      expect(r.success, `weekday ${String(weekday)}`).toBe(false);
      expect(firstMessage(r)).toBe('Weekday must be 0 (Monday) to 6 (Sunday)');
    }
  });
  it("uses the spec's messages for times", () => {
    expect(firstMessage(availabilityRuleSchema.safeParse(rule({ start_time_local: '' })))).toBe('Please fill in all time fields');
    expect(firstMessage(availabilityRuleSchema.safeParse(rule({ start_time_local: '9:00' })))).toBe('Time format must be HH:MM (24-hour format)');
    expect(firstMessage(availabilityRuleSchema.safeParse(rule({ end_time_local: '24:00' })))).toBe('Time format must be HH:MM (24-hour format)');
    expect(firstMessage(availabilityRuleSchema.safeParse(rule({ start_time_local: '17:00', end_time_local: '09:00' })))).toBe('End time must be after start time');
  });
});

describe('exceptionSchema', () => {
  it('takes a day off (both times null) and custom hours', () => {
    expect(exceptionSchema.parse({ date: '2026-12-24' })).toEqual({ date: '2026-12-24', start_time_local: null, end_time_local: null });
    expect(exceptionSchema.parse({ date: '2026-12-24', start_time_local: '10:00', end_time_local: '12:00' }).end_time_local).toBe('12:00');
  });
  it('refuses exactly one null time and impossible dates', () => {
    expect(exceptionSchema.safeParse({ date: '2026-12-24', start_time_local: '10:00', end_time_local: null }).success).toBe(false);
    expect(exceptionSchema.safeParse({ date: '2026-02-30' }).success).toBe(false);
  });
});
