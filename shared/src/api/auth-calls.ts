/**
 * The API's sign-up and sign-in calls (product spec §7): register, login (with the e-mail check and
 * the second factor), logout, e-mail verification and the password reset. Part of `api`
 * (`api-client.ts`).
 */
import { ApiError, post } from './api-transport.ts';
import type { AuthResponse, VerifyResponse } from './api-shapes.ts';

export const authCalls = {
  register: (body: { name: string; email: string; password: string; password_confirmation: string }) =>
    post<AuthResponse>('/auth/register', body),
  /**
   * Login: an unverified account may answer 403 with `requires_verification` — the body wins.
   * An owner with two-factor sign-in on answers 401 `two_factor_required` without `two_factor_code`
   * and 401 `invalid_two_factor_code` for a wrong one (a TOTP code or a recovery code
   * `xxxxx-xxxxx`); both throw ApiError (docs/account-security.md). 429 while throttled.
   */
  login: async (body: { email: string; password: string; two_factor_code?: string }): Promise<AuthResponse> => {
    try {
      return await post<AuthResponse>('/auth/login', body);
    } catch (e) {
      const b = e instanceof ApiError ? (e.body as AuthResponse | null) : null;
      if (b && b.requires_verification === true) return b;
      throw e;
    }
  },
  logout: () => post<unknown>('/auth/logout'),
  verifyEmail: (body: { email: string; verification_code: string }) => post<VerifyResponse>('/auth/verify-email', body),
  resendVerification: (email: string) => post<{ success?: boolean; message?: string }>('/auth/resend-verification', { email }),
  /** Sends a reset code when the address has an account; always the same answer. */
  forgotPassword: (email: string) => post<{ success: boolean; message: string }>('/auth/forgot-password', { email }),
  resetPassword: (body: { email: string; code: string; password: string; password_confirmation: string }) =>
    post<{ success: boolean; message: string }>('/auth/reset-password', body),
};
