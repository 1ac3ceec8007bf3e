/**
 * The JSON shapes of the API's answers and bodies (product spec §7), as the typed calls return and
 * send them. Times are ISO 8601 strings unless a field says otherwise (`*_ms`: UTC epoch ms).
 * Types only: nothing here runs.
 */
import type { OwnerProposal } from '../schemas/proposal.schema.ts';
import type { BusyRules } from '../ical/busy-rules.ts';

export interface User {
  id: string | number;
  name: string;
  email: string;
  timezone: string | null;
  username: string | null;
  slug: string | null;
  can_change_username: boolean;
  days_until_change: number;
  email_verified_at: string | null;
  /** The public link visitors use (`PUBLIC_BASE_URL/username`), null without a username. Absent from older servers. */
  public_url?: string | null;
  /** The owner's date and time format (issue 22 item 3): BCP 47 locale, null = the browser's own. Absent from older servers. */
  format_locale?: string | null;
  /** true = 12-hour clock, false = 24-hour, null = the locale's own. Absent from older servers. */
  hour12?: boolean | null;
  /** First day of the week, 0 = Sunday … 6 = Saturday, null = automatic (Monday, spec Z-11). Absent from older servers. */
  week_start?: number | null;
  /** Two-factor sign-in (TOTP) is on (docs/account-security.md, issue 26). Absent from older servers. */
  two_factor_enabled?: boolean;
}
/** POST /me/two-factor/setup answer: the pending secret, as text, as an otpauth:// URL and as a QR code (SVG markup). */
export interface TwoFactorSetup {
  /** Base32 secret (RFC 4648), 30-second steps, 6 digits, SHA-1 (RFC 6238). */
  secret: string;
  otpauth_url: string;
  /** The QR code of `otpauth_url` as SVG markup (shown as an image, never inserted into the page). */
  qr_svg: string;
}
export interface AuthResponse {
  user?: User | null;
  token?: string | null;
  requires_verification?: boolean;
  message?: string;
  email?: string;
}
export interface VerifyResponse {
  success?: boolean;
  message?: string;
  user?: User;
  token?: string;
}
export interface Profile {
  username: string | null;
  can_change_username: boolean;
  days_until_change: number;
  timezone?: string | null;
  /** One-line introduction on the public page (≤ 160 characters), null = none (issue 22). Absent from older servers. */
  intro?: string | null;
  /** The picture's public, versioned path (`/api/public/{username}/avatar.webp?v=…`), null without a picture or username. */
  avatar_url?: string | null;
  /** The picture's version, null without a picture (the owner's own copy: `api.ownAvatar()`). */
  avatar_version?: string | null;
  /** The owner's date and time format (as on User; null = automatic). Absent from older servers. */
  format_locale?: string | null;
  hour12?: boolean | null;
  week_start?: number | null;
}
/** PUT /me/avatar answer. */
export interface AvatarUpload {
  /** Public, versioned path of the new picture; null until the owner has a username. */
  avatar_url: string | null;
  avatar_version: string;
}
/** The host shown once on the public page (issue 22). */
interface PublicHost {
  /** One-line introduction, null = none. */
  intro: string | null;
  /**
   * Root-relative, versioned path of the picture (`/api/public/{username}/avatar.webp?v=…`, on the API's
   * origin), null = none (show initials). A visitor who came through a personal link adds `&key=…`.
   */
  avatar_url: string | null;
}
export interface AvailabilityRule {
  id?: string | number;
  weekday: number;
  start_time_local: string;
  end_time_local: string;
}
export interface AvailabilityException {
  id: string | number;
  date?: string;
  start_time_local?: string | null;
  end_time_local?: string | null;
}
export interface DashboardStats extends Partial<ViewsChange> {
  total_views: number;
  has_availability: boolean;
  this_week_events: number;
  user_slug: string;
}
export type CalendarProvider = 'ics' | 'caldav' | 'apple' | 'google' | 'microsoft';
export interface CalendarConnection {
  id: string | number;
  provider: CalendarProvider;
  name: string | null;
  status: string;
  connected_at: string | null;
  calendars_count: number;
  included_calendars_count: number;
  last_synced_at: string | null;
  last_error: string | null;
  warnings?: string[] | null;
  /** The connection's busy rules (REST only; the device's copy of a connection has none). */
  busy_rules?: BusyRules;
}
/** One connection's outcome of Sync Now. */
interface SyncNowResult {
  connection_id: string;
  name: string;
  provider: CalendarProvider;
  ok: boolean;
  /** Owner-facing reason of a failure; null when it synced. */
  error: string | null;
}
export interface SyncNowResponse {
  success: boolean;
  message: string;
  connections: CalendarConnection[];
  /** Absent from older servers. */
  results?: SyncNowResult[];
}
export interface CalendarEvent {
  id: string | number;
  title: string;
  start: string;
  end: string;
  all_day: boolean;
  provider: string;
}
interface FreeWindow {
  start: string;
  end: string;
}
export interface PublicAvailability {
  user_name: string;
  user_timezone: string;
  /** Oldest last good sync of the owner's calendars (ISO `Z`), null without any (older servers: absent). */
  as_of?: string | null;
  /** True when the busy time may be out of date (a calendar failing, expired or not synced for 30 min). */
  stale?: boolean;
  /** Clock changes of the owner's zone and the visitor's inside the range (offsets in minutes east of UTC). */
  zone_changes?: Array<{ at: string; zone: string; offset_before: number; offset_after: number }>;
  /** The host: introduction and picture (issue 22). Absent from older servers. */
  host?: PublicHost;
  /**
   * When the range holds no free time from now on: the start (ISO `Z`) of the first free window
   * after it within the public horizon, or null when there is none (issue 22: free time first).
   * Absent when the range has free time.
   */
  next_free?: string | null;
  availability: { windows: FreeWindow[]; range?: { start: string; end: string } };
}

