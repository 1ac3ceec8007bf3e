/**
 * The session (spec §4 "Session"): loads the current user from a stored token, and offers the
 * login / register / verify / logout actions with the spec's result shape.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { api, ApiError, clearToken, getToken, serverMessage, setToken, type User } from '@avail/shared/api/api-client.ts';
import { preloadOnce, resetStores } from './data-store.ts';

export type SessionStatus = 'loading' | 'authenticated' | 'unauthenticated';
export interface ActionResult {
  success: boolean;
  requiresVerification: boolean;
  message: string;
  email?: string;
}

interface SessionValue {
  status: SessionStatus;
  user: User | null;
  isVerified: boolean;
  login(email: string, password: string): Promise<ActionResult>;
  register(form: { name: string; email: string; password: string; confirmPassword: string }): Promise<ActionResult>;
  verifyEmail(email: string, code: string): Promise<ActionResult>;
  logout(): Promise<void>;
  refreshUser(): Promise<void>;
}

const SessionContext = createContext<SessionValue | null>(null);

let postLogoutCallback: (() => void) | null = null;
/** Registers what runs after logout (the router navigates to /login). */
export function onPostLogout(fn: (() => void) | null): void {
  postLogoutCallback = fn;
}

export const dataAreas = {
  dashboard: () => api.dashboardStats(),
  availability: () => api.availabilityRules(),
};

export function SessionProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<SessionStatus>(() => (getToken() ? 'loading' : 'unauthenticated'));
  const [user, setUser] = useState<User | null>(null);

  const authenticate = useCallback((u: User, token?: string | null) => {
    if (token) setToken(token);
    setUser(u);
    setStatus('authenticated');
  }, []);

  useEffect(() => {
    if (!getToken()) return;
    let cancelled = false;
    api
      .me()
      .then(({ user: u }) => {
        if (!cancelled) authenticate(u);
      })
      .catch(() => {
        if (cancelled) return;
        clearToken();
        setUser(null);
        setStatus('unauthenticated');
      });
    return () => {
      cancelled = true;
    };
  }, [authenticate]);

  useEffect(() => {
    if (status === 'authenticated' && user?.email_verified_at) {
      preloadOnce(dataAreas).catch(() => undefined);
    }
  }, [status, user?.email_verified_at]);

  const login = useCallback(
    async (email: string, password: string): Promise<ActionResult> => {
      try {
        const res = await api.login({ email, password });
        if (res.requires_verification) {
          return { success: false, requiresVerification: true, message: res.message ?? '', email: res.email ?? email };
        }
        if (res.user && res.token) {
          authenticate(res.user, res.token);
          return { success: true, requiresVerification: false, message: res.message ?? '' };
        }
        return { success: false, requiresVerification: false, message: res.message || 'Login failed' };
      } catch (e) {
        if (e instanceof ApiError) return { success: false, requiresVerification: false, message: serverMessage(e) ?? 'Login failed' };
        return { success: false, requiresVerification: false, message: 'An unexpected error occurred' };
      }
    },
    [authenticate],
  );

  const register = useCallback(
    async (form: { name: string; email: string; password: string; confirmPassword: string }): Promise<ActionResult> => {
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
    },
    [authenticate],
  );

  const verifyEmail = useCallback(
    async (email: string, code: string): Promise<ActionResult> => {
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
    },
    [authenticate],
  );

  const logout = useCallback(async () => {
    try {
      if (getToken()) await api.logout();
    } catch {
      /* the token is dropped anyway */
    }
    clearToken();
    setUser(null);
    setStatus('unauthenticated');
    resetStores();
    postLogoutCallback?.();
  }, []);

  const refreshUser = useCallback(async () => {
    const { user: u } = await api.me(true);
    setUser(u);
  }, []);

  const value = useMemo<SessionValue>(
    () => ({ status, user, isVerified: Boolean(user?.email_verified_at), login, register, verifyEmail, logout, refreshUser }),
    [status, user, login, register, verifyEmail, logout, refreshUser],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const v = useContext(SessionContext);
  if (!v) throw new Error('useSession outside SessionProvider');
  return v;
}
