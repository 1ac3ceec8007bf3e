/**
 * /api/me/sessions, /api/me/password, /api/me/email — the owner's sessions, password change and
 * e-mail change while signed in (issue 26; the contract is docs/account-security.md). Thin:
 * validate, call the service, send its result.
 */
import { Router, type Request, type Response } from 'express';
import { changeEmailSchema, changePasswordSchema, verifyEmailChangeSchema } from '@avail/shared/schemas/auth.schema.ts';
import { authenticate, currentUser, requireVerified } from '../../http/authenticate.ts';
import type { Deps } from '../../http/deps.ts';
import { notFound, unauthenticated } from '../../http/errors.ts';
import { limiter, type RateLimits } from '../../http/rate-limit.ts';
import { validate } from '../../http/validate.ts';
import { confirmEmailChange, requestEmailChange } from './email-change.service.ts';
import { LoginLockedError } from './login-throttle.service.ts';
import { changePassword } from './password-change.service.ts';
import { endOtherSessions, endSession, listSessions } from './sessions.service.ts';

/** A session id: a UUID (auth_tokens ids are crypto.randomUUID()). */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The id of the session (auth_tokens row) of an authenticated request. */
function sessionOf(req: Request): string {
  if (!req.authTokenId) throw unauthenticated();
  return req.authTokenId;
}

/** Runs `fn`; a login-throttle lock adds `Retry-After` (seconds) to its 429. */
async function withRetryAfter<T>(res: Response, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof LoginLockedError) res.setHeader('Retry-After', String(err.retryAfterS));
    throw err;
  }
}

/** Router for the owner's sessions, password change and e-mail change; mounted under /api. */
export function accountSecurityRouter(deps: Deps, limits: RateLimits) {
  const r = Router();
  const guard = [authenticate(deps), requireVerified];
  const perIp = limiter(limits.authPerIp);

  /**
   * GET /api/me/sessions → 200 `{ sessions: [{ id, label, created_at, last_used_at, current }] }`
   * (ISO 8601 UTC times), the current session first, then by last use, newest first. 401.
   */
  r.get('/me/sessions', ...guard, async (req, res) => {
    res.json(await listSessions(deps, currentUser(req).id, sessionOf(req)));
  });

  /**
   * DELETE /api/me/sessions/{id} → 204: that session's token stops working at once (the current
   * one too). 404 `not_found` for an id that is not one of the owner's sessions (any non-UUID too). 401.
   */
  r.delete('/me/sessions/:id', ...guard, async (req, res) => {
    const id = String(req.params.id);
    if (!SESSION_ID.test(id)) throw notFound();
    await endSession(deps, currentUser(req).id, id.toLowerCase());
    res.status(204).end();
  });

  /** DELETE /api/me/sessions → 200 `{ ended: n }`: every session but the current one ends. 401. */
  r.delete('/me/sessions', ...guard, async (req, res) => {
    res.json(await endOtherSessions(deps, currentUser(req).id, sessionOf(req)));
  });

  /**
   * PUT /api/me/password — `{ current_password, password, password_confirmation, two_factor_code? }` →
   * 200 `{ success: true, message: 'Your password has been changed. Other devices were signed out.', token }`:
   * this session goes on under `token` (the one sent stops working), every other session ends;
   * every other session ends and the owner is e-mailed. 422 `validation_failed`:
   * `errors.current_password = 'The password is incorrect.'` (missing or wrong; a wrong one counts
   * for the login throttle), 'Password must be at least 8 characters', 'Passwords do not match'.
   * With two-factor sign-in on, after the password: 422 `two_factor_required` / `invalid_two_factor_code`
   * (`errors.two_factor_code`; TOTP or recovery code; wrong ones counted by the second-factor throttle).
   * 429 with `Retry-After` (s) while the account's sign-ins or second factor are throttled. 401.
   */
  r.put('/me/password', perIp, ...guard, validate(changePasswordSchema), async (req, res) => {
    res.json(await withRetryAfter(res, () => changePassword(deps, currentUser(req).id, sessionOf(req), req.body)));
  });

  /**
   * POST /api/me/email — `{ email, password, two_factor_code? }` → 200 `{ success: true, message: 'We sent a 6-digit
   * code to <email>.', email }`; the code (15 minutes, 5 guesses) goes to the new address and the
   * current address is told a change was asked for. 409 `email_taken` (`errors.email = 'Email is
   * already registered'`); 422 `errors.password` (missing or wrong: counted by the login throttle)
   * or `errors.email` (bad address, or the owner's own); with two-factor sign-in on, 422
   * `two_factor_required` / `invalid_two_factor_code` (`errors.two_factor_code`, after the password);
   * 429 more than 6 codes an hour, or with `Retry-After` while sign-ins or the second factor are throttled. 401.
   */
  r.post('/me/email', perIp, ...guard, validate(changeEmailSchema), async (req, res) => {
    res.json(await withRetryAfter(res, () => requestEmailChange(deps, currentUser(req).id, req.body)));
  });

  /**
   * POST /api/me/email/verify — `{ code }` → 200 `{ success: true, message: 'Your e-mail address
   * has been changed.', user }`; the old address gets a notice. 422 `invalid_code` ('Invalid or
   * expired code', `errors.code`), 422 `validation_failed` for a code that is not 6 digits; 429 `too_many_attempts` after 5 guesses
   * on one code; 409 `email_taken` when the address was taken meanwhile. 401.
   */
  r.post('/me/email/verify', perIp, ...guard, validate(verifyEmailChangeSchema), async (req, res) => {
    res.json(await confirmEmailChange(deps, currentUser(req).id, req.body));
  });

  return r;
}
