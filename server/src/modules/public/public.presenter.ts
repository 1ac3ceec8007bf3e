/**
 * The only code that serialises availability for visitors. It receives plain instants and the
 * owner's display name, zone, introduction and picture version — never events, titles, calendars or
 * rules — so nothing else can leak.
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
  /** The host shown once on the page (issue 22): the public slug (lower-cased), intro and picture version. */
  host: { slug: string; intro: string | null; avatarVersion: string | null };
  /**
   * Only when the range has nothing free from now on: the first free time after it (UTC ms, whole
   * seconds) within the public horizon, or null when there is none (issue 22: free time first).
   */
  nextFree?: number | null;
}

/**
 * Root-relative URL of a host's picture: `/api/public/{slug}/avatar.webp?v={version}` (a versioned,
 * immutable URL: a new picture gets a new `v`). A visitor who came through a personal link adds
 * `&key=…` (the answer itself never carries a key).
 */
export function publicAvatarPath(slug: string, version: string): string {
  return `/api/public/${encodeURIComponent(slug.toLowerCase())}/avatar.webp?v=${encodeURIComponent(version)}`;
}

/**
 * Windows narrowed to whole seconds (start rounded up, end down) and dropped when nothing is left,
 * so second-precision output never shows a free instant the computation did not (e.g. a window
 * starting at now = 12:00:00.400 is `12:00:01Z`, not `12:00:00Z`, which is before now).
 */
function toWholeSeconds(windows: ReadonlyArray<{ start: number; end: number }>): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  for (const w of windows) {
    const start = Math.ceil(w.start / 1000) * 1000;
    const end = Math.floor(w.end / 1000) * 1000;
    if (end > start) out.push({ start, end });
  }
  return out;
}

/**
 * `{ user_name, user_timezone, host: { intro, avatar_url }, as_of, stale, zone_changes: [{ at, zone, offset_before, offset_after }],
 * availability: { windows: [{ start, end }], range: { start, end } } }`, ISO `Z` instants; `as_of`
 * null when the owner has no calendar connected; offsets in minutes east of UTC. `host.intro`: the
 * owner's one-line introduction or null; `host.avatar_url`: publicAvatarPath or null without a picture;
 * `next_free` (ISO `Z` or null) only when the range holds nothing free from now on.
 */
export function presentPublicAvailability(view: PublicAvailabilityView) {
  return {
    user_name: view.userName,
    user_timezone: view.userTimezone,
    host: { intro: view.host.intro, avatar_url: view.host.avatarVersion ? publicAvatarPath(view.host.slug, view.host.avatarVersion) : null },
    as_of: view.freshness.asOf == null ? null : formatInstant(view.freshness.asOf),
    stale: view.freshness.stale,
    zone_changes: view.zoneChanges.map((c) => ({ at: formatInstant(c.instant), zone: c.zone, offset_before: c.offsetBefore, offset_after: c.offsetAfter })),
    ...(view.nextFree === undefined ? {} : { next_free: view.nextFree === null ? null : formatInstant(view.nextFree) }),
    availability: {
      windows: formatWindows(toWholeSeconds(view.windows)),
      range: { start: formatInstant(view.range.start), end: formatInstant(view.range.end) },
    },
  };
}
