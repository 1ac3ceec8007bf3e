/**
 * Two-factor sign-in with TOTP (RFC 6238; issue 26; docs/account-security.md "Two-factor sign-in").
 *
 * - Codes: 6 digits, 30-second steps, HMAC-SHA-1 (otplib, the defaults every authenticator app
 *   reads); one step either side is accepted (RFC 6238 §5.2, clock drift). Time is the server's
 *   `deps.now()`, never the library's own clock.
 * - Replay: the time step of the last accepted code is stored; a code of that step or an earlier
 *   one is refused (RFC 6238 §5.2: the verifier must not accept the second attempt of an OTP).
 * - Secrets: base32, 20 random bytes, stored sealed (lib/crypto.ts sealContent, server key).
 * - Recovery codes: 10 per owner, `xxxxx-xxxxx` from a 30-character alphabet without look-alikes
 *   (no 0/o, 1/i/l, u): ≈ 49 bits each; only an HMAC-SHA256 (server key) is stored; compared
 *   case-insensitively without spaces and dashes; each works once.
 * - Wrong codes are counted per account by the second-factor throttle (login-throttle.service.ts,
 *   `second-factor`; 5 free, then 30 s doubling to 15 min), each attempt reserved before the check;
 *   only a right code clears it — not the password, not a password reset.
 */
import { createHmac, randomInt } from 'node:crypto';
import { generateSecret, generateURI, verifySync } from 'otplib';
import QRCode from 'qrcode';
import type { UserRow } from '../../db/schema.ts';
import type { Deps } from '../../http/deps.ts';
import { HttpError, conflict, validationFailed } from '../../http/errors.ts';
import { openContent, sealContent } from '../../lib/crypto.ts';
import { recoveryCodeUsedEmail, secondFactorLockedEmail, twoFactorDisabledEmail, twoFactorEnabledEmail } from '../../mail/two-factor-mails.ts';
import * as throttle from './login-throttle.service.ts';
import { verifyPassword } from './password.ts';
import * as sessionsRepo from './sessions.repo.ts';
import * as repo from './two-factor.repo.ts';

const TWO_FACTOR_MESSAGES = {
  required: 'Enter the 6-digit code from your authenticator app.',
  incorrect: 'The code is incorrect.',
  alreadyEnabled: 'Two-factor sign-in is already on.',
  setupRequired: 'Start the two-factor setup first.',
  notEnabled: 'Two-factor sign-in is not on.',
  passwordRequired: 'Please enter your password.',
  wrongPassword: 'The password is incorrect.',
} as const;

/** Issuer shown by authenticator apps (otpauth URI `issuer`). */
const TOTP_ISSUER = 'Avail';
/** RFC 6238 time step X (seconds). */
const TOTP_PERIOD_S = 30;
/** Accepted drift: this many seconds either side of now (one step). */
const TOTP_TOLERANCE_S = TOTP_PERIOD_S;
/** Recovery codes handed out when two-factor is turned on. */
const RECOVERY_CODE_COUNT = 10;
/** Recovery code characters: lower-case letters and digits without 0 o 1 i l u. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstvwxyz23456789';
const RECOVERY_PATTERN = new RegExp(`^[${RECOVERY_ALPHABET}]{10}$`);

/** A fresh recovery code `xxxxx-xxxxx` (crypto-random, uniform over RECOVERY_ALPHABET). */
function generateRecoveryCode(): string {
  let s = '';
  for (let i = 0; i < 10; i++) s += RECOVERY_ALPHABET[randomInt(0, RECOVERY_ALPHABET.length)];
  return `${s.slice(0, 5)}-${s.slice(5)}`;
}

/** A typed code as compared: spaces and dashes dropped, lower-cased. */
function normaliseCode(code: string): string {
  return code.replace(/[\s-]/g, '').toLowerCase();
}

/** HMAC-SHA256(server key, `recovery:userId:normalised code`), hex: what is stored of a recovery code. */
function hashRecoveryCode(key: Buffer, userId: string, code: string): string {
  return createHmac('sha256', key).update(`recovery:${userId}:${normaliseCode(code)}`).digest('hex');
}

