/**
 * Two-factor sign-in payloads (issue 26; docs/account-security.md "Two-factor sign-in"). Only
 * presence is checked here: whether a code is right is the server's answer (422
 * `invalid_two_factor_code`), so a mistyped code reads the same as a wrong one.
 */
import './zod-setup.ts';
import { z } from 'zod';

const TWO_FACTOR_CODE_REQUIRED = 'Enter the 6-digit code from your authenticator app.';

/** A 6-digit TOTP code or a recovery code `xxxxx-xxxxx`: trimmed, required, ≤ 64 characters. */
const codeField = z
  .string({ error: TWO_FACTOR_CODE_REQUIRED })
  .trim()
  .min(1, TWO_FACTOR_CODE_REQUIRED)
  .max(64, 'The code is incorrect.');

const passwordField = z.string({ error: 'Please enter your password.' }).min(1, 'Please enter your password.').max(200, 'The password is incorrect.');

/** POST /api/me/two-factor/setup — `{ password }`: a stolen session token alone cannot turn two-factor on. */
export const twoFactorSetupSchema = z.object({ password: passwordField });

/** POST /api/me/two-factor/enable — `{ code }`: the 6-digit code of the secret shown by setup. */
export const twoFactorEnableSchema = z.object({ code: codeField });

/** DELETE /api/me/two-factor — `{ password, code }`: the password and a current code or a recovery code. */
export const twoFactorDisableSchema = z.object({
  password: passwordField,
  code: codeField,
});
