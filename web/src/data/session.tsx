/**
 * The session (spec §4 "Session"): loads the current user from a stored token, and offers the
 * login / register / verify / logout actions with the spec's result shape. The provider puts
 * together the start-up check (session-start.ts), the sign-in actions (session-actions.ts) and
 * the end of a session — logout, a refused token, another tab's sign-out (session-expiry.ts).
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { api, clearToken, setToken, type User } from '@avail/shared/api/api-client.ts';
import { preloadOnce } from './data-store.ts';
import { useSessionActions, type ActionResult, type RegisterForm } from './session-actions.ts';
import { useSessionEnd } from './session-expiry.ts';
import { cacheUser, useSessionStart, type SessionStatus } from './session-start.ts';

interface SessionValue {
  status: SessionStatus;
  user: User | null;
  isVerified: boolean;
  /** Signs in; `twoFactorCode` (a TOTP or recovery code) when the server asked for one (`code: 'two_factor_required'`). */
  login(email: string, password: string, twoFactorCode?: string): Promise<ActionResult>;
  register(form: RegisterForm): Promise<ActionResult>;
  verifyEmail(email: string, code: string): Promise<ActionResult>;
  /**
   * Signs out: the server session, the token, this device's data. `waitForDeviceData` (the desktop
   * server switch, which reloads right after) also waits — up to DEVICE_DATA_REMOVAL_WAIT_MS
   * (session-expiry.ts) — until the device database is closed and deleted.
   */
  logout(options?: { waitForDeviceData?: boolean }): Promise<void>;
  refreshUser(): Promise<void>;
  /** Why the server ended the last session ('' = it did not): shown once on the login page (issue 26). */
  signedOutNotice: string;
  clearSignedOutNotice(): void;
  /** The server refused the session (a 401 seen outside the API client: the replication): sign out with a notice. */
  sessionEnded(answer: { code?: string; error?: string }): void;
}

const SessionContext = createContext<SessionValue | null>(null);

/**
 * The owner's four data areas (spec §4 "Data loading"), preloaded once in parallel and forced
 * after authentication: dashboard stats, availability rules, links and link analytics (the
 * Analytics screen's default range, Last 7 days). The keys are the cache keys the screens read.
 */
export const dataAreas = {
  dashboard: () => api.dashboardStats(),
  availability: () => api.availabilityRules(),
  links: () => api.links(),
  analytics: () => api.linkAnalytics(7),
};

export function SessionProvider({ children }: { children: ReactNode }) {
  // Spec §4 Session: it starts loading, and settles (signed out at once when no token is stored).
  const [status, setStatus] = useState<SessionStatus>('loading');
  const [user, setUser] = useState<User | null>(null);

  const [offlineSession, setOfflineSession] = useState(false);
  const [signedOutNotice, setSignedOutNotice] = useState('');
  const userIdRef = useRef<string | null>(null);
  const statusRef = useRef<SessionStatus>('loading');
  statusRef.current = status;

  const authenticate = useCallback((u: User, token?: string | null) => {
    if (token) setToken(token);
    cacheUser(u);
    userIdRef.current = String(u.id);
    setSignedOutNotice('');
    setUser(u);
    setStatus('authenticated');
  }, []);

  const dropSession = useCallback(() => {
    clearToken();
    cacheUser(null);
    setUser(null);
    setStatus('unauthenticated');
  }, []);
  const settleSignedOut = useCallback(() => setStatus('unauthenticated'), []);

  // The 401 listener is registered before the start-up check's /me goes out.
  const { logout, sessionEnded } = useSessionEnd({ statusRef, userIdRef, dropSession, setOfflineSession, setSignedOutNotice });
  useSessionStart({ authenticate, dropSession, settleSignedOut, offlineSession, setOfflineSession });

  // The once-only preload waits while a cached session is offline (it would only fail) and runs
  // when the network is back.
  useEffect(() => {
    if (status === 'authenticated' && user?.email_verified_at && !offlineSession) {
      // A failed area is logged and rethrown by preloadOnce (spec §8: no user-visible message);
      // the other areas have loaded regardless.
      preloadOnce(dataAreas).catch(() => undefined);
    }
  }, [status, user?.email_verified_at, offlineSession]);

  const { login, register, verifyEmail } = useSessionActions(authenticate);
  const clearSignedOutNotice = useCallback(() => setSignedOutNotice(''), []);

  const refreshUser = useCallback(async () => {
    const { user: u } = await api.me(true);
    cacheUser(u);
    setUser(u);
  }, []);

  const value = useMemo<SessionValue>(
    () => ({
      status,
      user,
      isVerified: Boolean(user?.email_verified_at),
      login,
      register,
      verifyEmail,
      logout,
      refreshUser,
      signedOutNotice,
      clearSignedOutNotice,
      sessionEnded,
    }),
    [status, user, login, register, verifyEmail, logout, refreshUser, signedOutNotice, clearSignedOutNotice, sessionEnded],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const v = useContext(SessionContext);
  if (!v) throw new Error('useSession outside SessionProvider');
  return v;
}
