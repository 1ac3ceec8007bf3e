import { describe, expect, it } from 'vitest';
import { checkSlots, issuesOfFieldErrors, slotErrorsFrom } from './slot-errors.ts';

const slot = (key: number, weekday: number, start: string, end: string) => ({ key, weekday, start_time_local: start, end_time_local: end });

describe('slot field errors (issue 23)', () => {
  it('marks the later of two overlapping slots on both its times, by its key', () => {
    const slots = [slot(7, 0, '09:00', '17:00'), slot(8, 1, '09:00', '17:00'), slot(9, 0, '10:00', '12:00')];
    expect(checkSlots(slots)).toEqual({
      slots: { 9: { fields: ['start_time_local', 'end_time_local'], message: 'This time slot overlaps another slot on the same day' } },
    });
  });
  it('marks only the field at fault for a bad time, and accepts back-to-back slots', () => {
    expect(checkSlots([slot(1, 0, '09:00', '12:00'), slot(2, 0, '12:00', '')])).toEqual({
      slots: { 2: { fields: ['end_time_local'], message: 'Please fill in all time fields' } },
    });
    expect(checkSlots([slot(1, 0, '09:00', '12:00'), slot(2, 0, '12:00', '17:00')])).toBeNull();
    expect(checkSlots([])).toEqual({ list: 'Please add at least one availability slot' });
  });
  it("reads the server's 422 field paths and the device database's", () => {
    const slots = [slot(3, 0, '09:00', '17:00'), slot(4, 0, '09:00', '17:00')];
    const server = issuesOfFieldErrors({ 'rules.1.start_time_local': 'This time slot is already set for this day' });
    expect(slotErrorsFrom(slots, server)).toEqual({ 4: { fields: ['start_time_local', 'end_time_local'], message: 'This time slot is already set for this day' } });
    expect(slotErrorsFrom(slots, [{ path: [0, 'end_time_local'], message: 'End time must be after start time' }])).toEqual({
      3: { fields: ['end_time_local'], message: 'End time must be after start time' },
    });
  });
});
