/**
 * E-mail change while signed in (issue 26; docs/account-security.md "E-mail change"): the owner
 * asks with the new address and their password, a 6-digit code goes to the new address (15
 * minutes, 5 guesses), and the code makes the change; the old address is told afterwards. The
 * address stays verified (the code proves the new mailbox). Codes are stored only as HMACs bound
 * to the user and the new address (auth.service.ts `hashCode`).
 */
import { VERIFICATION_CODE_TTL_MS } from '@avail/shared/constants.ts';
import { INCORRECT_PASSWORD, type ChangeEmailInput, type VerifyEmailChangeInput } from '@avail/shared/schemas/auth.schema.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Deps } from '../../http/deps.ts';
import { HttpError, conflict, tooManyRequests, unauthenticated } from '../../http/errors.ts';
import { emailChangeCodeEmail, emailChangeRequestedNoticeEmail, emailChangedNoticeEmail } from '../../mail/account-change-mails.ts';
import { replicatedWrite } from '../../store/repl-clock.repo.ts';
import * as usersRepo from '../../store/users.repo.ts';
import { generateCode, hashCode, sameHex } from './auth.service.ts';
import * as changeRepo from './email-change.repo.ts';
import * as throttle from './login-throttle.service.ts';
import { verifyPassword } from './password.ts';
import { assertAccountChangeSecondFactor } from './two-factor.service.ts';
import { presentUser, type UserJson } from './user.presenter.ts';

/** A code is valid for 15 minutes (as a verification code). */
const EMAIL_CHANGE_CODE_TTL_MS = VERIFICATION_CODE_TTL_MS;
/** Guesses allowed per code; after them the code is dead (429). */
const EMAIL_CHANGE_MAX_ATTEMPTS = 5;
/** Codes an owner may have sent per hour. */
const EMAIL_CHANGE_CODES_PER_HOUR = 6;

const EMAIL_CHANGE_MESSAGES = {
  sent: (email: string) => `We sent a 6-digit code to ${email}.`,
  changed: 'Your e-mail address has been changed.',
  taken: 'Email is already registered',
  same: 'This is already your email address',
  invalidCode: 'Invalid or expired code',
  tooManyAttempts: 'Too many incorrect attempts. Please request a new code.',
  tooManyCodes: 'Too many codes requested. Please try again later.',
} as const;

function emailTaken() {
  return conflict(EMAIL_CHANGE_MESSAGES.taken, 'email_taken', { email: EMAIL_CHANGE_MESSAGES.taken });
}

function invalidCode() {
  return new HttpError(422, 'invalid_code', EMAIL_CHANGE_MESSAGES.invalidCode, { code: EMAIL_CHANGE_MESSAGES.invalidCode });
}

/** The HMAC of `code` for a change of `userId` to `newEmail`: a code is good for that address only. */
function changeCodeHash(deps: Pick<Deps, 'config'>, userId: string, newEmail: string, code: string): string {
  return hashCode(deps.config.AVAIL_SECRET_KEY, `email-change:${userId}:${newEmail}`, code);
}

/**
 * POST /api/me/email `{ email, password, two_factor_code? }` (validated: trimmed, lower-cased address).
 * Order: the address is the owner's own → 422 `errors.email`; the owner's e-mail locked by the
 * login throttle → 429 LoginLockedError (Retry-After); wrong password → 422 `errors.password`
 * (counted by the throttle); two-factor sign-in on and `two_factor_code` missing → 422
 * `two_factor_required`, wrong → 422 `invalid_two_factor_code` (`errors.two_factor_code`; counted
 * by the second-factor throttle, 429 with Retry-After while it holds); the address belongs to
 * another account, verified or not → 409 `email_taken`; more than 6 codes this hour → 429
 * `rate_limited`. Otherwise a new code replaces any earlier one (15 minutes, 5 guesses) and goes to
 * the new address, and the current (old) address is told that a change was asked for (without the
 * new address); a failing mail server is logged, never answered.
 * @returns `{ success: true, message: 'We sent a 6-digit code to <email>.', email }`.
 */
