/**
 * Account payloads (product spec §3, §5, §7) with the spec's exact messages.
 * Shared by the server (request validation) and the web forms.
 */
import { z } from 'zod';
import { MIN_PASSWORD_LENGTH, VERIFICATION_CODE_LENGTH } from '../constants.ts';

/** Simple `{local}@{domain}.{tld}` pattern (spec §5: "matches a simple {email} pattern"). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const email = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, requiredMessage)
    .max(254, 'Email is invalid')
    .regex(EMAIL_PATTERN, 'Email is invalid')
    .transform((value) => value.toLowerCase());

/** POST /api/auth/register — `{ name, email, password, password_confirmation }`. */
export const registerSchema = z
  .object({
    name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(100, 'Name must be no more than 100 characters'),
    email: email('Email is required'),
    password: z
      .string({ error: 'Password must be at least 8 characters' })
      .min(MIN_PASSWORD_LENGTH, 'Password must be at least 8 characters')
      .max(200, 'Password must be no more than 200 characters'),
    password_confirmation: z.string({ error: 'Passwords do not match' }),
  })
  .refine((body) => body.password === body.password_confirmation, {
    message: 'Passwords do not match',
    path: ['password_confirmation'],
  });
export type RegisterInput = z.infer<typeof registerSchema>;

/** POST /api/auth/login — `{ email, password }`. */
export const loginSchema = z.object({
  email: email('Email is required'),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required'),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** POST /api/auth/verify-email — `{ email, verification_code }` (6 digits). */
export const verifyEmailSchema = z.object({
  email: email('Email address is required to resend code'),
  verification_code: z
    .string({ error: 'Please enter the complete 6-digit code' })
    .trim()
    .length(VERIFICATION_CODE_LENGTH, 'Please enter the complete 6-digit code')
    .regex(/^\d+$/, 'Invalid verification code'),
});
export type VerifyEmailInput = z.infer<typeof verifyEmailSchema>;

/** POST /api/auth/resend-verification — `{ email }`. */
export const resendVerificationSchema = z.object({
  email: email('Email address is required to resend code'),
});
