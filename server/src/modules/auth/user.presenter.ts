/** The User JSON of the API (product spec §3). The only place a users row is serialised. */
import { USERNAME_CHANGE_INTERVAL_DAYS } from '@avail/shared/constants.ts';
import type { OwnerFormatPrefs } from '@avail/shared/schemas/profile.schema.ts';
import type { UserRow } from '../../db/schema.ts';

const DAY_MS = 86_400_000;

export interface UserJson {
  id: string;
  name: string;
  email: string;
  timezone: string;
  username: string | null;
  /** The public link's path segment: the username (null until one is set). */
  slug: string | null;
  can_change_username: boolean;
  /** Whole days until the username may change again; 0 when it may change now. */
  days_until_change: number;
  /** ISO 8601 instant, or null while unverified. */
  email_verified_at: string | null;
  /**
   * The public link as visitors use it: `${PUBLIC_BASE_URL}/${username}`, or null until a username
   * is set. Clients show and copy this one (a desktop app's own origin is not the public one).
   */
  public_url: string | null;
  /** The owner's date and time format (issue 22 item 3): BCP 47 locale, null = the browser's own. */
  format_locale: string | null;
  /** true = 12-hour clock, false = 24-hour, null = the locale's own. */
  hour12: boolean | null;
  /** First day of the week, 0 = Sunday … 6 = Saturday, null = automatic (Monday, spec Z-11). */
  week_start: number | null;
  /** Two-factor sign-in (TOTP, issue 26) is on: sign-in and account deletion ask for a code. */
  two_factor_enabled: boolean;
}

/** Days until the username may change (0 = now). The first set (no recorded change) is always allowed. */
export function daysUntilUsernameChange(user: Pick<UserRow, 'username_changed_at'>, now: number): number {
  if (user.username_changed_at == null) return 0;
  const nextAllowed = user.username_changed_at + USERNAME_CHANGE_INTERVAL_DAYS * DAY_MS;
  return nextAllowed <= now ? 0 : Math.ceil((nextAllowed - now) / DAY_MS);
}

/**
 * The User JSON (see UserJson) of a users row at `now` (epoch ms); `publicBaseUrl` is the config's
 * PUBLIC_BASE_URL (no trailing slash). Never includes password_hash.
 */
export function presentUser(user: UserRow, now: number, publicBaseUrl: string): UserJson {
  const days = daysUntilUsernameChange(user, now);
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    timezone: user.timezone,
    username: user.username,
    slug: user.username,
    can_change_username: days === 0,
    days_until_change: days,
    email_verified_at: user.email_verified_at == null ? null : new Date(user.email_verified_at).toISOString(),
    public_url: user.username ? `${publicBaseUrl}/${encodeURIComponent(user.username)}` : null,
    ...presentFormatPrefs(user),
    two_factor_enabled: user.two_factor_enabled_at != null,
  };
}

/**
 * The owner's date and time format of a users row: `{ format_locale, hour12, week_start }` (each null =
 * automatic; hour12 stored 0/1, answered as a boolean). Rows read before 0012_owner_formats → all null.
 */
function presentFormatPrefs(user: Pick<UserRow, 'format_locale' | 'hour12' | 'week_start'>): OwnerFormatPrefs {
  return {
    format_locale: user.format_locale ?? null,
    hour12: user.hour12 == null ? null : Boolean(user.hour12),
    week_start: user.week_start ?? null,
  };
}

/**
 * `{ username, can_change_username, days_until_change, timezone, format_locale, hour12, week_start }` of
 * GET/PUT /api/me/profile (the last three: see presentFormatPrefs).
 */
export function presentProfile(user: UserRow, now: number) {
  const days = daysUntilUsernameChange(user, now);
  return { username: user.username, can_change_username: days === 0, days_until_change: days, timezone: user.timezone, ...presentFormatPrefs(user) };
}
