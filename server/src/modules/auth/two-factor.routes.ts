/** /api/me/two-factor* (issue 26; docs/account-security.md "Two-factor sign-in") — thin: validate, call the service, send its result. */
import { Router } from 'express';
import { twoFactorDisableSchema, twoFactorEnableSchema, twoFactorSetupSchema } from '@avail/shared/schemas/two-factor.schema.ts';
import { authenticate, currentUser, requireVerified } from '../../http/authenticate.ts';
import type { Deps } from '../../http/deps.ts';
import { unauthenticated } from '../../http/errors.ts';
import { validate } from '../../http/validate.ts';
import { LoginLockedError } from './login-throttle.service.ts';
import * as twoFactor from './two-factor.service.ts';

/** Router for /api/me/two-factor*; mounted under /api. Every route: 401 without a valid token, 403 unverified. */
export function twoFactorRouter(deps: Deps) {
  const r = Router();
  const auth = [authenticate(deps), requireVerified];

  /**
   * POST /api/me/two-factor/setup — `{ password }` (so that a stolen session token alone cannot turn
   * two-factor on and lock the owner out). 200 `{ secret, otpauth_url, qr_svg }`: a new base32
   * secret (30-second steps, 6 digits, SHA-1; issuer "Avail", label the e-mail), stored sealed as the
   * pending one (setup again replaces it); `qr_svg` is the QR code of `otpauth_url` as SVG markup.
   * 422 `validation_failed` (`errors.password`) for a missing or wrong password, counted by the
   * login throttle (429 with `Retry-After` while it holds the account).
   * 409 `two_factor_enabled` when two-factor sign-in is already on.
   */
  r.post('/me/two-factor/setup', ...auth, validate(twoFactorSetupSchema), async (req, res) => {
    try {
      res.json(await twoFactor.setup(deps, currentUser(req), req.body.password));
    } catch (err) {
      if (err instanceof LoginLockedError) res.setHeader('Retry-After', String(err.retryAfterS));
      throw err;
    }
  });

  /**
   * POST /api/me/two-factor/enable — `{ code }`: the 6-digit code of the pending secret (±30 s).
   * 200 `{ recovery_codes: string[], ended_sessions: number }` (10 × `xxxxx-xxxxx`, shown this once,
   * each works once; every other session of the owner ends); the owner is e-mailed. 422 `invalid_two_factor_code` (`errors.code` = 'The code is incorrect.');
   * 422 `validation_failed` without a code; 409 `two_factor_setup_required` without a pending setup;
   * 409 `two_factor_enabled` when already on.
   */
  r.post('/me/two-factor/enable', ...auth, validate(twoFactorEnableSchema), async (req, res) => {
    if (!req.authTokenId) throw unauthenticated();
    res.json(await twoFactor.enable(deps, currentUser(req), req.authTokenId, req.body.code));
  });

  /**
   * DELETE /api/me/two-factor — `{ password, code }` (`code`: a current TOTP code or an unused
   * recovery code). 204: two-factor sign-in is off, its secret and recovery codes are deleted, the
   * owner is e-mailed. 422 `validation_failed` (`errors.password`: missing or wrong password;
   * `errors.code`: missing code); 422 `invalid_two_factor_code` (`errors.code`) for a wrong code —
   * wrong passwords and codes count for the login throttle: 429 with `Retry-After` (s) while it holds
   * the account. 409 `two_factor_not_enabled` when it is off.
   */
  r.delete('/me/two-factor', ...auth, validate(twoFactorDisableSchema), async (req, res) => {
    try {
      await twoFactor.disable(deps, currentUser(req), req.body);
    } catch (err) {
      if (err instanceof LoginLockedError) res.setHeader('Retry-After', String(err.retryAfterS));
      throw err;
    }
    res.status(204).end();
  });

  return r;
}
