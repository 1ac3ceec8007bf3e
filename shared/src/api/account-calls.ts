/**
 * The signed-in owner's account calls (product spec §7, docs/account-security.md): deleting the
 * account, two-factor sign-in, the sessions, the password and the e-mail address. Part of `api`
 * (`api-client.ts`).
 */
import { get, post, put, del } from './api-transport.ts';
import type { AccountChangeResult, AccountSession, TwoFactorSetup, User } from './api-shapes.ts';

export const accountCalls = {

  /**
   * DELETE /me `{ password, two_factor_code? }`: deletes the account and everything it owns. 204; 422
   * with `errors.password` for a missing or wrong password, or `errors.two_factor_code` when
   * two-factor sign-in is on and the code (TOTP or recovery code) is missing or wrong (nothing
   * deleted); 429 while throttled.
   */
  deleteAccount: (password: string, twoFactorCode?: string) =>
    del<null>('/me', { body: twoFactorCode ? { password, two_factor_code: twoFactorCode } : { password } }),
  /**
   * POST /me/two-factor/setup: a new pending secret (replaces an earlier pending one). 409
   * `two_factor_enabled` when two-factor sign-in is already on.
   */
  twoFactorSetup: (password: string) => post<TwoFactorSetup>('/me/two-factor/setup', { password }),
  /**
   * POST /me/two-factor/enable `{ code }` (the 6-digit code of the pending secret): two-factor
   * sign-in is on; the 10 recovery codes (`xxxxx-xxxxx`, each works once) are returned this once.
   * 422 `invalid_two_factor_code`; 409 `two_factor_setup_required` without a pending setup.
   */
  twoFactorEnable: (code: string) => post<{ recovery_codes: string[]; ended_sessions?: number }>('/me/two-factor/enable', { code }),
  /**
   * DELETE /me/two-factor `{ password, code }` (a current TOTP code or a recovery code): off. 204;
   * 422 with `errors.password` / `errors.code`; 429 while throttled.
   */
  twoFactorDisable: (body: { password: string; code: string }) => del<null>('/me/two-factor', { body }),
  me: (bust = false) => get<{ user: User }>('/me', bust ? { query: { t: Date.now() } } : undefined),

  /** GET /me/sessions (issue 26): the owner's sessions, the current one first, then by last use, newest first. */
  sessions: () => get<{ sessions: AccountSession[] }>('/me/sessions'),
  /** DELETE /me/sessions/{id}: that session's token stops working (204; the current one too); 404 `not_found`. */
  endSession: (id: string) => del<null>(`/me/sessions/${encodeURIComponent(id)}`),
  /** DELETE /me/sessions: every session but the current one ends; 200 `{ ended }` (how many). */
  endOtherSessions: () => del<{ ended: number }>('/me/sessions'),
  /**
   * PUT /me/password: changes the password while signed in; every other session ends and this one goes
   * on under a new token. 200 `{ success, message, token }` (store `token`: the one sent stopped working);
   * 422 `validation_failed` with `errors.current_password` / `errors.password` / `errors.password_confirmation`;
   * with two-factor sign-in on, `two_factor_code` (TOTP or recovery code) is needed too: 422
   * `two_factor_required` / `invalid_two_factor_code` with `errors.two_factor_code`;
   * 429 while the login throttle or the second-factor throttle holds the account (`Retry-After`).
   */
  changePassword: (body: { current_password: string; password: string; password_confirmation: string; two_factor_code?: string }) =>
    put<AccountChangeResult & { token?: string }>('/me/password', body),
  /**
   * POST /me/email: sends a 6-digit code (15 min, 5 guesses) to the new address; the current one is told. 200
   * `{ success, message, email }`; 409 `email_taken` (`errors.email`); 422 `errors.password` / `errors.email`, or
   * with two-factor sign-in on `errors.two_factor_code` (`two_factor_required` / `invalid_two_factor_code`: a TOTP
   * or recovery code is needed); 429 more than 6 codes an hour or while throttled.
   */
  requestEmailChange: (body: { email: string; password: string; two_factor_code?: string }) => post<AccountChangeResult & { email: string }>('/me/email', body),
  /** POST /me/email/verify: the code moves the account to the new address. 200 `{ success, message, user }`; 422 `invalid_code`; 429. */
  verifyEmailChange: (code: string) => post<AccountChangeResult & { user: User }>('/me/email/verify', { code }),
};
