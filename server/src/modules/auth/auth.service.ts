/**
 * Accounts: register, log in, verify the e-mail with a 6-digit code, resend it, log out.
 * Passwords are argon2id; bearer tokens and codes are stored only as hashes.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import {
  VERIFICATION_CODE_LENGTH,
  VERIFICATION_CODE_TTL_MS,
  VERIFICATION_MAX_ATTEMPTS,
  VERIFICATION_RESEND_COOLDOWN_MS,
} from '@avail/shared/constants.ts';
import type { LoginInput, RegisterInput, VerifyEmailInput } from '@avail/shared/schemas/auth.schema.ts';
import type { UserRow } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { issueToken } from '../../http/authenticate.ts';
import type { Deps } from '../../http/deps.ts';
import { HttpError, conflict, tooManyRequests, unauthenticated } from '../../http/errors.ts';
import { loginLockedEmail, verificationEmail } from '../../mail/mailer.ts';
import * as throttle from './login-throttle.service.ts';
import * as twoFactor from './two-factor.service.ts';
import * as authRepo from './auth.repo.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password.ts';
import { presentUser, type UserJson } from './user.presenter.ts';
import * as usersRepo from '../../store/users.repo.ts';
import { nextStamp } from '../../store/repl-clock.repo.ts';

const MESSAGES = {
  registered: 'Registration successful! Please check your email for the verification code.',
  emailTaken: 'Email is already registered',
  loggedIn: 'Login successful',
  invalidCredentials: 'Invalid email or password',
  verifyFirst: 'Please verify your email before logging in.',
  verified: 'Email verified successfully!',
  invalidCode: 'Invalid verification code',
  expiredCode: 'Verification code has expired. Please request a new one.',
  tooManyAttempts: 'Too many incorrect attempts. Please request a new verification code.',
  alreadyVerified: 'Email is already verified. Please log in.',
  resent: 'Verification email sent! Please check your inbox.',
  loggedOut: 'Logged out successfully',
} as const;

/** A fresh 6-digit code (uniform, leading zeros kept). */
export function generateCode(): string {
  return String(randomInt(0, 10 ** VERIFICATION_CODE_LENGTH)).padStart(VERIFICATION_CODE_LENGTH, '0');
}

/** HMAC-SHA256(secret key, userId:code), hex: a stolen database does not reveal live codes. */
export function hashCode(secret: Buffer, userId: string, code: string): string {
  return createHmac('sha256', secret).update(`${userId}:${code}`).digest('hex');
}

/** Constant-time comparison of two hex digests (false when the lengths differ). */
export function sameHex(a: string, b: string): boolean {
  const ba = Buffer.from(a, 'hex');
  const bb = Buffer.from(b, 'hex');
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}

/** A fresh code for `userId` and the verification row that stores only its hash. */
function newCode(deps: Deps, userId: string, now: number) {
  const code = generateCode();
  const row = {
    user_id: userId,
    code_hash: hashCode(deps.config.AVAIL_SECRET_KEY, userId, code),
    expires_at: now + VERIFICATION_CODE_TTL_MS,
    now,
  };
  return { code, row };
}

/** E-mails `code` to the user. A failing mail server is logged, not thrown. */
async function mailCode(deps: Deps, user: Pick<UserRow, 'id' | 'email' | 'name'>, code: string): Promise<void> {
  const message = verificationEmail({
    to: user.email,
    name: user.name,
    code,
    publicBaseUrl: deps.config.PUBLIC_BASE_URL,
    ttlMinutes: Math.round(VERIFICATION_CODE_TTL_MS / 60_000),
  });
  try {
    await deps.mailer.send(message);
  } catch (err) {
    deps.logger.error({ err, userId: user.id }, 'could not send the verification e-mail');
  }
}

/** Creates a new code for `user` (replacing the previous one), stores its hash and e-mails it. */
async function sendNewCode(deps: Deps, user: UserRow): Promise<void> {
  const { code, row } = newCode(deps, user.id, deps.now());
  await authRepo.upsertVerification(deps.db, row);
  await mailCode(deps, user, code);
}

/**
 * How long an unverified registration holds its address against a registration with another
 * password. Afterwards the address can be registered again (new name, password and code), so an
 * address squatted by someone who never verified is freed.
 */
const PENDING_REGISTRATION_HOLD_MS = 24 * 60 * 60_000;

export interface PendingVerification {
  user: UserJson;
  token: null;
  requires_verification: true;
  message: string;
  email: string;
}

function emailTaken() {
  return conflict(MESSAGES.emailTaken, 'email_taken', { email: MESSAGES.emailTaken });
}