/** A public link of the owner (GET /me/links). Today one per owner, derived from the username. */
export interface OwnerLink {
  id: string;
  slug: string;
  /** Absolute URL: APP_BASE_URL + '/' + slug. */
  url: string;
  created_at: string;
}
/** One day of public-page views (GET /me/analytics/links): distinct visitors that day, owner's zone. */
interface LinkAnalyticsEntry {
  /** `${link_id}:${date}` */
  id: string;
  link_id: string;
  /** YYYY-MM-DD in the owner's zone. */
  date: string;
  views: number;
}
export interface LinkAnalytics {
  /** Every day of the range, oldest first, zeros included. */
  analytics: LinkAnalyticsEntry[];
  days: number;
  total: number;
  /** Views in the `days` days before the range. */
  previous_total: number;
}
/** Total Views card (dashboard): the last 7 days against the 7 before. */
interface ViewsChange {
  views_last_7_days: number;
  views_previous_7_days: number;
  /** Rounded percent change; null when the previous period had no views. */
  views_change_percent: number | null;
}
/** POST /me/profile/generate-email-text answer (spec §7, §8). */
export interface GeneratedEmailText {
  success: boolean;
  text: string;
  /** True when `text` is the default template (generation failed or no free windows to list). */
  default: boolean;
  error?: string;
}
/** A visitor's proposed time as the owner sees it (issue 24: status, the meeting's UID, pending offline action). */
export type Proposal = OwnerProposal;
/** A manual busy block (issue 10) as GET /me/blocks returns it: `[start_ms, end_ms)` UTC epoch ms; the note is the owner's only. */
export interface BusyBlock {
  id: string;
  start_ms: number;
  end_ms: number;
  note: string | null;
}
export interface ProposalInput {
  start: string;
  end: string;
  name: string;
  email: string;
  note?: string;
  visitor_timezone: string;
  /** The page's language (en, de, fr, es, nl, pt): the visitor's later e-mails are written in it. */
  language?: string;
}
/** One signed-in session of the owner (GET /me/sessions, issue 26; docs/account-security.md "Sessions"). */
export interface AccountSession {
  id: string;
  /** 'Chrome on macOS', 'Avail desktop on Windows', 'Unknown device' (≤ 100 characters). */
  label: string;
  /** ISO 8601 UTC: when the session signed in. */
  created_at: string;
  /** ISO 8601 UTC: its last request (written at most once a minute). */
  last_used_at: string;
  /** true for the session making this request. */
  current: boolean;
}
/** A `{ success, message }` answer of an account change (password, e-mail). */
export interface AccountChangeResult {
  success: true;
  message: string;
}
/** POST /api/proposal-links/inspect answer: what the e-mail's one-click link does, asked once before it acts. */
export interface ProposalLinkInfo {
  action: 'confirm' | 'decline';
  owner_timezone: string;
  proposal: Pick<OwnerProposal, 'id' | 'start' | 'end' | 'name' | 'note' | 'visitor_timezone' | 'status'>;
}
