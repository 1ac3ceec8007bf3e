/**
 * Password change while signed in (issue 26; docs/account-security.md "Password change while
 * signed in"): the current password, then the new one; every other session ends and the owner is
 * told by e-mail.
 */
import { INCORRECT_PASSWORD, type ChangePasswordInput } from '@avail/shared/schemas/auth.schema.ts';
import { generateToken, hashToken } from '../../http/authenticate.ts';
import type { Deps } from '../../http/deps.ts';
import { HttpError, unauthenticated } from '../../http/errors.ts';
import { passwordChangedEmail } from '../../mail/account-change-mails.ts';
import * as usersRepo from '../../store/users.repo.ts';
import * as throttle from './login-throttle.service.ts';
import * as passwordRepo from './password-change.repo.ts';
import { hashPassword, verifyPassword } from './password.ts';
import * as sessionsRepo from './sessions.repo.ts';
import { assertAccountChangeSecondFactor } from './two-factor.service.ts';

const PASSWORD_CHANGED_MESSAGE = 'Your password has been changed. Other devices were signed out.';

/** 422 `validation_failed` on `current_password` (missing or wrong). */
function incorrectCurrentPassword() {
  return new HttpError(422, 'validation_failed', INCORRECT_PASSWORD, { current_password: INCORRECT_PASSWORD });
}

/**
 * PUT /api/me/password for `userId`, signed in with session `currentSessionId` (validated input).
 * 1. While the owner's e-mail is locked by the login throttle: 429 LoginLockedError (Retry-After).
 * 2. A wrong current password: 422 `errors.current_password = 'The password is incorrect.'`,
 *    counted by the login throttle like a wrong sign-in (5 free, then locks).
 * 3. With two-factor sign-in on, `two_factor_code` (TOTP or recovery code): missing → 422
 *    `two_factor_required`, wrong → 422 `invalid_two_factor_code` (both on `errors.two_factor_code`;
 *    wrong ones counted by the second-factor throttle, 429 with Retry-After while it holds).
 * 4. Otherwise the new argon2id hash is stored only while the old one is still in place (a
 *    concurrent change wins, this one answers 422 as a wrong password), every other session of
 *    the owner ends in the same transaction, and this one stays signed in under a NEW token (the
 *    old one stops working: a copy of it taken from this device — the usual way a token is stolen —
 *    is not the owner's "current" session any more), the throttle's count is cleared, and "Your
 *    Avail password was changed" is e-mailed (no address, no IP; a failing mail server is logged,
 *    never answered).
 * @returns `{ success: true, message: PASSWORD_CHANGED_MESSAGE, token }` — the client stores `token`.
 */
export async function changePassword(deps: Deps, userId: string, currentSessionId: string, input: ChangePasswordInput) {
  const user = await usersRepo.findUserById(deps.db, userId);
  if (!user) throw unauthenticated();
  if (!(await throttle.throttledCheck(deps, { kind: 'password', email: user.email }, () => verifyPassword(user.password_hash, input.current_password)))) {
    throw incorrectCurrentPassword();
  }
  // A stolen session and a phished password are not enough to lock the owner out (issue 26 review).
  await assertAccountChangeSecondFactor(deps, user, input.two_factor_code);
  const passwordHash = await hashPassword(input.password);
  const token = generateToken();
  const ended = await deps.db.transaction().execute(async (trx) => {
    if (!(await passwordRepo.setPasswordIfUnchanged(trx, user.id, user.password_hash, passwordHash))) return null;
    if (!(await passwordRepo.rotateSessionToken(trx, user.id, currentSessionId, hashToken(token), deps.now()))) return null;
    return sessionsRepo.deleteOtherSessions(trx, user.id, currentSessionId);
  });
  if (ended == null) throw incorrectCurrentPassword();
  const message = passwordChangedEmail({ to: user.email, name: user.name, at: deps.now(), publicBaseUrl: deps.config.PUBLIC_BASE_URL });
  void deps.mailer.send(message).catch((err: unknown) =>
    deps.logger.error({ errName: (err as Error)?.name, userId: user.id }, 'could not send the password-changed e-mail'),
  );
  deps.logger.info({ userId: user.id, endedSessions: ended }, 'password changed; other sessions signed out');
  return { success: true as const, message: PASSWORD_CHANGED_MESSAGE, token };
}
