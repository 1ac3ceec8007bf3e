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
const LOGIN_LOCK_BASE_MS = 30_000;
/** Longest lock (ms). */
export const LOGIN_LOCK_MAX_MS = 15 * 60_000;
const LOGIN_LOCKED_MESSAGE = 'Too many login attempts. Please try again later.';

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

/**
 * What a throttle counts: wrong passwords per e-mail address (`password`), or wrong second-factor
 * codes per account (`second-factor`, issue 26). The two counts are separate: a right password
 * (or a password reset) clears only the password count, so knowing the password never buys more
 * code guesses; only a right code clears the code count.
 */
export type ThrottleSubject = { kind: 'password'; email: string } | { kind: 'second-factor'; userId: string };

function subjectKey(secret: Buffer, subject: ThrottleSubject): string {
  return subject.kind === 'password' ? throttleKey(secret, subject.email) : createHmac('sha256', secret).update(`second-factor:${subject.userId}`).digest('hex');
}

/** One checked attempt reserved by `beginAttempt`; exactly one of its methods is called once the check is done. */
export interface ThrottledAttempt {
  /** The check failed: the attempt stays counted. `notify`: this failure started a series of locks (e-mail the owner once). */
  failed(): Promise<{ lockedUntil: number | null; notify: boolean }>;
  /** The check passed: the count is cleared. */
  succeeded(): Promise<void>;
  /** Neither (the right password of an account that still needs its second factor): the reservation is given back. */
  release(): Promise<void>;
}

/**
 * Reserves one checked attempt for `subject` BEFORE the password or code is checked (issue 26: a
 * burst of simultaneous guesses each passed a separate "locked?" read before any failure was
 * written, so 100 parallel requests were all checked). The reservation counts as a failure at once
 * (compare-and-set on the row's count, retried on contention): the attempt that reaches
 * LOGIN_FREE_FAILURES (or any later one) also sets its lock at once, so requests arriving while it
 * is being checked get 429. At most LOGIN_FREE_FAILURES checks can be in flight from a clean state,
 * and one per expired lock after that.
 * @throws LoginLockedError (429, `retryAfterS`) while locked, and after 50 lost compare-and-sets.
 */
export async function beginAttempt(deps: Pick<Deps, 'db' | 'config' | 'now'>, subject: ThrottleSubject): Promise<ThrottledAttempt> {
  const key = subjectKey(deps.config.AVAIL_SECRET_KEY, subject);
  for (let tries = 0; tries < 50; tries++) {
    const now = deps.now();
    const row = await repo.findThrottle(deps.db, key);
    if (row?.locked_until != null && row.locked_until > now) throw new LoginLockedError(Math.max(1, Math.ceil((row.locked_until - now) / 1000)));
    const before = row?.failures ?? 0;
    const n = before + 1;
    const ms = lockDurationMs(n);
    const previousLock = row?.locked_until ?? null;
    const lock = ms > 0 ? now + ms : previousLock;
    if (!(await repo.casAttempt(deps.db, key, before, n, lock, now))) continue;
    return {
      async failed() {
        if (ms === 0) return { lockedUntil: null, notify: false };
        // One e-mail per series of locks: only the lock that starts a series (the first one) notifies.
        const notify = n === LOGIN_FREE_FAILURES && (await repo.claimNotification(deps.db, key, lock!));
        return { lockedUntil: lock, notify };
      },
      async succeeded() {
        await repo.clearThrottle(deps.db, key);
      },
      async release() {
        // Back to the count and lock from before this reservation, unless other attempts moved on meanwhile
        // (then only this one's count is given back; their lock stays).
        if (!(await repo.casAttempt(deps.db, key, n, before, previousLock, deps.now()))) await repo.giveBackFailure(deps.db, key, deps.now());
      },
    };
  }
  throw new LoginLockedError(1);
}

/**
 * Runs `check` as one throttled attempt of `subject`: true → the count is cleared; false → counted
 * (and `onLock` is called when this failure starts a series of locks). Errors thrown by `check`
 * leave the attempt counted.
 * @throws LoginLockedError while locked (`check` is not run).
 */
export async function throttledCheck(
  deps: Pick<Deps, 'db' | 'config' | 'now'>,
  subject: ThrottleSubject,
  check: () => Promise<boolean>,
  onLock?: (lockedUntil: number) => void,
): Promise<boolean> {
  const attempt = await beginAttempt(deps, subject);
  if (await check()) {
    await attempt.succeeded();
    return true;
  }
  const { lockedUntil, notify } = await attempt.failed();
  if (notify && lockedUntil != null) onLock?.(lockedUntil);
  return false;
}

/** Forgets the wrong passwords of `email` (a successful sign-in or a password reset). */
export async function clearFailures(deps: Pick<Deps, 'db' | 'config'>, email: string): Promise<void> {
  await repo.clearThrottle(deps.db, throttleKey(deps.config.AVAIL_SECRET_KEY, email));
}

/** Throttle rows untouched this long (ms) and not locked are forgotten by the purge. */
export const LOGIN_THROTTLE_RETENTION_MS = 24 * 60 * 60_000;