/**
 * The RFC 6238 time step of `code` for the base32 `secret` at `nowMs` (UTC ms) within ±1 step and
 * later than `afterStep`, or null when it matches none.
 */
function matchTotp(secret: string, code: string, nowMs: number, afterStep: number | null): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  // A step accepted while the clock was ahead (a clock corrected backwards, instances whose clocks
  // differ) can be past every step of the window: then no code of the window is later than it.
  if (afterStep != null && afterStep >= Math.floor(nowMs / 1000 / TOTP_PERIOD_S) + 1) return null;
  const result = verifySync({
    secret,
    token: code,
    epoch: Math.floor(nowMs / 1000),
    period: TOTP_PERIOD_S,
    epochTolerance: TOTP_TOLERANCE_S,
    ...(afterStep != null ? { afterTimeStep: afterStep } : {}),
  });
  // (The functional API's result type also covers HOTP, which has no time step.)
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/** What a second-factor check found: no code given, a wrong (or replayed or spent) one, or a right one (now spent). */
type SecondFactorResult = 'missing' | 'wrong' | 'ok';

/**
 * Checks `code` as the second factor of `userId` (two-factor on): a 6-digit TOTP code of the active
 * secret (±1 step, later than the last accepted step; the step is then stored, compare-and-set) or
 * an unused recovery code (then spent). Records nothing in the throttle: the caller does.
 */
async function checkSecondFactor(deps: Pick<Deps, 'db' | 'config' | 'now'>, userId: string, code: unknown): Promise<SecondFactorResult> {
  if (typeof code !== 'string' || code.trim() === '') return 'missing';
  const typed = normaliseCode(code);
  const now = deps.now();
  if (/^\d{6}$/.test(typed)) {
    const row = await repo.findTwoFactor(deps.db, userId);
    if (!row?.secret) return 'wrong';
    const step = matchTotp(openContent(row.secret, deps.config.AVAIL_SECRET_KEY), typed, now, row.last_step);
    if (step == null) return 'wrong';
    return (await repo.acceptStep(deps.db, userId, step, now)) ? 'ok' : 'wrong';
  }
  if (!RECOVERY_PATTERN.test(typed)) return 'wrong';
  return (await repo.spendRecoveryCode(deps.db, userId, hashRecoveryCode(deps.config.AVAIL_SECRET_KEY, userId, typed), now)) ? 'ok' : 'wrong';
}

export interface TwoFactorSetup {
  /** Base32 secret (RFC 4648), for typing in by hand. */
  secret: string;
  /** `otpauth://totp/Avail:<e-mail>?secret=…&issuer=Avail` (Key Uri Format). */
  otpauth_url: string;
  /** The QR code of `otpauth_url`, SVG markup. */
  qr_svg: string;
}

/**
 * POST /api/me/two-factor/setup `{ password }`: a new secret, stored sealed as the pending one
 * (replacing an earlier pending one) → `{ secret, otpauth_url, qr_svg }`. The password is asked so
 * that a stolen session token alone cannot turn two-factor on and lock the owner out: 422
 * `validation_failed` (`errors.password`) when wrong, counted by the login throttle (429 while
 * locked). 409 `two_factor_enabled` when on.
 */
export async function setup(deps: Deps, user: UserRow, password: string): Promise<TwoFactorSetup> {
  if (user.two_factor_enabled_at != null) throw conflict(TWO_FACTOR_MESSAGES.alreadyEnabled, 'two_factor_enabled');
  await assertPassword(deps, user, password);
  const secret = generateSecret({ length: 20 });
  await repo.savePendingSecret(deps.db, user.id, sealContent(secret, deps.config.AVAIL_SECRET_KEY), deps.now());
  const otpauthUrl = generateURI({ issuer: TOTP_ISSUER, label: user.email, secret, period: TOTP_PERIOD_S, digits: 6, algorithm: 'sha1' });
  const qrSvg = await QRCode.toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret, otpauth_url: otpauthUrl, qr_svg: qrSvg };
}

