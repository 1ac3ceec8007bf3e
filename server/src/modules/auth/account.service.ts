/**
 * Deleting an account (issue 12; the legal pages promise account data is gone within 30 days —
 * here it is gone at once, logs excepted).
 */
import { purgeDeletedRows } from '../../db/kysely.ts';
import type { Deps } from '../../http/deps.ts';
import { HttpError } from '../../http/errors.ts';
import { revokeAllGrants } from '../oauth/index.ts';
import { flushPageViews } from '../../store/page-views.ts';
import { changeBusFor } from '../../store/change-bus.ts';
import { deleteAccountRows } from './account.repo.ts';
import { scheduleEraseVacuum } from './erase-vacuum.service.ts';
import * as throttle from './login-throttle.service.ts';
import { verifyPassword } from './password.ts';
import { assertAccountChangeSecondFactor } from './two-factor.service.ts';
import * as usersRepo from '../../store/users.repo.ts';

const ACCOUNT_MESSAGES = {
  passwordRequired: 'Please enter your password to delete your account.',
  wrongPassword: 'The password is incorrect.',
} as const;

/**
 * Deletes the account of `userId` after checking `password`:
 * 1. the password (422 `validation_failed` with `errors.password` when missing or wrong — not 401,
 *    which would sign the owner out; wrong passwords count towards the login throttle, and a
 *    locked account gets 429 like the login); with two-factor sign-in on, then `twoFactorCode`
 *    (TOTP or recovery code; 422 `errors.two_factor_code`, wrong ones throttled; two-factor.service.ts);
 * 2. Google/Microsoft: push channels stopped and grants revoked, best effort;
 * 3. pending page views written, then in ONE transaction every row of the user (account.repo.ts)
 *    and the user;
 * 4. on SQLite the write-ahead log is checkpointed and truncated: with `secure_delete` on, no
 *    byte of the owner's rows stays readable in the database files (db/kysely.ts purgeDeletedRows);
 *    on PostgreSQL a job rewrites the tables with VACUUM FULL a minute later (erase-vacuum.service.ts);
 * 5. the change bus tells every instance: the public link answers 404 on the next request.
 * Nothing is deleted when the password check fails. Resolves to the rows deleted per table.
 */
export async function deleteAccount(deps: Deps, userId: string, password: unknown, twoFactorCode?: unknown): Promise<Record<string, number>> {
  if (typeof password !== 'string' || password.length === 0) {
    throw new HttpError(422, 'validation_failed', ACCOUNT_MESSAGES.passwordRequired, { password: ACCOUNT_MESSAGES.passwordRequired });
  }
  const user = await usersRepo.findUserById(deps.db, userId);
  if (!user) throw new HttpError(404, 'not_found', 'Not found');
  if (!(await throttle.throttledCheck(deps, { kind: 'password', email: user.email }, () => verifyPassword(user.password_hash, password)))) {
    throw new HttpError(422, 'validation_failed', ACCOUNT_MESSAGES.wrongPassword, { password: ACCOUNT_MESSAGES.wrongPassword });
  }
  // Two-factor sign-in on (issue 26): also a TOTP or recovery code (422 on two_factor_code; wrong ones are throttled).
  await assertAccountChangeSecondFactor(deps, user, twoFactorCode);
  const revoked = await revokeAllGrants(deps, userId);
  await flushPageViews(deps.db);
  const counts = await deps.db.transaction().execute((trx) => deleteAccountRows(trx, userId));
  // No copy left in the write-ahead log (SQLite; secure_delete zeroed the freed space): issue 26.
  await purgeDeletedRows(deps.db);
  await scheduleEraseVacuum(deps);
  // The public cache (this and other instances) forgets the owner and their link at once.
  await changeBusFor(deps.db).publish(userId, [], deps.logger);
  deps.logger.info({ userId, revokedGrants: revoked, rows: Object.values(counts).reduce((a, b) => a + b, 0) }, 'account deleted');
  return counts;
}
