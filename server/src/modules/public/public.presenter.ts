/**
 * The only code that serialises availability for visitors. It receives plain instants and the
 * owner's display name and zone — never events, titles, calendars or rules — so nothing else can leak.
 */
import { formatInstant, formatWindows } from '@avail/shared/domain/free-windows.ts';

export interface PublicAvailabilityView {
  userName: string;
  userTimezone: string;
  /** Free windows, UTC ms, sorted and disjoint. */
  windows: ReadonlyArray<{ start: number; end: number }>;
  /** The requested range resolved to instants (UTC ms). */
  range: { start: number; end: number };
  /** Oldest last good sync of the owner's calendars (UTC ms), null when none; and whether the busy time may be out of date. */
  freshness: { asOf: number | null; stale: boolean };
  /** UTC offset changes of the owner's zone and the visitor's inside the range (offsets in minutes east of UTC). */
  zoneChanges: ReadonlyArray<{ instant: number; zone: string; offsetBefore: number; offsetAfter: number }>;
}

/**
 * Windows narrowed to whole seconds (start rounded up, end down) and dropped when nothing is left,
 * so second-precision output never shows a free instant the computation did not (e.g. a window
 * starting at now = 12:00:00.400 is `12:00:01Z`, not `12:00:00Z`, which is before now).
 */
export function toWholeSeconds(windows: ReadonlyArray<{ start: number; end: number }>): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  for (const w of windows) {
    const start = Math.ceil(w.start / 1000) * 1000;
    const end = Math.floor(w.end / 1000) * 1000;
    if (end > start) out.push({ start, end });
  }
  return out;
}

/**
 * `{ user_name, user_timezone, as_of, stale, zone_changes: [{ at, zone, offset_before, offset_after }],
 * availability: { windows: [{ start, end }], range: { start, end } } }`, ISO `Z` instants; `as_of`
 * null when the owner has no calendar connected; offsets in minutes east of UTC.
 */
export function presentPublicAvailability(view: PublicAvailabilityView) {
  return {
    user_name: view.userName,
    user_timezone: view.userTimezone,
    as_of: view.freshness.asOf == null ? null : formatInstant(view.freshness.asOf),
    stale: view.freshness.stale,
    zone_changes: view.zoneChanges.map((c) => ({ at: formatInstant(c.instant), zone: c.zone, offset_before: c.offsetBefore, offset_after: c.offsetAfter })),
    availability: {
      windows: formatWindows(toWholeSeconds(view.windows)),
      range: { start: formatInstant(view.range.start), end: formatInstant(view.range.end) },
    },
  };
}