/**
 * Registers an account and e-mails a code → `{ user, token: null, requires_verification: true, message, email }`.
 * An address that already has an account:
 * - verified → 409 email_taken;
 * - unverified, same password (argon2 verify) → nothing changes, a code is (re)sent: a new one unless
 *   the last one was sent less than 30 s ago and is still valid; same answer as a fresh registration;
 * - unverified, another password, registered (user row or latest replacement) less than 24 h ago →
 *   409 email_taken, the same answer as for a verified account: the pending registration keeps its
 *   password, so whoever verifies the address never ends up with a stranger's password;
 * - unverified, another password, registered 24 h ago or more → name and password are replaced, every
 *   earlier code is invalidated (new code row) and a new code is sent.
 * The route adds the per-address hourly budget of verification e-mails (429).
 */
export async function register(deps: Deps, input: RegisterInput): Promise<PendingVerification> {
  const now = deps.now();
  const existing = await usersRepo.findUserByEmail(deps.db, input.email);
  if (!existing) return registerNew(deps, input, now);

  // The password is checked for verified accounts too, so both 409s cost the same.
  const samePassword = await verifyPassword(existing.password_hash, input.password);
  if (existing.email_verified_at != null) throw emailTaken();
  const pending = await authRepo.findVerification(deps.db, existing.id);

  if (samePassword) {
    const recent = pending && now - Number(pending.last_sent_at) < VERIFICATION_RESEND_COOLDOWN_MS && Number(pending.expires_at) > now;
    if (!recent) await sendNewCode(deps, existing);
    return pendingAnswer(deps, existing, now);
  }

  const registeredAt = Math.max(Number(existing.created_at), Number(pending?.created_at ?? 0));
  if (now - registeredAt < PENDING_REGISTRATION_HOLD_MS) throw emailTaken();

  const passwordHash = await hashPassword(input.password);
  const { code, row } = newCode(deps, existing.id, now);
  const replaced = await deps.db.transaction().execute(async (trx) => {
    // Compare-and-set: a concurrent replacement or a verification in between wins, this one is a 409.
    const ok = await usersRepo.replaceUnverifiedRegistration(trx, existing.id, existing.password_hash, {
      name: input.name,
      password_hash: passwordHash,
      // The profile document changed (name): replication stamp.
      updated_at: await nextStamp(trx, existing.id, now),
    });
    if (!ok) return false;
    await authRepo.deleteTokensOfUser(trx, existing.id);
    await authRepo.replaceVerification(trx, row);
    return true;
  });
  if (!replaced) throw emailTaken();
  const user: UserRow = { ...existing, name: input.name, password_hash: passwordHash };
  await mailCode(deps, user, code);
  return pendingAnswer(deps, user, now);
}

async function registerNew(deps: Deps, input: RegisterInput, now: number): Promise<PendingVerification> {
  const user: UserRow = {
    id: crypto.randomUUID(),
    name: input.name,
    email: input.email,
    password_hash: await hashPassword(input.password),
    timezone: 'Europe/Brussels',
    username: null,
    username_lower: null,
    username_changed_at: null,
    email_verified_at: null,
    created_at: now,
    updated_at: now,
    // The replication clock starts at the profile's first stamp (later stamps sort after it).
    repl_clock: now,
    plain_link_off: 0,
    intro: null,
    avatar_version: null,
    format_locale: null,
    hour12: null,
    week_start: null,
    proposal_target: null,
    two_factor_enabled_at: null,
  };
  try {
    await usersRepo.insertUser(deps.db, user);
  } catch (err) {
    // Two registrations of one address at once: the loser sees the usual conflict.
    if (isUniqueViolation(err)) throw emailTaken();
    throw err;
  }
  await sendNewCode(deps, user);
  return pendingAnswer(deps, user, now);
}

function pendingAnswer(deps: Deps, user: UserRow, now: number): PendingVerification {
  return { user: presentUser(user, now, deps.config.PUBLIC_BASE_URL), token: null, requires_verification: true, message: MESSAGES.registered, email: user.email };
}

export type LoginResult =
  | { user: UserJson; token: string; requires_verification: false; message: string }
  | { user: null; token: null; requires_verification: true; message: string; email: string };

/** E-mails the owner of `user` (when the address has an account) that a lock of wrong passwords started (not awaited). */
function mailPasswordLock(deps: Deps, user: UserRow | undefined, lockedUntil: number): void {
  if (!user) return;
  const now = deps.now();
  const message = loginLockedEmail({ to: user.email, name: user.name, failures: throttle.LOGIN_FREE_FAILURES, at: now, lockMinutes: Math.ceil((lockedUntil - now) / 60_000), publicBaseUrl: deps.config.PUBLIC_BASE_URL });
  void deps.mailer.send(message).catch((err: unknown) => deps.logger.error({ errName: (err as Error)?.name, userId: user.id }, 'could not send the failed-sign-in e-mail'));
  deps.logger.warn({ userId: user.id }, 'login throttled after repeated failures');
}

