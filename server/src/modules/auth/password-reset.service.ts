/**
 * Password reset (issue 4): "Forgot password?" e-mails a 6-digit code (30 minutes, 5 guesses);
 * the code and a new password set the password, sign out every device and verify the address
 * (the code proves the mailbox). Codes are stored only as HMACs (auth.service.ts `hashCode`).
 * Answers never reveal whether an address has an account.
 */
import type { ForgotPasswordInput, ResetPasswordInput } from '@avail/shared/schemas/auth.schema.ts';
import type { Deps } from '../../http/deps.ts';
import { badRequest } from '../../http/errors.ts';
import { passwordResetEmail } from '../../mail/mailer.ts';
import { nextStamp } from '../../store/repl-clock.repo.ts';
import * as authRepo from './auth.repo.ts';
import { generateCode, hashCode, sameHex } from './auth.service.ts';
import { clearFailures } from './login-throttle.service.ts';
import { hashPassword } from './password.ts';
import * as resetRepo from './password-reset.repo.ts';
import * as usersRepo from '../../store/users.repo.ts';

/** A reset code is valid for 30 minutes. */
const RESET_CODE_TTL_MS = 30 * 60_000;
/** Guesses allowed per reset code; after them the code is dead. */
const RESET_MAX_ATTEMPTS = 5;

const RESET_MESSAGES = {
  requested: 'If an account exists for that email, we sent a reset code. Please check your inbox and spam folder.',
  reset: 'Your password has been reset. You can sign in now.',
  invalidCode: 'Invalid or expired reset code',
} as const;

/** 400 `{ error: 'Invalid or expired reset code', code: 'invalid_code' }`: one answer for every refusal. */
function invalidResetCode() {
  return badRequest(RESET_MESSAGES.invalidCode, 'invalid_code');
}

/**
 * POST /auth/forgot-password. For an existing account: a new code replaces any earlier one (30 min,
 * attempts 0), its HMAC is stored and the code is e-mailed with a link
 * `${PUBLIC_BASE_URL}/forgot-password?email=<urlencoded>&code=<code>`. The mail is handed to the
 * mailer without waiting for delivery, so both cases answer after the same work (a lookup and one
 * HMAC); a failing mail server is logged (user id only), never answered.
 * @returns always `{ success: true, message: RESET_MESSAGES.requested }`.
 */
export async function forgotPassword(deps: Deps, input: ForgotPasswordInput) {
  const now = deps.now();
  const user = await usersRepo.findUserByEmail(deps.db, input.email);
  const code = generateCode();
  const codeHash = hashCode(deps.config.AVAIL_SECRET_KEY, user?.id ?? '', code);
  if (user) {
    await resetRepo.upsertReset(deps.db, { user_id: user.id, code_hash: codeHash, expires_at: now + RESET_CODE_TTL_MS, now });
    const message = passwordResetEmail({
      to: user.email,
      name: user.name,
      code,
      publicBaseUrl: deps.config.PUBLIC_BASE_URL,
      ttlMinutes: Math.round(RESET_CODE_TTL_MS / 60_000),
    });
    void deps.mailer.send(message).catch((err: unknown) => {
      // Name and code only: a mail error's message could echo the message, which carries the code.
      const e = err as { name?: unknown; code?: unknown };
      deps.logger.error(
        { userId: user.id, errName: String(e?.name ?? 'Error'), errCode: e?.code == null ? undefined : String(e.code) },
        'could not send the password-reset e-mail',
      );
    });
  }
  return { success: true as const, message: RESET_MESSAGES.requested };
}

/**
 * POST /auth/reset-password with `{ email, code, password }` (validated: password ≥ 8, confirmed).
 * Refused with 400 invalid_code (same answer each time) when the address is unknown, there is no
 * pending code, it expired, its 5 guesses are used up (every guess counts, the right one too), or the
 * code is wrong (counts a guess). Otherwise, in one transaction: the code is consumed
 * (compare-and-set), the password becomes the new argon2id hash, every bearer token of the user is
 * revoked (all devices signed out) and an unverified address becomes verified (its pending
 * verification code deleted). The login throttle's count for the address is cleared.
 * @returns `{ success: true, message: RESET_MESSAGES.reset }`.
 */
export async function resetPassword(deps: Deps, input: ResetPasswordInput) {
  const now = deps.now();
  const user = await usersRepo.findUserByEmail(deps.db, input.email);
  if (!user) throw invalidResetCode();
  const pending = await resetRepo.findReset(deps.db, user.id);
  if (!pending || Number(pending.expires_at) <= now) throw invalidResetCode();
  if (!(await resetRepo.countResetAttempt(deps.db, user.id, RESET_MAX_ATTEMPTS))) throw invalidResetCode();
  if (!sameHex(pending.code_hash, hashCode(deps.config.AVAIL_SECRET_KEY, user.id, input.code))) throw invalidResetCode();

  const passwordHash = await hashPassword(input.password);
  const done = await deps.db.transaction().execute(async (trx) => {
    if (!(await resetRepo.consumeReset(trx, user.id, pending.code_hash))) return false;
    if (user.email_verified_at == null) {
      // The profile document changes (email_verified_at): replication stamp.
      const stamp = await nextStamp(trx, user.id, now);
      await usersRepo.updateUser(trx, user.id, { password_hash: passwordHash, email_verified_at: now, updated_at: stamp });
      await authRepo.deleteVerification(trx, user.id);
    } else {
      await usersRepo.updateUser(trx, user.id, { password_hash: passwordHash });
    }
    await authRepo.deleteTokensOfUser(trx, user.id);
    return true;
  });
  if (!done) throw invalidResetCode();
  await clearFailures(deps, user.email); // a new password: the login throttle starts afresh
  deps.logger.info({ userId: user.id }, 'password reset; every session signed out');
  return { success: true as const, message: RESET_MESSAGES.reset };
}
