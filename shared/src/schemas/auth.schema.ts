/**
 * Account payloads (product spec §3, §5, §7) with the spec's exact messages.
 * Shared by the server (request validation) and the web forms.
 */
import './zod-setup.ts';
import { z } from 'zod';
import { MIN_PASSWORD_LENGTH, VERIFICATION_CODE_LENGTH } from '../constants.ts';

/** Simple `{local}@{domain}.{tld}` pattern (spec §5: "matches a simple {email} pattern"). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An e-mail field: trimmed, required (`requiredMessage`), ≤ 254 chars and the simple pattern ('Email is invalid'), lower-cased. */
export const emailField = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, requiredMessage)
    .max(254, 'Email is invalid')
    .regex(EMAIL_PATTERN, 'Email is invalid')
    .transform((value) => value.toLowerCase());

/** A new password and its confirmation (spec §5): ≥ 8 characters, ≤ 200; shared by register and reset-password. */
const newPasswordFields = {
  password: z
    .string({ error: 'Password must be at least 8 characters' })
    .min(MIN_PASSWORD_LENGTH, 'Password must be at least 8 characters')
    .max(200, 'Password must be no more than 200 characters'),
  password_confirmation: z.string({ error: 'Passwords do not match' }),
};
const passwordsMatch = (body: { password: string; password_confirmation: string }) => body.password === body.password_confirmation;
const passwordsMatchIssue = { message: 'Passwords do not match', path: ['password_confirmation'] };

/** POST /api/auth/register — `{ name, email, password, password_confirmation }`. */
export const registerSchema = z
  .object({
    name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(100, 'Name must be no more than 100 characters'),
    email: emailField('Email is required'),
    ...newPasswordFields,
  })
  .refine(passwordsMatch, passwordsMatchIssue);
export type RegisterInput = z.infer<typeof registerSchema>;

/**
 * An optional second factor (issue 26): a 6-digit TOTP code or a recovery code (`xxxxx-xxxxx`),
 * trimmed, at most 64 characters ('The code is incorrect.'); an empty string counts as absent.
 * Only looked at when the owner has two-factor sign-in on.
 */
function twoFactorCodeField() {
  return z
    .string({ error: 'The code is incorrect.' })
    .trim()
    .max(64, 'The code is incorrect.')
    .optional()
    .transform((v) => (v ? v : undefined));
}

/**
 * POST /api/auth/login — `{ email, password, two_factor_code? }`. `two_factor_code` (issue 26): the
 * 6-digit TOTP code or a recovery code (`xxxxx-xxxxx`), only looked at when two-factor sign-in is
 * on; an empty string counts as absent.
 */
export const loginSchema = z.object({
  email: emailField('Email is required'),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required'),
  two_factor_code: twoFactorCodeField(),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** POST /api/auth/verify-email — `{ email, verification_code }` (6 digits). */
export const verifyEmailSchema = z.object({
  email: emailField('Email address is required to resend code'),
  verification_code: z
    .string({ error: 'Please enter the complete 6-digit code' })
    .trim()
    .length(VERIFICATION_CODE_LENGTH, 'Please enter the complete 6-digit code')
    .regex(/^\d+$/, 'Invalid verification code'),
});
export type VerifyEmailInput = z.infer<typeof verifyEmailSchema>;

/** POST /api/auth/resend-verification — `{ email }`. */
export const resendVerificationSchema = z.object({
  email: emailField('Email address is required to resend code'),
});

/** POST /api/auth/forgot-password — `{ email }`. */
export const forgotPasswordSchema = z.object({
  email: emailField('Email is required'),
});
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

/**
 * POST /api/auth/reset-password — `{ email, code, password, password_confirmation }`: the 6-digit
 * code from the reset e-mail and the new password (same rules and messages as registration).
 */
export const resetPasswordSchema = z
  .object({
    email: emailField('Email is required'),
    code: z
      .string({ error: 'Please enter the complete 6-digit code' })
      .trim()
      .length(VERIFICATION_CODE_LENGTH, 'Please enter the complete 6-digit code')
      .regex(/^\d+$/, 'Please enter the complete 6-digit code'),
    ...newPasswordFields,
  })
  .refine(passwordsMatch, passwordsMatchIssue);
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

/** The answer to a missing or wrong current password (password change, e-mail change). */
export const INCORRECT_PASSWORD = 'The password is incorrect.';

/**
 * PUT /api/me/password — `{ current_password, password, password_confirmation, two_factor_code? }`
 * (issue 26): the current password (missing → 'The password is incorrect.'), the new one with the
 * rules and messages of registration, and — required when two-factor sign-in is on — a TOTP or
 * recovery code.
 */
export const changePasswordSchema = z
  .object({
    current_password: z.string({ error: INCORRECT_PASSWORD }).min(1, INCORRECT_PASSWORD).max(200, INCORRECT_PASSWORD),
    ...newPasswordFields,
    two_factor_code: twoFactorCodeField(),
  })
  .refine(passwordsMatch, passwordsMatchIssue);
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

/**
 * POST /api/me/email — `{ email, password, two_factor_code? }` (issue 26): the new address, the
 * current password and — required when two-factor sign-in is on — a TOTP or recovery code.
 */
export const changeEmailSchema = z.object({
  email: emailField('Email is required'),
  password: z.string({ error: INCORRECT_PASSWORD }).min(1, INCORRECT_PASSWORD).max(200, INCORRECT_PASSWORD),
  two_factor_code: twoFactorCodeField(),
});
export type ChangeEmailInput = z.infer<typeof changeEmailSchema>;

/** POST /api/me/email/verify — `{ code }`: the 6-digit code e-mailed to the new address. */
export const verifyEmailChangeSchema = z.object({
  code: z
    .string({ error: 'Please enter the complete 6-digit code' })
    .trim()
    .length(VERIFICATION_CODE_LENGTH, 'Please enter the complete 6-digit code')
    .regex(/^\d+$/, 'Please enter the complete 6-digit code'),
});
export type VerifyEmailChangeInput = z.infer<typeof verifyEmailChangeSchema>;
