/**
 * The session's sign-in actions (spec §4 "Session"): login, register and e-mail verification, each
 * answering the spec's result shape ({@link ActionResult}) instead of throwing. Used by
 * SessionProvider (session.tsx), which hands in how a session is opened.
 */
import { useMemo } from 'react';
import { api, ApiError, serverMessage, type User } from '@avail/shared/api/api-client.ts';

export interface ActionResult {
  success: boolean;
  requiresVerification: boolean;
  message: string;
  email?: string;
  /** The server's error code of a failed call (e.g. `two_factor_required`, `invalid_two_factor_code`). */
  code?: string;
  /** The HTTP status of a failed call (429: throttled). */
  status?: number;
}

/** The registration form's fields as the session's `register` takes them. */
export interface RegisterForm {
  name: string;
  email: string;
  password: string;
  confirmPassword: string;
}

/** How a session is opened: with the user and, after a sign-in, the token the server answered. */
type Authenticate = (u: User, token?: string | null) => void;

/** The three actions; see SessionValue for what each does. */
export interface SessionActions {
  login(email: string, password: string, twoFactorCode?: string): Promise<ActionResult>;
  register(form: RegisterForm): Promise<ActionResult>;
  verifyEmail(email: string, code: string): Promise<ActionResult>;
}

/**
 * The sign-in actions bound to `authenticate` (opens the session with the user and the token the
 * server answered). Stable while `authenticate` is.
 */
export function useSessionActions(authenticate: Authenticate): SessionActions {
  return useMemo(
    () => ({
      login: (email: string, password: string, twoFactorCode?: string) => login(authenticate, email, password, twoFactorCode),
      register: (form: RegisterForm) => register(authenticate, form),
      verifyEmail: (email: string, code: string) => verifyEmail(authenticate, email, code),
    }),
    [authenticate],
  );
}

async function login(authenticate: Authenticate, email: string, password: string, twoFactorCode?: string): Promise<ActionResult> {
  try {
    const res = await api.login(twoFactorCode ? { email, password, two_factor_code: twoFactorCode } : { email, password });
    if (res.requires_verification) {
      return { success: false, requiresVerification: true, message: res.message ?? '', email: res.email ?? email };
    }
    if (res.user && res.token) {
      authenticate(res.user, res.token);
      return { success: true, requiresVerification: false, message: res.message ?? '' };
    }
    return { success: false, requiresVerification: false, message: res.message || 'Login failed' };
  } catch (e) {
    if (e instanceof ApiError) return { success: false, requiresVerification: false, message: serverMessage(e) ?? 'Login failed', code: e.code, status: e.status };
    return { success: false, requiresVerification: false, message: 'An unexpected error occurred' };
  }
}

async function register(authenticate: Authenticate, form: RegisterForm): Promise<ActionResult> {
  try {
    const res = await api.register({
      name: form.name,
      email: form.email,
      password: form.password,
      password_confirmation: form.confirmPassword,
    });
    if (res.requires_verification) {
      return { success: true, requiresVerification: true, message: res.message ?? '', email: res.email ?? form.email };
    }
    if (res.user && res.token) {
      authenticate(res.user, res.token);
      return { success: true, requiresVerification: false, message: res.message ?? '' };
    }
    return { success: false, requiresVerification: false, message: 'Registration incomplete' };
  } catch (e) {
    if (e instanceof ApiError) {
      const fields = e.fieldErrors ? Object.values(e.fieldErrors).join(' ') : '';
      return { success: false, requiresVerification: false, message: serverMessage(e) || fields || 'Registration failed' };
    }
    return { success: false, requiresVerification: false, message: (e as Error)?.message || 'An unexpected error occurred' };
  }
}

async function verifyEmail(authenticate: Authenticate, email: string, code: string): Promise<ActionResult> {
  try {
    const res = await api.verifyEmail({ email, verification_code: code });
    if (res.user && res.token) {
      authenticate(res.user, res.token);
      return { success: true, requiresVerification: false, message: res.message ?? '' };
    }
    return { success: false, requiresVerification: true, message: res.message || 'Email verification failed' };
  } catch (e) {
    if (e instanceof ApiError) {
      return { success: false, requiresVerification: true, message: serverMessage(e) ?? 'Invalid verification code' };
    }
    throw e;
  }
}
