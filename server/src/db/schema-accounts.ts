/**
 * Table interfaces of accounts and sign-in: users, their pictures, sessions (auth_tokens), e-mail
 * verification and change, password resets, two-factor secrets and recovery codes, the login throttle.
 * Conventions (see schema.ts): instants are epoch milliseconds (`bigint` columns, read as `number`), booleans
 * integers 0/1, ids text (crypto.randomUUID()). `Generated<T>`: a column with a database default (may be omitted on insert).
 */
import type { Generated } from 'kysely';

export interface UsersTable {
  id: string;
  name: string;
  /** Lower-cased, unique. */
  email: string;
  password_hash: string;
  timezone: Generated<string>;
  username: string | null;
  /** Lower-cased username, unique: usernames are unique case-insensitively. */
  username_lower: string | null;
  username_changed_at: number | null;
  email_verified_at: number | null;
  created_at: number;
  /** Profile document stamp (replication): from `repl_clock` on every profile write. */
  updated_at: number;
  /** Last replication stamp handed out for this user (epoch ms, strictly increasing); see store/repl-clock.repo.ts. */
  repl_clock: Generated<number>;
  /** 1 = the plain `/{username}` link is off: only personal links (share_links) open the page. */
  plain_link_off: Generated<number>;
  /** One-line introduction on the public page (≤ 160 characters, trimmed); null = none. */
  intro: Generated<string | null>;
  /** Version of the owner's picture (`user_avatars.version`), the `v` of its public URL; null = no picture. */
  avatar_version: Generated<string | null>;
  /** Locale (BCP 47) of the dates and times on the owner's screens (0012_owner_formats); null = the browser's own. */
  format_locale: Generated<string | null>;
  /** 1 = 12-hour clock, 0 = 24-hour on the owner's screens; null = the locale's own. */
  hour12: Generated<number | null>;
  /** First day of the week on the owner's screens, 0 = Sunday … 6 = Saturday; null = automatic (Monday, spec Z-11). */
  week_start: Generated<number | null>;
  /** Issue 24: the calendar confirmed meetings go to, sealed JSON `{ connection_id, calendar_id }`; null = the default. */
  proposal_target: Generated<string | null>;
  /** Issue 26: when two-factor sign-in (TOTP) was turned on (UTC ms); null = off. Secrets: two_factor_secrets. */
  two_factor_enabled_at: Generated<number | null>;
}

/** The owner's picture (issue 22): the server's 256×256 WebP re-encoding, one row per owner. */
export interface UserAvatarsTable {
  user_id: string;
  /** First 16 hex digits of the sha256 of `image`. */
  version: string;
  /** WebP bytes, 256×256 px, no metadata. */
  image: Buffer;
  /** Last upload (UTC ms). */
  updated_at: number;
}

export interface AuthTokensTable {
  id: string;
  user_id: string;
  /** sha256 hex of the bearer token; the token itself is never stored. */
  token_hash: string;
  created_at: number;
  /** Written at most once a minute (http/authenticate.ts). */
  last_used_at: number;
  /** The device, from the User-Agent at issuance ('Chrome on macOS'; 'Unknown device'); ≤ 100 chars. */
  label: Generated<string>;
}

/** A pending e-mail change (issue 26): one row per user (modules/auth/email-change.*). */
export interface EmailChangesTable {
  user_id: string;
  /** The address asked for, lower-cased. */
  new_email: string;
  /** HMAC-SHA256 hex of `user_id:code` (auth.service.ts hashCode); never the code. */
  code_hash: string;
  /** Guesses made with this code (at most 5). */
  attempts: number;
  /** UTC epoch ms; the code is refused from this instant on. */
  expires_at: number;
  /** Codes sent since `window_started_at` (UTC ms): at most 6 an hour. */
  sends: number;
  window_started_at: number;
  created_at: number;
}

export interface EmailVerificationsTable {
  user_id: string;
  code_hash: string;
  expires_at: number;
  attempts: number;
  last_sent_at: number;
  created_at: number;
}

/** A pending password-reset code (one per user; a new request replaces it). Only the code's HMAC is stored. */
export interface PasswordResetsTable {
  user_id: string;
  /** HMAC-SHA256 hex of `user_id:code` (auth.service.ts hashCode); never the code. */
  code_hash: string;
  /** UTC epoch ms; the code is refused from this instant on. */
  expires_at: number;
  /** Guesses made with this code (at most 5). */
  attempts: number;
  created_at: number;
}

/** Two-factor sign-in (issue 26, migration 0016): one row per owner who started a setup or has it on. */
export interface TwoFactorSecretsTable {
  user_id: string;
  /** The active TOTP secret (base32), sealed (lib/crypto.ts sealContent); null while only a setup is pending. */
  secret: string | null;
  /** The secret shown by the last setup, not yet confirmed by a code, sealed; null = none. */
  pending_secret: string | null;
  /** RFC 6238 time step (T = floor(unix s / 30)) of the last accepted code; codes of this step or earlier are refused. */
  last_step: number | null;
  updated_at: number;
}

/** Two-factor recovery codes (issue 26): 10 per owner, only an HMAC of each; each works once. */
export interface TwoFactorRecoveryCodesTable {
  id: string;
  user_id: string;
  /** HMAC-SHA256 (AVAIL_SECRET_KEY) hex of `user_id:` + the code upper-cased without spaces and dashes. */
  code_hash: string;
  /** UTC ms when spent; null = unused. */
  used_at: number | null;
  created_at: number;
}

/** Consecutive failed passwords per e-mail key (issue 12): the per-account login throttle. */
export interface LoginThrottleTable {
  /** HMAC-SHA256 (AVAIL_SECRET_KEY) of the lower-cased, trimmed e-mail, hex. Accounts or not. */
  key_hash: string;
  /** Wrong passwords in a row (reset by a right one or a password reset). */
  failures: number;
  /** UTC ms before which every attempt is refused (429); null = not locked. */
  locked_until: number | null;
  /** The `locked_until` the owner was e-mailed about (one e-mail per lock); null = none. */
  notified_lock_at: number | null;
  /** Last change (UTC ms); rows untouched for a day are purged. */
  updated_at: number;
}
