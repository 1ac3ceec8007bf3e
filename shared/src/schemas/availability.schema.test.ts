import { describe, expect, it } from 'vitest';
import {
  availabilityRuleSchema, availabilityRulesListSchema, DUPLICATE_SLOT_MESSAGE, exceptionSchema, OVERLAPPING_SLOT_MESSAGE,
} from './availability.schema.ts';

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

describe('availabilityRulesListSchema: slots of one day (issue 23)', () => {
  const at = (weekday: number, start: string, end: string) => ({ weekday, start_time_local: start, end_time_local: end });
  const errorsOf = (rules: unknown[]) => {
    const r = availabilityRulesListSchema.safeParse({ rules });
    return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
  };

  it('refuses a repeated slot, naming the later one', () => {
    expect(errorsOf([at(0, '09:00', '17:00'), at(0, '09:00', '17:00'), at(0, '09:00', '17:00')])).toEqual({
      'rules.1.start_time_local': DUPLICATE_SLOT_MESSAGE,
      'rules.2.start_time_local': DUPLICATE_SLOT_MESSAGE,
    });
  });
  it('refuses an overlapping slot on the same day, naming the later one in the list', () => {
    expect(errorsOf([at(2, '12:00', '17:00'), at(1, '08:00', '20:00'), at(2, '09:00', '13:00')])).toEqual({
      'rules.2.start_time_local': OVERLAPPING_SLOT_MESSAGE,
    });
    expect(errorsOf([at(3, '09:00', '17:00'), at(3, '10:00', '11:00')])).toEqual({ 'rules.1.start_time_local': OVERLAPPING_SLOT_MESSAGE });
  });
  it('accepts back-to-back slots and the same hours on different days', () => {
    expect(availabilityRulesListSchema.safeParse({ rules: [at(0, '09:00', '12:00'), at(0, '12:00', '17:00'), at(1, '09:00', '17:00')] }).success).toBe(true);
  });
  it('reports a slot with a bad range by its own message, not as an overlap', () => {
    expect(errorsOf([at(0, '09:00', '17:00'), at(0, '18:00', '10:00')])).toEqual({ 'rules.1.end_time_local': 'End time must be after start time' });
  });
});