export async function requestEmailChange(deps: Deps, userId: string, input: ChangeEmailInput) {
  const user = await usersRepo.findUserById(deps.db, userId);
  if (!user) throw unauthenticated();
  if (input.email === user.email) throw new HttpError(422, 'validation_failed', EMAIL_CHANGE_MESSAGES.same, { email: EMAIL_CHANGE_MESSAGES.same });
  if (!(await throttle.throttledCheck(deps, { kind: 'password', email: user.email }, () => verifyPassword(user.password_hash, input.password)))) {
    throw new HttpError(422, 'validation_failed', INCORRECT_PASSWORD, { password: INCORRECT_PASSWORD });
  }
  // A stolen session and a phished password are not enough to move the account (issue 26 review).
  await assertAccountChangeSecondFactor(deps, user, input.two_factor_code);
  // Only after the password (and second factor): a stolen token alone does not tell which addresses have accounts.
  if (await usersRepo.findUserByEmail(deps.db, input.email)) throw emailTaken();
  const now = deps.now();
  const code = generateCode();
  const stored = await changeRepo.startChange(
    deps.db,
    { user_id: user.id, new_email: input.email, code_hash: changeCodeHash(deps, user.id, input.email, code), expires_at: now + EMAIL_CHANGE_CODE_TTL_MS, now },
    { maxPerWindow: EMAIL_CHANGE_CODES_PER_HOUR, windowMs: 60 * 60_000 },
  );
  if (!stored) throw tooManyRequests(EMAIL_CHANGE_MESSAGES.tooManyCodes);
  try {
    await deps.mailer.send(emailChangeCodeEmail({ to: input.email, name: user.name, code, ttlMinutes: Math.round(EMAIL_CHANGE_CODE_TTL_MS / 60_000) }));
  } catch (err) {
    // Name only: a mail error's message could echo the message, which carries the code.
    deps.logger.error({ errName: (err as Error)?.name, userId: user.id }, 'could not send the e-mail-change code');
  }
  // The owner hears of it at the address they still control, before any code is used.
  try {
    await deps.mailer.send(emailChangeRequestedNoticeEmail({ to: user.email, name: user.name, at: now }));
  } catch (err) {
    deps.logger.error({ errName: (err as Error)?.name, userId: user.id }, 'could not send the e-mail-change-requested notice');
  }
  return { success: true as const, message: EMAIL_CHANGE_MESSAGES.sent(input.email), email: input.email };
}

/**
 * POST /api/me/email/verify `{ code }`. No pending change, or it expired → 422 `invalid_code`;
 * 5 guesses used → 429 `too_many_attempts` (every guess counts, the right one too); wrong code →
 * 422 `invalid_code` (counts a guess); the address was taken meanwhile → 409 `email_taken`.
 * Otherwise, in one transaction, the code is consumed (compare-and-set), the e-mail becomes the new
 * one (the profile's replication stamp moves; `email_verified_at` stays) and a pending
 * password-reset code (mailed to the old address) is dropped. Then the login throttle's count of
 * the old address is cleared and the old address gets a notice (without the new address).
 * @returns `{ success: true, message: 'Your e-mail address has been changed.', user }` (User JSON).
 */
export async function confirmEmailChange(deps: Deps, userId: string, input: VerifyEmailChangeInput): Promise<{ success: true; message: string; user: UserJson }> {
  const user = await usersRepo.findUserById(deps.db, userId);
  if (!user) throw unauthenticated();
  const pending = await changeRepo.findChange(deps.db, user.id);
  if (!pending || Number(pending.expires_at) <= deps.now()) throw invalidCode();
  if (!(await changeRepo.countChangeAttempt(deps.db, user.id, EMAIL_CHANGE_MAX_ATTEMPTS))) {
    throw tooManyRequests(EMAIL_CHANGE_MESSAGES.tooManyAttempts, 'too_many_attempts');
  }
  if (!sameHex(pending.code_hash, changeCodeHash(deps, user.id, pending.new_email, input.code))) throw invalidCode();
  const other = await usersRepo.findUserByEmail(deps.db, pending.new_email);
  if (other && other.id !== user.id) throw emailTaken();
  try {
    await replicatedWrite(deps, user.id, async (trx, stamp) => {
      if (!(await changeRepo.consumeChange(trx, user.id, pending.code_hash))) throw invalidCode();
      await changeRepo.setEmail(trx, user.id, pending.new_email, await stamp('profile'));
      await changeRepo.deletePendingReset(trx, user.id);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw emailTaken();
    throw err;
  }
  const now = deps.now();
  await throttle.clearFailures(deps, user.email);
  try {
    await deps.mailer.send(emailChangedNoticeEmail({ to: user.email, name: user.name, at: now }));
  } catch (err) {
    deps.logger.error({ errName: (err as Error)?.name, userId: user.id }, 'could not send the e-mail-changed notice');
  }
  deps.logger.info({ userId: user.id }, 'e-mail address changed');
  const updated = (await usersRepo.findUserById(deps.db, user.id)) ?? { ...user, email: pending.new_email };
  return { success: true as const, message: EMAIL_CHANGE_MESSAGES.changed, user: presentUser(updated, now, deps.config.PUBLIC_BASE_URL) };
}