/**
 * Checks the password; 401 when wrong or unknown (same answer, same work). Unverified → requires_verification.
 * Each check is one throttled attempt reserved before it runs (login-throttle.service.ts beginAttempt):
 * 429 with `Retry-After` while locked, also for a burst of simultaneous guesses.
 * With two-factor sign-in on (issue 26), after the right password: no `two_factor_code` → 401
 * `two_factor_required`; a wrong, replayed or spent one → 401 `invalid_two_factor_code`, counted by
 * the account's second-factor throttle (5 free, then 30 s doubling to 15 min; cleared only by a
 * right code, never by the password or a password reset). A recovery code used to sign in is told
 * to the owner by e-mail.
 */
export async function login(deps: Deps, input: LoginInput, userAgent?: string): Promise<LoginResult> {
  // Locked after repeated wrong passwords (login-throttle.service.ts): 429, the password unchecked.
  const attempt = await throttle.beginAttempt(deps, { kind: 'password', email: input.email });
  const user = await usersRepo.findUserByEmail(deps.db, input.email);
  const ok = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), input.password);
  if (!user || !ok) {
    const { lockedUntil, notify } = await attempt.failed();
    if (notify && lockedUntil != null) mailPasswordLock(deps, user, lockedUntil);
    throw unauthenticated(MESSAGES.invalidCredentials, 'invalid_credentials');
  }
  await attempt.succeeded();
  if (user.two_factor_enabled_at != null) await twoFactor.assertLoginSecondFactor(deps, user, input.two_factor_code);
  if (user.email_verified_at == null) {
    return { user: null, token: null, requires_verification: true, message: MESSAGES.verifyFirst, email: user.email };
  }
  // The session is labelled from the User-Agent of the sign-in ("Chrome on macOS"; issue 26).
  const token = await issueToken(deps, user.id, userAgent);
  return { user: presentUser(user, deps.now(), deps.config.PUBLIC_BASE_URL), token, requires_verification: false, message: MESSAGES.loggedIn };
}

function invalidCode() {
  return new HttpError(422, 'invalid_verification_code', MESSAGES.invalidCode, { verification_code: MESSAGES.invalidCode });
}

/**
 * Verifies the e-mail with the code. Order: unknown address or no pending code → 422 invalid;
 * expired → 422 expired; 5 attempts used → 429; wrong → 422 invalid (counts an attempt);
 * right → verified, code deleted, token issued — unless the registration was replaced meanwhile
 * (another password): then 422 invalid, nothing verified.
 */
export async function verifyEmail(deps: Deps, input: VerifyEmailInput, userAgent?: string) {
  const now = deps.now();
  const user = await usersRepo.findUserByEmail(deps.db, input.email);
  if (!user) throw invalidCode();
  if (user.email_verified_at != null) throw new HttpError(409, 'already_verified', MESSAGES.alreadyVerified);
  const pending = await authRepo.findVerification(deps.db, user.id);
  if (!pending) throw invalidCode();
  if (pending.expires_at <= now) {
    throw new HttpError(422, 'verification_code_expired', MESSAGES.expiredCode, { verification_code: MESSAGES.expiredCode });
  }
  const counted = await authRepo.countAttempt(deps.db, user.id, VERIFICATION_MAX_ATTEMPTS);
  if (!counted) throw tooManyRequests(MESSAGES.tooManyAttempts, 'too_many_attempts');
  if (!sameHex(pending.code_hash, hashCode(deps.config.AVAIL_SECRET_KEY, user.id, input.verification_code))) {
    throw invalidCode();
  }
  const token = await deps.db.transaction().execute(async (trx) => {
    // The registration was replaced after we read it (new password, new code): this code is void.
    const stamp = await nextStamp(trx, user.id, now);
    if (!(await usersRepo.markVerifiedIfUnchanged(trx, user.id, user.password_hash, now, stamp))) throw invalidCode();
    await authRepo.deleteVerification(trx, user.id);
    return issueToken({ db: trx, now: deps.now }, user.id, userAgent);
  });
  const verified = { ...user, email_verified_at: now };
  return { success: true as const, message: MESSAGES.verified, user: presentUser(verified, now, deps.config.PUBLIC_BASE_URL), token };
}

/**
 * Sends a new code when the address belongs to an unverified account and the last code is older
 * than 30 s. The answer is the same in every case, so it never reveals whether an address exists.
 */
export async function resendVerification(deps: Deps, email: string) {
  const user = await usersRepo.findUserByEmail(deps.db, email);
  if (user && user.email_verified_at == null) {
    const pending = await authRepo.findVerification(deps.db, user.id);
    const now = deps.now();
    if (!pending || now - pending.last_sent_at >= VERIFICATION_RESEND_COOLDOWN_MS) await sendNewCode(deps, user);
  }
  return { success: true as const, message: MESSAGES.resent };
}

/** Revokes the token the request was made with. */
export async function logout(deps: Deps, tokenId: string) {
  await authRepo.deleteToken(deps.db, tokenId);
  return { success: true as const, message: MESSAGES.loggedOut };
}
