/**
 * The product's constants (product spec section 9), one named constant each.
 * Durations are milliseconds unless the name says otherwise.
 */

/** Base path of every API call (spec §7). */
export const API_BASE_PATH = '/api';
/** localStorage key of the bearer token (spec §9). */
export const AUTH_TOKEN_STORAGE_KEY = 'auth_token';
/** Freshness of every client data store: 5 minutes. */
export const CACHE_FRESHNESS_MS = 300_000;
export const MIN_PASSWORD_LENGTH = 8;
export const VERIFICATION_CODE_LENGTH = 6;
/** Verification codes expire after 15 minutes and allow 5 attempts (issue 2). */
export const VERIFICATION_CODE_TTL_MS = 15 * 60_000;
export const VERIFICATION_MAX_ATTEMPTS = 5;
/** Minimum pause between two resends of a verification code for one address. */
export const VERIFICATION_RESEND_COOLDOWN_MS = 30_000;
export const VERIFIED_REDIRECT_DELAY_MS = 2_000;
export const RESEND_NOTICE_MS = 30_000;
export const USERNAME_MIN_LENGTH = 4;
export const USERNAME_MAX_LENGTH = 15;
export const USERNAME_PATTERN = /^[A-Za-z0-9-]+$/;
export const USERNAME_CHECK_DEBOUNCE_MS = 500;
export const USERNAME_CHANGE_INTERVAL_DAYS = 14;
export const DEFAULT_TIMEZONE = 'Europe/Brussels';
/** Default onboarding rule and default new modal slot: Monday 09:00–17:00. */
export const DEFAULT_RULE = { weekday: 0, start_time_local: '09:00', end_time_local: '17:00' } as const;
/** Calendar grid (dashboard preview). */
export const CALENDAR_PX_PER_HOUR = 60;
export const BUSINESS_HOURS = { start: 7, end: 21 } as const;
export const DASHBOARD_EVENTS_REFRESH_MS = 2 * 60_000;
/** Backup calendar sync interval: 15 minutes. */
export const BACKUP_SYNC_INTERVAL_MS = 15 * 60_000;
export const ALERT_MS = 5_000;
export const ALERT_ERROR_MS = 10_000;
export const APPLE_ERROR_ALERT_MS = 10_000;
export const APPLE_SUCCESS_ALERT_MS = 5_000;
export const COPY_FEEDBACK_MS = 2_000;
export const SYNC_COMPLETE_MS = 5_000;
export const PUBLIC_CLOCK_TICK_MS = 60_000;
export const HEADER_COMPACT_SCROLL_PX = 50;
export const ONBOARDING_RELOAD_DELAY_MS = 100;
export const BUSY_HORIZON_DAYS = 366;
/** Sync horizon: recurring events are expanded from 30 days back to 400 days ahead. */
export const SYNC_HORIZON_PAST_DAYS = 30;
export const SYNC_HORIZON_FUTURE_DAYS = 400;
/** Calendar fetch limits: 10 MB body, 20 s response. */
export const CALENDAR_MAX_BYTES = 10 * 1024 * 1024;
export const CALENDAR_FETCH_TIMEOUT_MS = 20_000;
/** Cap on recurrence instances generated per recurring series per sync (a COUNT series counts those before the window too). */
export const MAX_RECURRENCE_INSTANCES = 50_000;
/**
 * Budgets per calendar connection (issue 11), over all of its calendars together, per sync.
 * Over any of them the sync is REFUSED, never truncated: the connection shows the error and keeps
 * its last good busy intervals (a first connect answers 400 and stores nothing). Truncating would
 * show the owner as free where a dropped event makes them busy.
 *
 * - MAX_CONNECTION_OCCURRENCES: occurrences (event instances, busy or not) inside the sync horizon
 *   (30 days back to 400 days ahead); expansion stops as soon as it is exceeded.
 * - MAX_CONNECTION_EVENTS: derived events stored in calendar_events.
 * - MAX_CONNECTION_BUSY_INTERVALS: merged busy intervals stored in busy_intervals.
 */
