/**
 * The public answer's free windows as the public page shows them (issue 15, issue 22 item 2), pure:
 * cut into per-day segments of the shown dates, the first free time after the shown period, and
 * the first date with free time (where a page without a date in its address opens). Instants are
 * UTC epoch ms; dates are YYYY-MM-DD in the shown zone `tz` (IANA).
 */
import type { PublicAvailability } from '@avail/shared/api/api-client.ts';
import { addDays, dateInZone, splitByDay, zonedToUtc, type DaySegment } from '../../lib/time.ts';

/** The first plain date (in `tz`) from `today` on with a free window of `data` ending after `now`, or null. */
export function firstFreeDate(data: PublicAvailability | null, now: number, tz: string): string | null {
  if (!data) return null;
  for (const w of data.availability.windows ?? []) {
    const e = Date.parse(w.end);
    if (e > now) return dateInZone(Math.max(Date.parse(w.start), now), tz);
  }
  return data.next_free ? dateInZone(Date.parse(data.next_free), tz) : null;
}

/** The windows of `data` overlapping `dates` (consecutive, in `tz`), cut into per-day segments; [] without an answer. */
export function daySegmentsOf(data: PublicAvailability | null, dates: string[], tz: string): DaySegment[] {
  if (!data) return [];
  const out: DaySegment[] = [];
  // Only windows overlapping the shown dates (an answer may cover more).
  const from = zonedToUtc(dates[0], 0, tz);
  const to = zonedToUtc(addDays(dates[dates.length - 1], 1), 0, tz);
  for (const w of data.availability.windows ?? []) {
    const s = Date.parse(w.start);
    const e = Date.parse(w.end);
    if (Number.isFinite(s) && Number.isFinite(e) && e > s && s < to && e > from) out.push(...splitByDay(s, e, dates, tz));
  }
  return out;
}

/** The first free time after the shown `dates` (UTC ms): a later window of the answer, else its next_free; null when none. */
export function nextFreeAfter(data: PublicAvailability | null, dates: string[], tz: string): number | null {
  if (!data) return null;
  const to = zonedToUtc(addDays(dates[dates.length - 1], 1), 0, tz);
  for (const w of data.availability.windows ?? []) {
    const s = Date.parse(w.start);
    if (s >= to) return s;
  }
  const n = data.next_free ? Date.parse(data.next_free) : NaN;
  return Number.isFinite(n) && n >= to ? n : null;
}
