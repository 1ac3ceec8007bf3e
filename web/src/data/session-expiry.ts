/**
 * The end of a session (spec §4 "Session", issue 26): an explicit logout, a 401 the server gave
 * to a call with the stored token (expired, ended on another device or by a password change), and
 * another tab of this browser signing out. Each signs out on this device — the token, the cached
 * user, the data stores and the device database (RxDB, deleted or only closed) — and records the
 * notice the login page shows once. Used by SessionProvider (session.tsx).
 */
import { useCallback, useEffect, useRef, type Dispatch, type RefObject, type SetStateAction } from 'react';
import { AUTH_TOKEN_STORAGE_KEY } from '@avail/shared/constants.ts';
import { api, clearToken, getToken, serverMessage, setUnauthorizedListener } from '@avail/shared/api/api-client.ts';
import { resetStores } from './data-store.ts';
import type { SessionStatus } from './session-start.ts';

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
const DEVICE_DATA_REMOVAL_WAIT_MS = 5_000;

/** What the end of a session needs from SessionProvider. */
export interface SessionEndDeps {
  /** The current status, read by the listeners (set to 'unauthenticated' here at once, before React re-renders). */
  statusRef: RefObject<SessionStatus>;
  /** The signed-in user's id (its device database), cleared here. */
  userIdRef: RefObject<string | null>;
  /** Drops the token and the cached user: signed out. */
  dropSession(): void;
  setOfflineSession: Dispatch<SetStateAction<boolean>>;
  setSignedOutNotice: Dispatch<SetStateAction<string>>;
}

/** The session-ending actions SessionProvider offers. */
export interface SessionEnd {
  /** See SessionValue.logout. */
  logout(options?: { waitForDeviceData?: boolean }): Promise<void>;
  /** See SessionValue.sessionEnded. */
  sessionEnded(answer: { code?: string; error?: string }): void;
}

/**
 * Wires the end of a session: registers the API client's 401 listener (call it before the
 * start-up check so that /me's 401 is seen) and the 'storage' listener for another tab's sign-out,
 * and returns `logout` and `sessionEnded`.
 */
export function useSessionEnd({ statusRef, userIdRef, dropSession, setOfflineSession, setSignedOutNotice }: SessionEndDeps): SessionEnd {
  /** True while an explicit logout runs (its own /auth/logout may answer 401: no notice then). */
  const signingOutRef = useRef(false);

  // A 401 to any call with the stored token ends the session here too (issue 26): expired, ended on
  // another device or by a password change. Registered before the bootstrap's /me goes out.
  useEffect(() => watchUnauthorized((notice, expired) => endSessionRef.current(notice, expired)), []);

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
    [dropSession, setOfflineSession, userIdRef],
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
  }, [signOutLocally, statusRef, setSignedOutNotice]);

  const logout = useCallback(
    async (options?: { waitForDeviceData?: boolean }) => {
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
    },
    [signOutLocally, setSignedOutNotice],
  );

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
    [signOutLocally, statusRef, setSignedOutNotice],
  );
  const endSessionRef = useRef(endSession);
  endSessionRef.current = endSession;
  const sessionEnded = useCallback((answer: { code?: string; error?: string }) => endSession(sessionEndedNotice(answer), answer.code === 'session_expired'), [endSession]);
  return { logout, sessionEnded };
}
