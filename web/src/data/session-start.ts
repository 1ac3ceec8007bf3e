/**
 * The session's start-up check (spec §4 "Session"): a stored token is checked with /me; when the
 * server cannot be reached (an offline reload) the last signed-in user cached on this device is
 * kept, and re-checked once the network is back. Used by SessionProvider (session.tsx).
 */
import { useEffect, type Dispatch, type SetStateAction } from 'react';
import { api, ApiError, getToken, type User } from '@avail/shared/api/api-client.ts';

/** Spec §4 Session: it starts 'loading' and settles to one of the other two. */
export type SessionStatus = 'loading' | 'authenticated' | 'unauthenticated';

/** localStorage key of the last signed-in user (JSON `User`), read when a reload happens offline. */
export const LAST_USER_STORAGE_KEY = 'avail.last-user';

/** Caches `u` as the last signed-in user of this device (null: forgets it). */
export function cacheUser(u: User | null): void {
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

/** What the start-up check needs from SessionProvider. */
export interface SessionStartDeps {
  /** Opens the session for `u` (and caches it). */
  authenticate(u: User): void;
  /** Drops the token and the cached user: signed out. */
  dropSession(): void;
  /** Settles the status to 'unauthenticated' (the token, if any, stays). */
  settleSignedOut(): void;
  /** True while the session was taken from the cache (the server has not confirmed it yet). */
  offlineSession: boolean;
  setOfflineSession: Dispatch<SetStateAction<boolean>>;
}

/**
 * Runs the start-up check: without a stored token the status settles to 'unauthenticated' at
 * once; else /me decides — an unreachable server keeps the cached user (`offlineSession` true) or
 * keeps the token for the next attempt; any other failure drops the session. A cached session is
 * re-checked on the 'online' event and every {@link OFFLINE_SESSION_RECHECK_MS}; a 401 then signs
 * out through the API client's unauthorized listener (session-expiry.ts).
 */
export function useSessionStart({ authenticate, dropSession, settleSignedOut, offlineSession, setOfflineSession }: SessionStartDeps): void {
  // Bootstrap: a stored token is checked with /me. When the server cannot be reached (offline
  // reload), the last known user is kept so the owner's app opens on the device's data.
  useEffect(() => {
    if (!getToken()) {
      settleSignedOut();
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
          settleSignedOut(); // the token stays for the next attempt
        } else {
          dropSession();
        }
      });
    return () => {
      cancelled = true;
    };
  }, [authenticate, dropSession, settleSignedOut, setOfflineSession]);

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
  }, [offlineSession, authenticate, setOfflineSession]);
}
