/**
 * Weekly hours helpers (issue 23): the default of a new slot in the schedule editors and the
 * "hours per week" total. Weekdays are 0 = Monday … 6 = Sunday; times `HH:MM`.
 */
import { DEFAULT_RULE } from '../constants.ts';

export interface WeeklySlot {
  weekday: number;
  start_time_local: string;
  end_time_local: string;
}

const minutes = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + m;
};

/**
 * The slot 'Add Another Time Slot' adds (issue 23): 09:00–17:00 (the spec's default hours) on the
 * next weekday after the last slot's day (Monday → Sunday, wrapping) that has no slot yet; when
 * every day has one, the day after the last slot's day with the last slot's hours. No slots yet →
 * Monday 09:00–17:00.
 */
export function nextSlotDefault(slots: ReadonlyArray<WeeklySlot>): WeeklySlot {
  const last = slots[slots.length - 1];
  if (!last) return { ...DEFAULT_RULE };
  const used = new Set(slots.map((s) => Number(s.weekday)));
  const from = Number(last.weekday);
  for (let step = 1; step <= 7; step++) {
    const d = (from + step) % 7;
    if (!used.has(d)) return { ...DEFAULT_RULE, weekday: d };
  }
  return { weekday: (from + 1) % 7, start_time_local: last.start_time_local, end_time_local: last.end_time_local };
}

/**
 * Minutes per week the slots cover, counting each day's union (overlapping or repeated slots
 * count once); slots with an unreadable or empty range add nothing.
 */
export function weeklyUnionMinutes(slots: ReadonlyArray<WeeklySlot>): number {
  let total = 0;
  for (let day = 0; day < 7; day++) {
    const ranges = slots
      .filter((s) => Number(s.weekday) === day)
      .map((s) => [minutes(s.start_time_local), minutes(s.end_time_local)] as const)
      .filter(([a, b]) => Number.isFinite(a) && Number.isFinite(b) && b > a)
      .sort((x, y) => x[0] - y[0]);
    let end = -1;
    for (const [a, b] of ranges) {
      if (a >= end) total += b - a;
      else if (b > end) total += b - end;
      end = Math.max(end, b);
    }
  }
  return total;
}
