import { describe, expect, it } from 'vitest';
import { nextSlotDefault, weeklyUnionMinutes } from './weekly-hours.ts';

const at = (weekday: number, start: string, end: string) => ({ weekday, start_time_local: start, end_time_local: end });

describe('nextSlotDefault', () => {
  it('starts on Monday 09:00–17:00 when there is no slot', () => {
    expect(nextSlotDefault([])).toEqual(at(0, '09:00', '17:00'));
  });
  it('moves to the next day without a slot, with the default hours 09:00–17:00', () => {
    expect(nextSlotDefault([at(0, '09:00', '17:00')])).toEqual(at(1, '09:00', '17:00'));
    expect(nextSlotDefault([at(0, '09:00', '17:00'), at(1, '10:00', '18:00')])).toEqual(at(2, '09:00', '17:00'));
    // Tuesday already has a slot: skipped.
    expect(nextSlotDefault([at(1, '09:00', '17:00'), at(0, '09:00', '12:00')])).toEqual(at(2, '09:00', '17:00'));
    // Wraps from Sunday to the first free day of the week.
    expect(nextSlotDefault([at(0, '09:00', '17:00'), at(6, '09:00', '17:00')])).toEqual(at(1, '09:00', '17:00'));
  });
  it('adding seven times fills Monday to Sunday', () => {
    const slots = [at(0, '09:00', '17:00')];
    for (let n = 0; n < 6; n++) slots.push(nextSlotDefault(slots));
    expect(slots.map((s) => s.weekday)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
  it('when every day has a slot, takes the day after the last slot’s day with the same hours', () => {
    const week = [0, 1, 2, 3, 4, 5, 6].map((d) => at(d, '09:00', '17:00'));
    expect(nextSlotDefault([...week, at(2, '18:00', '19:00')])).toEqual(at(3, '18:00', '19:00'));
    expect(nextSlotDefault(week)).toEqual(at(0, '09:00', '17:00'));
  });
});

describe('weeklyUnionMinutes', () => {
  it('counts repeated slots once (three Monday 09–17 are 8 hours, not 24)', () => {
    expect(weeklyUnionMinutes([at(0, '09:00', '17:00'), at(0, '09:00', '17:00'), at(0, '09:00', '17:00')])).toBe(8 * 60);
  });
  it('counts overlaps once and back-to-back slots in full', () => {
    expect(weeklyUnionMinutes([at(0, '09:00', '13:00'), at(0, '12:00', '17:00')])).toBe(8 * 60);
    expect(weeklyUnionMinutes([at(0, '09:00', '12:00'), at(0, '12:00', '17:00')])).toBe(8 * 60);
    expect(weeklyUnionMinutes([at(0, '09:00', '17:00'), at(0, '10:00', '11:00'), at(1, '09:00', '17:00')])).toBe(16 * 60);
  });
  it('adds separate slots and ignores empty or unreadable ones', () => {
    expect(weeklyUnionMinutes([at(0, '09:00', '12:00'), at(0, '13:00', '17:00')])).toBe(7 * 60);
    expect(weeklyUnionMinutes([at(0, '17:00', '09:00'), at(1, '', '')])).toBe(0);
  });
});
