/**
 * The session (spec §4 "Session"): loads the current user from a stored token, and offers the
 * login / register / verify / logout actions with the spec's result shape.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { AUTH_TOKEN_STORAGE_KEY } from '@avail/shared/constants.ts';
import { api, ApiError, clearToken, getToken, serverMessage, setToken, setUnauthorizedListener, type User } from '@avail/shared/api/api-client.ts';
import { preloadOnce, resetStores } from './data-store.ts';

export type SessionStatus = 'loading' | 'authenticated' | 'unauthenticated';
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

interface SessionValue {
  status: SessionStatus;
  user: User | null;
  isVerified: boolean;
  /** Signs in; `twoFactorCode` (a TOTP or recovery code) when the server asked for one (`code: 'two_factor_required'`). */
  login(email: string, password: string, twoFactorCode?: string): Promise<ActionResult>;
  register(form: { name: string; email: string; password: string; confirmPassword: string }): Promise<ActionResult>;
  verifyEmail(email: string, code: string): Promise<ActionResult>;
  /**
   * Signs out: the server session, the token, this device's data. `waitForDeviceData` (the desktop
   * server switch, which reloads right after) also waits — up to {@link DEVICE_DATA_REMOVAL_WAIT_MS}
   * — until the device database is closed and deleted.
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

let postLogoutCallback: (() => void) | null = null;
/** Registers what runs after logout (the router navigates to /login). */
export function onPostLogout(fn: (() => void) | null): void {
  postLogoutCallback = fn;
}

/** The login page's notice after the server refused a session that was ended elsewhere (issue 26). */
export const SIGNED_OUT_NOTICE = 'You were signed out. Please sign in again.';
/** The notice for an expired session when the server sent no message of its own (docs/account-security.md). */
export const SESSION_EXPIRED_NOTICE = 'Your session has expired. Please sign in again.';

/**
 * The login page's notice for a 401 answer `{ code, error }`: the server's own message for
 * `session_expired`, else SIGNED_OUT_NOTICE (a session ended on another device, or by a password change).
 */
export function sessionEndedNotice(answer: { code?: string; error?: string }): string {
  if (answer.code === 'session_expired') return answer.error?.trim() || SESSION_EXPIRED_NOTICE;
  return SIGNED_OUT_NOTICE;
}

/**
 * Watches the API client for a 401 to a call that carried the stored token (issue 26): the token is
 * cleared at once — in the desktop app through the bridge (its OS-encrypted copy is removed) — and
 * `onEnded` gets the login page's notice. Returns the function that stops watching.
 */
export function watchUnauthorized(onEnded: (notice: string, expired: boolean) => void): () => void {
  setUnauthorizedListener((err) => {
    clearToken();
    onEnded(sessionEndedNotice({ code: err.code, error: serverMessage(err) }), err.code === 'session_expired');
  });
  return () => setUnauthorizedListener(null);
}

/** localStorage key of the last signed-in user (JSON `User`), read when a reload happens offline. */
export const LAST_USER_STORAGE_KEY = 'avail.last-user';

function cacheUser(u: User | null): void {
  try {
    if (u) localStorage.setItem(LAST_USER_STORAGE_KEY, JSON.stringify(u));
    else localStorage.removeItem(LAST_USER_STORAGE_KEY);
  } catch {
    /* storage unavailable: the offline bootstrap just has nothing to fall back to */
  }
}

/** The last signed-in user cached on this device, or null. */
export function cachedUser(): User | null {
  try {
    const raw = localStorage.getItem(LAST_USER_STORAGE_KEY);
    const u = raw ? (JSON.parse(raw) as User) : null;
    return u && typeof u === 'object' && u.id !== undefined && typeof u.email === 'string' ? u : null;
  } catch {
    return null;
  }
}

/**
 * Whether a failed call means "the server could not be reached" (no network, DNS, a proxy's
 * 502/503/504) rather than an answer of the server. Such a failure keeps the session.
 */
export function isUnreachable(err: unknown): boolean {
  if (err instanceof ApiError) return err.status === 502 || err.status === 503 || err.status === 504;
  return err instanceof TypeError || (err instanceof Error && err.name === 'AbortError');
}

/** How often a session taken from the cache re-checks /me while the network seems up (ms). */
const OFFLINE_SESSION_RECHECK_MS = 30_000;

/**
 * Closes a user's device database and, unless `keep`, deletes it (logout); loads the RxDB chunk only then.
 * Kept after an expired session: edits made on this device and not yet pushed are pushed when the
 * same owner signs in again (the database is per user, databaseNameFor).
 */
function removeLocalData(userId: string, keep = false): Promise<void> {
  return import('./local-db.ts')
    .then((m) => m.closeLocalData({ remove: !keep, userId }))
    .catch((e: unknown) => console.error('Removing the local data failed', e));
}

