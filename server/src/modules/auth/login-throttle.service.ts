/**
 * Per-account login throttle (issue 12). The per-IP + e-mail limiter (http/rate-limit.ts) lets
 * 40 addresses try 40 passwords each; this one counts wrong passwords per e-mail, across
 * addresses and restarts (a database row, so also across instances):
 *
 * - the first LOGIN_FREE_FAILURES wrong passwords in a row are answered as usual (401);
 * - from then on each wrong password locks the e-mail for LOGIN_LOCK_BASE_MS × 2^(n − free)
 *   (30 s, 1 min, 2 min, … at most LOGIN_LOCK_MAX_MS = 15 min): never for good, so the owner is
 *   never locked out by a stranger for longer than 15 minutes at a time;
 * - while locked every attempt, the right password included, gets 429 "Too many login attempts.
 *   Please try again later." with `Retry-After` (s), and the password is not checked;
 * - a right password (after the lock) or a password reset clears the count;
 * - the key is an HMAC of the e-mail, so addresses without an account are throttled the same
 *   way: the answers never tell which addresses have accounts;
 * - when a lock starts on a real account, its owner gets one e-mail per lock (no IP addresses),
 *   sent without being awaited.
 */
import { createHmac } from 'node:crypto';
import type { Deps } from '../../http/deps.ts';
import { HttpError } from '../../http/errors.ts';
import * as repo from './login-throttle.repo.ts';

/** Wrong passwords in a row answered normally before the first lock. */
export const LOGIN_FREE_FAILURES = 5;
/** First lock (ms); each further wrong password doubles it. */
export const LOGIN_LOCK_BASE_MS = 30_000;
/** Longest lock (ms). */
export const LOGIN_LOCK_MAX_MS = 15 * 60_000;
export const LOGIN_LOCKED_MESSAGE = 'Too many login attempts. Please try again later.';

/** 429 while an e-mail is locked; `retryAfterS` goes to the Retry-After header. */
export class LoginLockedError extends HttpError {
  constructor(public readonly retryAfterS: number) {
    super(429, 'rate_limited', LOGIN_LOCKED_MESSAGE);
  }
}

/** The row key of an e-mail: HMAC-SHA256 with the server key of the trimmed, lower-cased address. */
export function throttleKey(secret: Buffer, email: string): string {
  return createHmac('sha256', secret).update(`login:${email.trim().toLowerCase()}`).digest('hex');
}

/** Lock length (ms) after `failures` wrong passwords in a row; 0 below the threshold. */
export function lockDurationMs(failures: number): number {
  if (failures < LOGIN_FREE_FAILURES) return 0;
  const exp = Math.min(failures - LOGIN_FREE_FAILURES, 30);
  return Math.min(LOGIN_LOCK_MAX_MS, LOGIN_LOCK_BASE_MS * 2 ** exp);
}

/** Throws LoginLockedError when `email` is locked at `deps.now()`. */
export async function assertNotLocked(deps: Deps, email: string): Promise<void> {
  const row = await repo.findThrottle(deps.db, throttleKey(deps.config.AVAIL_SECRET_KEY, email));
  const now = deps.now();
  if (row?.locked_until != null && row.locked_until > now) throw new LoginLockedError(Math.max(1, Math.ceil((row.locked_until - now) / 1000)));
}

/**
 * Records a wrong password for `email`. Returns the lock end (UTC ms) when this failure starts or
 * extends a lock, and whether this call is the one that should e-mail the owner about it.
 */
export async function recordFailure(deps: Deps, email: string): Promise<{ lockedUntil: number | null; notify: boolean }> {
  const key = throttleKey(deps.config.AVAIL_SECRET_KEY, email);
  const now = deps.now();
  const failures = await repo.addFailure(deps.db, key, now);
  const ms = lockDurationMs(failures);
  if (ms === 0) return { lockedUntil: null, notify: false };
  const until = now + ms;
  await repo.lockUntil(deps.db, key, until, now);
  // One e-mail per series of locks: only the lock that starts a series (the first one) notifies.
  const notify = failures === LOGIN_FREE_FAILURES && (await repo.claimNotification(deps.db, key, until));
  return { lockedUntil: until, notify };
}

/** Forgets the wrong passwords of `email` (a successful sign-in or a password reset). */
export async function clearFailures(deps: Pick<Deps, 'db' | 'config'>, email: string): Promise<void> {
  await repo.clearThrottle(deps.db, throttleKey(deps.config.AVAIL_SECRET_KEY, email));
}

/** Throttle rows untouched this long (ms) and not locked are forgotten by the purge. */
export const LOGIN_THROTTLE_RETENTION_MS = 24 * 60 * 60_000;
