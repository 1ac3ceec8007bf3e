/**
 * The owner's week grid laid out (spec §4 Dashboard calendar, §9 grid): where each availability
 * block, event and manual busy block sits on the shown dates, and the hours shown. Pure.
 */
import type { AvailabilityRule, CalendarEvent } from '@avail/shared/api/api-client.ts';
import { dashboardHourRange, dateInZone, hhmmToMinutes, splitByDay, weekdayMon0 } from '../../lib/time.ts';
import type { BlockView } from '../../data/local-data.tsx';

/** A date override as the preview needs it (availability-semantics.md: both times null = day off). */
export interface PreviewException {
  date?: string;
  start_time_local?: string | null;
  end_time_local?: string | null;
}

/**
 * Availability blocks of one date: its date overrides' windows when it has any (its weekly rules
 * are then ignored; a day off gives none), else the weekly rules of its weekday (0 = Monday).
 */
export function availabilityBlocksFor(date: string, weekday: number, rules: AvailabilityRule[], exceptions: PreviewException[]): { start: string; end: string; override: boolean }[] {
  const exc = exceptions.filter((e) => e.date === date);
  if (exc.length) {
    return exc
      .filter((e) => e.start_time_local && e.end_time_local)
      .map((e) => ({ start: e.start_time_local!, end: e.end_time_local!, override: true }))
      .sort((a, b) => a.start.localeCompare(b.start));
  }
  return rules.filter((r) => r.weekday === weekday).map((r) => ({ start: r.start_time_local, end: r.end_time_local, override: false }));
}

/** A piece of something on one date, in minutes after that date's local midnight. */
interface DayPiece {
  date: string;
  startMin: number;
  endMin: number;
}

export interface WeekLayout {
  /** Timed events cut per date. */
  timed: Array<DayPiece & { ev: CalendarEvent }>;
  /** All-day events with the shown dates they cover. */
  allDay: Array<{ ev: CalendarEvent; dates: string[] }>;
  /** Availability blocks per shown date (index = column). */
  blocks: ReturnType<typeof availabilityBlocksFor>[];
  /** Manual busy blocks cut per date. */
  busy: Array<DayPiece & { block: BlockView }>;
  /** Hours shown: at least 08–20, widened around what is on the grid. */
  range: { start: number; end: number };
}

/**
 * Lays out `dates` (YYYY-MM-DD, Monday first) in `timezone`: `events` (UTC instants; all-day ones
 * as the owner's local midnights, end exclusive), the weekly `rules` with `exceptions`, and the
 * manual `busyBlocks` (UTC ms).
 */
export function weekLayout(p: {
  events: CalendarEvent[];
  rules: AvailabilityRule[];
  exceptions: PreviewException[];
  dates: string[];
  timezone: string;
  busyBlocks: BlockView[];
}): WeekLayout {
  const { events, rules, exceptions, dates, timezone, busyBlocks } = p;
  const timed: WeekLayout['timed'] = [];
  const allDay: WeekLayout['allDay'] = [];
  for (const ev of events) {
    const s = Date.parse(ev.start);
    const e = Date.parse(ev.end);
    if (!Number.isFinite(s) || !Number.isFinite(e)) continue;
    if (ev.all_day) {
      // All-day events arrive as the instants of the owner's local midnights (end exclusive).
      const startD = ev.start.length > 10 ? dateInZone(s, timezone) : ev.start.slice(0, 10);
      const endD = ev.end.length > 10 ? dateInZone(e, timezone) : ev.end.slice(0, 10);
      const covered = dates.filter((d) => d >= startD && (d < endD || (d === startD && endD <= startD)));
      if (covered.length) allDay.push({ ev, dates: covered });
      continue;
    }
    for (const seg of splitByDay(s, e, dates, timezone)) timed.push({ ev, date: seg.date, startMin: seg.startMin, endMin: seg.endMin });
  }
  // The rule weekday of each date (0 = Monday), whatever day the shown week starts on.
  const blocks = dates.map((d) => availabilityBlocksFor(d, weekdayMon0(d), rules, exceptions));
  const busy: WeekLayout['busy'] = [];
  for (const block of busyBlocks) {
    for (const seg of splitByDay(block.start_ms, block.end_ms, dates, timezone)) busy.push({ block, date: seg.date, startMin: seg.startMin, endMin: seg.endMin });
  }
  const items: [number, number][] = [
    ...blocks.flat().map((b) => [hhmmToMinutes(b.start), hhmmToMinutes(b.end)] as [number, number]),
    ...timed.map((t) => [t.startMin, t.endMin] as [number, number]),
    ...busy.map((t) => [t.startMin, t.endMin] as [number, number]),
  ];
  return { timed, allDay, blocks, busy, range: dashboardHourRange(items) };
}