/** How long `logout({ waitForDeviceData: true })` waits for the device database's removal (ms). */
export const DEVICE_DATA_REMOVAL_WAIT_MS = 5_000;

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
  /** True while an explicit logout runs (its own /auth/logout may answer 401: no notice then). */
  const signingOutRef = useRef(false);

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

  // A 401 to any call with the stored token ends the session here too (issue 26): expired, ended on
  // another device or by a password change. Registered before the bootstrap's /me goes out.
  useEffect(() => watchUnauthorized((notice, expired) => endSessionRef.current(notice, expired)), []);

  // Bootstrap: a stored token is checked with /me. When the server cannot be reached (offline
  // reload), the last known user is kept so the owner's app opens on the device's data.
  useEffect(() => {
    if (!getToken()) {
      setStatus('unauthenticated');
      return;
    }
    let cancelled = false;
    api
      .me()
      .then(({ user: u }) => {
        if (!cancelled) authenticate(u);
      })
      .catch((err: unknown) => {
        if (cancelled) return;
        const last = isUnreachable(err) ? cachedUser() : null;
        if (last) {
          authenticate(last);
          setOfflineSession(true);
        } else if (isUnreachable(err)) {
          setStatus('unauthenticated'); // the token stays for the next attempt
        } else {
          dropSession();
        }
      });
    return () => {
      cancelled = true;
    };
  }, [authenticate, dropSession]);

  // A session taken from the cache is checked once the network is back (then a 401 signs out).
  useEffect(() => {
    if (!offlineSession) return;
    const check = () => {
      api.me(true).then(
        ({ user: u }) => {
          authenticate(u);
          setOfflineSession(false);
        },
        (err: unknown) => {
          if (isUnreachable(err)) return;
          setOfflineSession(false); // a 401 has signed out already (watchUnauthorized)
        },
      );
    };
    window.addEventListener('online', check);
    if (navigator.onLine) check();
    // The network may be up while the server was down: retry now and then too.
    const retry = setInterval(() => navigator.onLine && check(), OFFLINE_SESSION_RECHECK_MS);
    return () => {
      window.removeEventListener('online', check);
      clearInterval(retry);
    };
  }, [offlineSession, authenticate]);

  // The once-only preload waits while a cached session is offline (it would only fail) and runs
  // when the network is back.
  useEffect(() => {
    if (status === 'authenticated' && user?.email_verified_at && !offlineSession) {
      // A failed area is logged and rethrown by preloadOnce (spec §8: no user-visible message);
      // the other areas have loaded regardless.
      preloadOnce(dataAreas).catch(() => undefined);
    }
  }, [status, user?.email_verified_at, offlineSession]);

  const login = useCallback(
    async (email: string, password: string, twoFactorCode?: string): Promise<ActionResult> => {
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

  /**
   * This device's part of signing out; `navigate` false keeps the current screen (no session was
   * open yet); `keepDeviceData` (an expired session) closes the device database without deleting it.
   */
  const signOutLocally = useCallback(
    (navigate: boolean, keepDeviceData = false) => {
      const userId = userIdRef.current;
      userIdRef.current = null;
      dropSession();
      setOfflineSession(false);
      resetStores();
      // Spec §4: logout resets every data area — the device database too (replication cancelled,
      // IndexedDB data deleted). Not awaited here: another tab holding the database must not block
      // logout; the returned promise lets a caller that reloads next wait for it (bounded).
      const removal = userId ? removeLocalData(userId, keepDeviceData) : Promise.resolve();
      if (navigate) postLogoutCallback?.();
      return removal;
    },
    [dropSession],
  );

  // Another tab of this browser signed out, or met a 401 and cleared the shared token (issue 26
  // review: the other tabs kept showing the owner's data while every call failed). This tab follows:
  // signed out here too, its device database only closed (the tab that ended the session decided
  // whether to delete it: logout and revocation do, an expiry keeps the unpushed edits).
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if ((e.key !== AUTH_TOKEN_STORAGE_KEY && e.key !== null) || e.newValue !== null || getToken()) return;
      if (statusRef.current !== 'authenticated' || signingOutRef.current) return;
      statusRef.current = 'unauthenticated';
      setSignedOutNotice(SIGNED_OUT_NOTICE);
      void signOutLocally(true, true);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [signOutLocally]);

  const logout = useCallback(async (options?: { waitForDeviceData?: boolean }) => {
    signingOutRef.current = true;
    try {
      if (getToken()) await api.logout();
    } catch {
      /* the token is dropped anyway */
    } finally {
      signingOutRef.current = false;
    }
    setSignedOutNotice('');
    const removal = signOutLocally(true);
    if (options?.waitForDeviceData) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([removal, new Promise<void>((r) => (timer = setTimeout(r, DEVICE_DATA_REMOVAL_WAIT_MS)))]);
      clearTimeout(timer);
    }
  }, [signOutLocally]);

  /**
   * The server refused the session (issue 26): signs out on this device (the token is gone; the
   * device database deleted as at logout — a revoked device keeps nothing — except after an
   * expiry (`expired`), when it is only closed so that edits not yet pushed reach the server after
   * the owner signs in again) and, when a session was open, goes to /login, which shows `notice`.
   * During the start-up check it only records the notice.
   */
  const endSession = useCallback(
    (notice: string, expired = false) => {
      // An explicit logout runs, or the session has ended already (a second 401 racing the first
      // — the replication's after the REST call's — must not replace the notice).
      if (signingOutRef.current || statusRef.current === 'unauthenticated') return;
      const wasOpen = statusRef.current === 'authenticated';
      statusRef.current = 'unauthenticated';
      setSignedOutNotice(notice);
      void signOutLocally(wasOpen, expired);
    },
    [signOutLocally],
  );
  const endSessionRef = useRef(endSession);
  endSessionRef.current = endSession;
  const sessionEnded = useCallback((answer: { code?: string; error?: string }) => endSession(sessionEndedNotice(answer), answer.code === 'session_expired'), [endSession]);
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
