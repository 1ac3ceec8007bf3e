/**
 * Issue 26: a 401 to a signed-in call ends the session on this device — the stored token is
 * cleared (in the desktop app through the bridge, which removes the OS-encrypted copy) and the login
 * page gets the server's expiry message or 'You were signed out. Please sign in again.'.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, configureApiClient, getToken, localStorageTokenStore, setToken } from '@avail/shared/api/api-client.ts';
import type { DesktopBridge } from '@avail/shared/desktop/desktop-bridge.ts';
import { startPlatform } from '../platform/platform.ts';
import { SESSION_EXPIRED_NOTICE, SIGNED_OUT_NOTICE, sessionEndedNotice, watchUnauthorized } from './session-expiry.ts';

const EXPIRED = { error: 'Your session has expired. Please sign in again.', code: 'session_expired' };

/** The desktop preload's bridge as far as the token goes: loads 'stored-token', counts clearToken calls. */
function desktopBridge(): DesktopBridge & { cleared: number } {
  const b = {
    cleared: 0,
    capabilities: () => ({ notifications: true, consentInSystemBrowser: true }),
    openExternal: async () => undefined,
    tokenPersistence: async () => 'os' as const,
    loadToken: async () => 'stored-token',
    saveToken: async () => 'os' as const,
    clearToken: async () => {
      b.cleared += 1;
    },
    serverSetting: async () => ({ origin: 'https://avail.example', editable: true, confirmed: true }),
    setServerOrigin: async (u: string) => new URL(u).origin,
    setTrayState: () => undefined,
    onCommand: () => () => undefined,
    notify: () => undefined,
    commandsReady: () => undefined,
    commandsNotReady: () => undefined,
    commandDone: () => undefined,
    usesServiceWorker: () => false,
  };
  return b;
}

/** fetch answering every call with `status` and `body`; the Authorization headers sent are kept. */
function answer(status: number, body: unknown): string[] {
  const sent: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit) => {
      sent.push((init.headers as Record<string, string>).Authorization ?? '');
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return sent;
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('a 401 while signed in', () => {
  let stop: () => void = () => undefined;
  let notices: string[];
  beforeEach(() => {
    notices = [];
    stop = watchUnauthorized((n) => notices.push(n));
  });
  afterEach(() => {
    stop();
    configureApiClient({ origin: '', tokenStore: localStorageTokenStore });
    vi.unstubAllGlobals();
  });

  it('desktop: an expired token is removed from the bridge and the server’s message is kept for the login page', async () => {
    const bridge = desktopBridge();
    await startPlatform(bridge);
    expect(getToken()).toBe('stored-token');
    const sent = answer(401, EXPIRED);
    await expect(api.sessions()).rejects.toMatchObject({ status: 401 });
    expect(sent).toEqual(['Bearer stored-token']);
    expect(getToken()).toBeNull();
    await flush();
    expect(bridge.cleared).toBe(1);
    expect(notices).toEqual([EXPIRED.error]);
  });

  it('desktop: a revoked token (plain 401) is removed too, with the signed-out notice', async () => {
    const bridge = desktopBridge();
    await startPlatform(bridge);
    answer(401, { error: 'Unauthenticated', code: 'unauthenticated' });
    await expect(api.me()).rejects.toMatchObject({ status: 401 });
    await flush();
    expect(bridge.cleared).toBe(1);
    expect(notices).toEqual([SIGNED_OUT_NOTICE]);
  });

  it('keeps the session for other refusals, for a call without a token, and for a token replaced meanwhile', async () => {
    const bridge = desktopBridge();
    await startPlatform(bridge);
    answer(422, { error: 'Validation failed', code: 'validation_failed', errors: { current_password: 'The password is incorrect.' } });
    await expect(api.changePassword({ current_password: 'x', password: 'new-password', password_confirmation: 'new-password' })).rejects.toMatchObject({ status: 422 });
    answer(403, { error: 'Forbidden' });
    await expect(api.sessions()).rejects.toMatchObject({ status: 403 });
    // A public call carries no token: its 401 says nothing about the session.
    answer(401, EXPIRED);
    await expect(api.publicAvailability('olivia', '2026-11-30..2026-12-06', 'UTC')).rejects.toMatchObject({ status: 401 });
    // The answer arrives after another sign-in stored a new token: the new session stays.
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        setToken('newer-token');
        return new Response(JSON.stringify(EXPIRED), { status: 401 });
      }),
    );
    await expect(api.sessions()).rejects.toMatchObject({ status: 401 });
    await flush();
    expect(getToken()).toBe('newer-token');
    expect(bridge.cleared).toBe(0);
    expect(notices).toEqual([]);
  });

  it('after stop(), a 401 no longer signs out', async () => {
    const bridge = desktopBridge();
    await startPlatform(bridge);
    stop();
    answer(401, EXPIRED);
    await expect(api.sessions()).rejects.toMatchObject({ status: 401 });
    await flush();
    expect(getToken()).toBe('stored-token');
    expect(bridge.cleared).toBe(0);
  });
});

describe('sessionEndedNotice (also for the replication’s 401)', () => {
  it('shows the server’s expiry message, a default one without it, and the signed-out notice otherwise', () => {
    expect(sessionEndedNotice(EXPIRED)).toBe(EXPIRED.error);
    expect(sessionEndedNotice({ code: 'session_expired' })).toBe(SESSION_EXPIRED_NOTICE);
    expect(sessionEndedNotice({ code: 'unauthenticated', error: 'Unauthenticated' })).toBe(SIGNED_OUT_NOTICE);
    expect(sessionEndedNotice({})).toBe(SIGNED_OUT_NOTICE);
  });
});