/** 422 `invalid_two_factor_code` on `field`; for the login (401) without field errors, like a wrong password. */
function incorrectCode(field: string, status = 422) {
  if (status === 401) return new HttpError(401, 'invalid_two_factor_code', TWO_FACTOR_MESSAGES.incorrect);
  return new HttpError(status, 'invalid_two_factor_code', TWO_FACTOR_MESSAGES.incorrect, { [field]: TWO_FACTOR_MESSAGES.incorrect });
}

/**
 * POST /api/me/two-factor/enable `{ code }`: the code of the pending secret (±1 step) turns
 * two-factor on → `{ recovery_codes }` (10, shown this once; their HMACs replace earlier ones).
 * 409 `two_factor_enabled` when already on, 409 `two_factor_setup_required` without a pending
 * setup; 422 `invalid_two_factor_code` for a wrong code (also when a setup replaced the secret
 * meanwhile). The owner is e-mailed (not awaited; a failing mail server is logged).
 */
export async function enable(deps: Deps, user: UserRow, currentSessionId: string, code: string): Promise<{ recovery_codes: string[]; ended_sessions: number }> {
  if (user.two_factor_enabled_at != null) throw conflict(TWO_FACTOR_MESSAGES.alreadyEnabled, 'two_factor_enabled');
  const row = await repo.findTwoFactor(deps.db, user.id);
  if (!row?.pending_secret) throw conflict(TWO_FACTOR_MESSAGES.setupRequired, 'two_factor_setup_required');
  const now = deps.now();
  const step = matchTotp(openContent(row.pending_secret, deps.config.AVAIL_SECRET_KEY), normaliseCode(code), now, null);
  if (step == null) throw incorrectCode('code');
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, generateRecoveryCode);
  const hashes = codes.map((c) => hashRecoveryCode(deps.config.AVAIL_SECRET_KEY, user.id, c));
  // Every other session ends with it (OWASP ASVS 4.0 V3.3.3): a device signed in with the password
  // alone does not stay signed in past the owner's decision to require a second factor.
  const ended = await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.activate(trx, user.id, row.pending_secret!, step, hashes, now))) return null;
    return sessionsRepo.deleteOtherSessions(trx, user.id, currentSessionId);
  });
  if (ended == null) throw incorrectCode('code');
  notify(deps, user, twoFactorEnabledEmail({ to: user.email, name: user.name, at: now, publicBaseUrl: deps.config.PUBLIC_BASE_URL }));
  deps.logger.info({ userId: user.id, endedSessions: ended }, 'two-factor sign-in turned on; other sessions signed out');
  return { recovery_codes: codes, ended_sessions: ended };
}

/**
 * DELETE /api/me/two-factor `{ password, code }`: turns two-factor off (secrets and recovery codes
 * deleted) after the password and then a current TOTP code or an unused recovery code. 429
 * (LoginLockedError, `Retry-After`) while the login throttle holds the account; a wrong password
 * (422 `validation_failed`, `errors.password`) or a wrong code (422 `invalid_two_factor_code`,
 * `errors.code`) counts as a failure. 409 `two_factor_not_enabled` when it is off. The owner is e-mailed.
 */
export async function disable(deps: Deps, user: UserRow, input: { password: string; code: string }): Promise<void> {
  if (user.two_factor_enabled_at == null) throw conflict(TWO_FACTOR_MESSAGES.notEnabled, 'two_factor_not_enabled');
  await assertPassword(deps, user, input.password);
  await assertSecondFactor(deps, user, input.code, 'code');
  await deps.db.transaction().execute((trx) => repo.deactivate(trx, user.id));
  notify(deps, user, twoFactorDisabledEmail({ to: user.email, name: user.name, at: deps.now(), publicBaseUrl: deps.config.PUBLIC_BASE_URL }));
  deps.logger.info({ userId: user.id }, 'two-factor sign-in turned off');
}

/**
 * The password of a signed-in owner, as one throttled attempt (login-throttle.service.ts): 429
 * LoginLockedError while locked; 422 `validation_failed` (`errors.password`) when wrong (counted).
 */
