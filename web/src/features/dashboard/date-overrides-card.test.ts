import { describe, expect, it } from 'vitest';
import { groupOverrides, validateOverride } from './date-overrides-card.tsx';
import { textPreview } from './email-text-card.tsx';
import { availabilityBlocksFor } from './week-calendar.tsx';

const ex = (id: string, date: string, start: string | null = null, end: string | null = null) => ({ id, date, start_time_local: start, end_time_local: end });

describe('date overrides', () => {
  it('lists upcoming dates only, in order, with a date\'s windows grouped and sorted', () => {
    const groups = groupOverrides(
      [ex('a', '2026-11-30', '14:00', '16:00'), ex('b', '2026-11-20'), ex('c', '2026-11-24'), ex('d', '2026-11-30', '09:00', '10:00')],
      '2026-11-22',
    );
    expect(groups.map((g) => g.date)).toEqual(['2026-11-24', '2026-11-30']);
    expect(groups[0].windows).toEqual([]);
    expect(groups[1].windows).toEqual([{ start: '09:00', end: '10:00' }, { start: '14:00', end: '16:00' }]);
    expect(groups[1].items.map((i) => i.id)).toEqual(['a', 'd']);
  });
  it('validates the add-override form with the spec messages', () => {
    const today = '2026-11-22';
    expect(validateOverride({ date: '', mode: 'off', start: '', end: '' }, today)).toBe('Please choose a date');
    expect(validateOverride({ date: '2026-11-21', mode: 'off', start: '', end: '' }, today)).toBe('Please choose today or a later date');
    expect(validateOverride({ date: today, mode: 'off', start: '', end: '' }, today)).toBe('');
    expect(validateOverride({ date: today, mode: 'custom', start: '', end: '12:00' }, today)).toBe('Please fill in all time fields');
    expect(validateOverride({ date: today, mode: 'custom', start: '12:00', end: '12:00' }, today)).toBe('End time must be after start time');
    expect(validateOverride({ date: today, mode: 'custom', start: '10:00', end: '12:00' }, today)).toBe('');
  });
});

describe('owner-screen formatting', () => {
  it('previews a text on one line, at most 60 characters', () => {
    const p = textPreview('Hi,\n\nHere are the times I\'m free: https://avail.example/jane-doe-long\n\nBest');
    expect(p).toBe("Hi, Here are the times I'm free: https://avail.example/jane-");
    expect(p.length).toBeLessThanOrEqual(60);
  });
});

describe('week preview with date overrides', () => {
  const rules = [{ weekday: 0, start_time_local: '09:00', end_time_local: '17:00' }];
  it('uses the weekly rule on a date without overrides', () => {
    expect(availabilityBlocksFor('2026-11-23', 0, rules, [])).toEqual([{ start: '09:00', end: '17:00', override: false }]);
  });
  it('shows nothing on a day off and exactly the custom hours otherwise', () => {
    expect(availabilityBlocksFor('2026-11-23', 0, rules, [ex('a', '2026-11-23')])).toEqual([]);
    expect(availabilityBlocksFor('2026-11-23', 0, rules, [ex('a', '2026-11-23'), ex('b', '2026-11-23', '14:00', '15:00'), ex('c', '2026-11-23', '10:00', '12:00')])).toEqual([
      { start: '10:00', end: '12:00', override: true },
      { start: '14:00', end: '15:00', override: true },
    ]);
    expect(availabilityBlocksFor('2026-11-30', 0, rules, [ex('a', '2026-11-23')])).toHaveLength(1);
  });
});
