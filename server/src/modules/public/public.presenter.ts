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
}

/** `{ user_name, user_timezone, availability: { windows: [{ start, end }], range: { start, end } } }`, ISO `Z` instants. */
export function presentPublicAvailability(view: PublicAvailabilityView) {
  return {
    user_name: view.userName,
    user_timezone: view.userTimezone,
    availability: {
      windows: formatWindows(view.windows),
      range: { start: formatInstant(view.range.start), end: formatInstant(view.range.end) },
    },
  };
}