export const MAX_CONNECTION_OCCURRENCES = 20_000;
export const MAX_CONNECTION_EVENTS = 20_000;
export const MAX_CONNECTION_BUSY_INTERVALS = 20_000;
/**
 * Sync isolation: the CPU-heavy part of a sync (parse, RRULE expansion, derivation) runs in a
 * worker-thread pool of at most SYNC_WORKER_MAX_THREADS threads; one derivation may take
 * SYNC_DERIVE_TIMEOUT_MS and SYNC_WORKER_MAX_HEAP_MB of V8 old-generation heap, or its worker is
 * ended and the connection shows an error.
 */
export const SYNC_WORKER_MAX_THREADS = 2;
export const SYNC_DERIVE_TIMEOUT_MS = 30_000;
export const SYNC_WORKER_MAX_HEAP_MB = 192;
/** Linux nice value of a derive worker thread (19 = lowest priority): visitors' requests go first. */
export const SYNC_WORKER_NICE = 19;
export const GENERIC_ERROR_MESSAGE = 'Something went wrong';
/** Manual busy blocks (issue 10): one block lasts at most 14 days; its owner-only note at most 200 characters. */
export const BUSY_BLOCK_MAX_MS = 14 * 24 * 3_600_000;
export const BUSY_BLOCK_NOTE_MAX_LENGTH = 200;

/**
 * Names that can never be usernames because public links live at `/{username}` beside the
 * app's own routes. Compared case-insensitively. The router and the validator both read this.
 */
const RESERVED_USERNAMES: ReadonlySet<string> = new Set([
  'app', 'api', 'u', 'login', 'logout', 'register', 'signup', 'verify-email', 'forgot-password',
  'reset-password', 'support', 'privacypolicy', 'termsofservice', 'privacy', 'terms', 'onboarding',
  'dashboard', 'availability', 'links', 'analytics', 'settings', 'assets', 'static', 'public',
  'favicon.ico', 'robots.txt', 'sitemap.xml', 'manifest.json', 'admin', 'root', 'help', 'about',
  'pricing', 'faq', 'docs', 'blog', 'status', 'health', 'webhooks', 'oauth', 'auth', 'me', 'user',
  'users', 'www', 'mail', 'avail', 'proposal',
]);

/** True when `name` (any case) is reserved for the app's own routes. */
export function isReservedUsername(name: string): boolean {
  return RESERVED_USERNAMES.has(name.toLowerCase());
}

/** Time zones offered in onboarding and settings, grouped as in spec §9 (≈ 42). */
export const TIMEZONE_GROUPS: ReadonlyArray<{ group: string; zones: readonly string[] }> = [
  { group: 'Europe', zones: ['Europe/London', 'Europe/Dublin', 'Europe/Lisbon', 'Europe/Brussels', 'Europe/Paris', 'Europe/Amsterdam', 'Europe/Berlin', 'Europe/Madrid', 'Europe/Rome', 'Europe/Zurich', 'Europe/Stockholm', 'Europe/Warsaw', 'Europe/Athens', 'Europe/Helsinki', 'Europe/Istanbul', 'Europe/Moscow'] },
  { group: 'North America', zones: ['America/New_York', 'America/Chicago', 'America/Denver', 'America/Phoenix', 'America/Los_Angeles', 'America/Anchorage', 'Pacific/Honolulu', 'America/Toronto', 'America/Vancouver', 'America/Mexico_City'] },
  { group: 'Asia Pacific', zones: ['Asia/Dubai', 'Asia/Kolkata', 'Asia/Singapore', 'Asia/Hong_Kong', 'Asia/Shanghai', 'Asia/Tokyo', 'Asia/Seoul', 'Australia/Sydney', 'Australia/Melbourne', 'Pacific/Auckland'] },
  { group: 'South America', zones: ['America/Sao_Paulo', 'America/Argentina/Buenos_Aires', 'America/Santiago', 'America/Bogota'] },
  { group: 'Africa', zones: ['Africa/Cairo', 'Africa/Johannesburg', 'Africa/Lagos', 'Africa/Nairobi'] },
];