async function assertPassword(deps: Deps, user: UserRow, password: string): Promise<void> {
  if (!(await throttle.throttledCheck(deps, { kind: 'password', email: user.email }, () => verifyPassword(user.password_hash, password)))) {
    throw validationFailed({ password: TWO_FACTOR_MESSAGES.wrongPassword });
  }
}

/**
 * `code` as the second factor of `user`, one attempt of the account's second-factor throttle
 * (reserved before the check: 429 LoginLockedError while locked; only a right code clears it).
 * Wrong → 422 `invalid_two_factor_code` on `field` (or 401 for the login, `status`). A lock started
 * by wrong codes e-mails the owner: someone has the password. A recovery code spent is told too.
 */
async function assertSecondFactor(deps: Deps, user: UserRow, code: unknown, field: string, status = 422): Promise<void> {
  let used: SecondFactorResult = 'wrong';
  const ok = await throttle.throttledCheck(
    deps,
    { kind: 'second-factor', userId: user.id },
    async () => {
      used = await checkSecondFactor(deps, user.id, code);
      return used === 'ok';
    },
    (lockedUntil) => {
      notify(deps, user, secondFactorLockedEmail({ to: user.email, name: user.name, at: deps.now(), lockMinutes: Math.ceil((lockedUntil - deps.now()) / 60_000), failures: throttle.LOGIN_FREE_FAILURES, publicBaseUrl: deps.config.PUBLIC_BASE_URL }));
      deps.logger.warn({ userId: user.id }, 'second factor throttled after repeated wrong codes');
    },
  );
  if (!ok) throw incorrectCode(field, status);
  if (typeof code === 'string' && !/^\d{6}$/.test(normaliseCode(code))) {
    const left = await repo.countUnusedRecoveryCodes(deps.db, user.id);
    notify(deps, user, recoveryCodeUsedEmail({ to: user.email, name: user.name, at: deps.now(), left, publicBaseUrl: deps.config.PUBLIC_BASE_URL }));
  }
}

/**
 * The second step of a sign-in (auth.service.ts login) after the right password, two-factor on:
 * 401 `two_factor_required` without a code (nothing counted); 401 `invalid_two_factor_code` for a
 * wrong one (counted by the second-factor throttle; 429 while locked).
 */
export async function assertLoginSecondFactor(deps: Deps, user: UserRow, code: unknown): Promise<void> {
  if (typeof code !== 'string' || code.trim() === '') throw new HttpError(401, 'two_factor_required', TWO_FACTOR_MESSAGES.required);
  await assertSecondFactor(deps, user, code, 'two_factor_code', 401);
}

/**
 * The second-factor step of a change to the account made while signed in, after the right
 * password: deleting it (account.service.ts), changing the password (password-change.service.ts)
 * or the e-mail address (email-change.service.ts). Nothing when two-factor is off; 422
 * `two_factor_required` (`errors.two_factor_code` = 'Enter the 6-digit code from your
 * authenticator app.') without a code (nothing counted); 422 `invalid_two_factor_code`
 * (`errors.two_factor_code` = 'The code is incorrect.') for a wrong one, counted by the account's
 * second-factor throttle (429 LoginLockedError, with Retry-After from the route, while locked).
 * `code`: a 6-digit TOTP code (RFC 6238) or an unused recovery code.
 */
export async function assertAccountChangeSecondFactor(deps: Deps, user: UserRow, code: unknown): Promise<void> {
  if (user.two_factor_enabled_at == null) return;
  if (typeof code !== 'string' || code.trim() === '') {
    throw new HttpError(422, 'two_factor_required', TWO_FACTOR_MESSAGES.required, { two_factor_code: TWO_FACTOR_MESSAGES.required });
  }
  await assertSecondFactor(deps, user, code, 'two_factor_code');
}

function notify(deps: Deps, user: UserRow, message: Parameters<Deps['mailer']['send']>[0]): void {
  void deps.mailer.send(message).catch((err: unknown) => deps.logger.error({ errName: (err as Error)?.name, userId: user.id }, 'could not send the two-factor notice'));
}
