/**
 * The owner's profile calls (product spec §7): time zone, username, introduction, picture and date
 * format (issue 22), and the dashboard's numbers and replaced versions. Part of `api`
 * (`api-client.ts`).
 */
import { get, post, put, del, getBytes } from './api-transport.ts';
import type { AvatarUpload, DashboardStats, Profile } from './api-shapes.ts';
import type { ReplacedVersion } from '../rx/replication-protocol.ts';

export const profileCalls = {
  profile: () => get<{ profile: Profile }>('/me/profile'),
  updateTimezone: (timezone: string) => put<unknown>('/me/profile', { timezone }),
  /** The one-line introduction (trimmed by the server, ≤ 160; '' or null removes it). 422 with `errors.intro`. */
  updateIntro: (intro: string | null) => put<{ success: true; message: string; profile: Profile }>('/me/profile', { intro }),
  /**
   * The owner's date and time format (issue 22 item 3); only the given fields change, null = automatic.
   * `format_locale` BCP 47 (saved canonical), `week_start` 0 = Sunday … 6. 422 with `errors.format_locale` /
   * `errors.hour12` / `errors.week_start`.
   */
  updateFormatPrefs: (prefs: { format_locale?: string | null; hour12?: boolean | null; week_start?: number | null }) =>
    put<{ success: true; message: string; profile: Profile }>('/me/profile', prefs),
  /** A new picture (PNG, JPEG or WebP ≤ 2 MB; the Blob's type is sent as Content-Type). 422/413 with `errors.avatar`. */
  uploadAvatar: (file: Blob) => put<AvatarUpload>('/me/avatar', undefined, { rawBody: file }),
  removeAvatar: () => del<null>('/me/avatar'),
  /** The owner's own stored picture (256×256 WebP), null when there is none. */
  ownAvatar: () => getBytes('/me/avatar'),
  updateUsername: (username: string) => put<{ profile?: Profile }>('/me/profile/username', { username }),
  checkUsername: (username: string) => post<{ available: boolean }>('/me/profile/check-username', { username }),
  dashboardStats: () => get<DashboardStats>('/me/dashboard/stats'),
  /** GET /me/conflicts: the owner's versions replaced by another device's in the last 30 days, newest first (≤ 50). */
  conflicts: () => get<{ conflicts: ReplacedVersion[] }>('/me/conflicts'),
};
