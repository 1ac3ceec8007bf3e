/** /api/auth/* — thin: validate, call the service, send its result. */
import { Router } from 'express';
import {
  forgotPasswordSchema,
  loginSchema,
  registerSchema,
  resendVerificationSchema,
  resetPasswordSchema,
  verifyEmailSchema,
} from '@avail/shared/schemas/auth.schema.ts';
import { authenticate, currentUser } from '../../http/authenticate.ts';
import type { Deps } from '../../http/deps.ts';
import { unauthenticated } from '../../http/errors.ts';
import { limiter, type RateLimits } from '../../http/rate-limit.ts';
import { validate } from '../../http/validate.ts';
import * as auth from './auth.service.ts';
import * as passwordReset from './password-reset.service.ts';
import { LoginLockedError } from './login-throttle.service.ts';
import { deleteAccount } from './account.service.ts';

/** Router for /api/auth/* (product spec §7); mounted under /api. Each route's contract is documented below. */
export function authRouter(deps: Deps, limits: RateLimits) {
  const r = Router();
  const perIp = limiter(limits.authPerIp);
  // One hourly budget of verification e-mails per address, shared by resend and by re-registering
  // an unverified address (which also sends a fresh code and resets the attempt counter): otherwise
  // re-registering every 30 s would bypass the resend limit (mail flooding, 5 more guesses per code).
  const resendHourly = limiter(limits.resendHourly);

  /**
   * POST /api/auth/register — `{ name, email, password, password_confirmation }`.
   * 201 `{ user, token: null, requires_verification: true, message, email }` and a 6-digit code is e-mailed.
   * 409 `{ error: 'Email is already registered', code: 'email_taken', errors: { email } }` for a verified account,
   * and for an unverified one registered less than 24 h ago with another password. An unverified account
   * re-registered with the same password gets the same 201 and a code (re)sent (not within 30 s of the last
   * one); one registered 24 h ago or more with another password is replaced (new name/password, earlier codes
   * invalidated, new code). 422 validation;
   * 429 rate limited (per IP, and the per-address hourly budget of verification e-mails shared with resend).
   */
  r.post('/auth/register', perIp, validate(registerSchema), resendHourly, async (req, res) => {
    res.status(201).json(await auth.register(deps, req.body));
  });

  /**
   * POST /api/auth/login — `{ email, password, two_factor_code? }`.
   * Two-factor sign-in on (issue 26), right password: 401 `two_factor_required` without
   * `two_factor_code`, 401 `invalid_two_factor_code` for a wrong, replayed or spent TOTP/recovery
   * code (counted by the per-account throttle like a wrong password).
   * 200 `{ user, token, requires_verification: false, message }` when verified;
   * 200 `{ user: null, token: null, requires_verification: true, message: 'Please verify your email before logging in.', email }`
   * when the password is right but the e-mail is unverified (no token is issued).
   * 401 `{ error: 'Invalid email or password', code: 'invalid_credentials' }`; 422; 429 from the
   * per-IP limiters, or from the per-account throttle after 5 wrong passwords in a row (with
   * `Retry-After` in seconds; 30 s doubling to at most 15 min; login-throttle.service.ts).
   */
  r.post('/auth/login', perIp, limiter(limits.loginPerAccount), validate(loginSchema), async (req, res) => {
    try {
      res.json(await auth.login(deps, req.body, req.get('user-agent')));
    } catch (err) {
      if (err instanceof LoginLockedError) res.setHeader('Retry-After', String(err.retryAfterS));
      throw err;
    }
  });

  /**
   * DELETE /api/me — `{ password, two_factor_code? }`: deletes the account and everything it owns (account.service.ts).
   * 204 on success (every token of the user stops working, the public link is 404 at once);
   * 422 `{ error, code: 'validation_failed', errors: { password } }` for a missing or wrong password
   * (nothing deleted); with two-factor sign-in on, 422 `two_factor_required` / `invalid_two_factor_code`
   * with `errors.two_factor_code` for a missing or wrong TOTP/recovery code (wrong ones throttled);
   * 401 without a valid token; 429 while the account's logins are throttled.
   */
  r.delete('/me', authenticate(deps), async (req, res) => {
    try {
      const body = req.body as { password?: unknown; two_factor_code?: unknown } | undefined;
      await deleteAccount(deps, currentUser(req).id, body?.password, body?.two_factor_code);
    } catch (err) {
      if (err instanceof LoginLockedError) res.setHeader('Retry-After', String(err.retryAfterS));
      throw err;
    }
    res.status(204).end();
  });

  /** POST /api/auth/logout — Bearer token. 200 `{ success: true, message }`; the token stops working. 401 without a valid token. */
  r.post('/auth/logout', authenticate(deps), async (req, res) => {
    if (!req.authTokenId) throw unauthenticated();
    res.json(await auth.logout(deps, req.authTokenId));
  });

  /**
   * POST /api/auth/verify-email — `{ email, verification_code }`.
   * 200 `{ success: true, message: 'Email verified successfully!', user, token }`.
   * 422 `{ error: 'Invalid verification code', code: 'invalid_verification_code' }` (wrong code, unknown address, no code);
   * 422 `{ error: 'Verification code has expired. Please request a new one.', code: 'verification_code_expired' }` (15 min);
   * 429 `{ code: 'too_many_attempts' }` after 5 attempts on one code; 409 `already_verified`.
   */
  r.post('/auth/verify-email', perIp, validate(verifyEmailSchema), async (req, res) => {
    res.json(await auth.verifyEmail(deps, req.body, req.get('user-agent')));
  });

  /**
   * POST /api/auth/resend-verification — `{ email }`.
   * 200 `{ success: true, message: 'Verification email sent! Please check your inbox.' }` whether or not the
   * address exists. 429 when the same address asks again within 30 s or more than 6 times an hour
   * (registrations of the address count toward the hourly 6).
   */
  r.post(
    '/auth/resend-verification',
    perIp,
    validate(resendVerificationSchema),
    limiter(limits.resendCooldown),
    resendHourly,
    async (req, res) => {
      res.json(await auth.resendVerification(deps, req.body.email));
    },
  );

  /**
   * POST /api/auth/forgot-password — `{ email }` (issue 4).
   * 200 `{ success: true, message: 'If an account exists for that email, we sent a reset code. Please check your inbox and spam folder.' }`
   * whether or not the address has an account; for one that has, a 6-digit code (30 minutes, 5 guesses)
   * is e-mailed with a link to /forgot-password?email=…&code=…. 422 validation (`errors.email`);
   * 429 per IP, and per address: within 30 s of the last request or more than 6 times an hour.
   */
  r.post(
    '/auth/forgot-password',
    perIp,
    validate(forgotPasswordSchema),
    limiter(limits.forgotPasswordCooldown),
    limiter(limits.forgotPasswordHourly),
    async (req, res) => {
      res.json(await passwordReset.forgotPassword(deps, req.body));
    },
  );

  /**
   * POST /api/auth/reset-password — `{ email, code, password, password_confirmation }` (issue 4).
   * 200 `{ success: true, message: 'Your password has been reset. You can sign in now.' }`: the new
   * password works, the old one not, every device is signed out, the address counts as verified.
   * 400 `{ error: 'Invalid or expired reset code', code: 'invalid_code' }` for an unknown address, no
   * code, a wrong, expired (30 min) or used code, or after 5 guesses. 422 validation ('Password must be
   * at least 8 characters', 'Passwords do not match', 'Please enter the complete 6-digit code'); 429 per IP.
   */
  r.post('/auth/reset-password', perIp, validate(resetPasswordSchema), async (req, res) => {
    res.json(await passwordReset.resetPassword(deps, req.body));
  });

  return r;
}
