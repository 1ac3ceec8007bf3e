import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient, getToken, localStorageTokenStore, request, setToken, clearToken } from '@avail/shared/api/api-client.ts';
import type { DesktopBridge } from '@avail/shared/desktop/desktop-bridge.ts';
import { browserBridge } from './browser-bridge.ts';
import { bridgedTokenStore, changeServerOrigin, platformInfo, startPlatform, switchServer } from './platform.ts';

function fakeDesktopBridge(overrides: Partial<DesktopBridge> = {}): DesktopBridge & { saved: string[]; cleared: number } {
  const b = {
    saved: [] as string[],
    cleared: 0,
    capabilities: () => ({ notifications: true, consentInSystemBrowser: true }),
    openExternal: async () => undefined,
    tokenPersistence: async () => 'os' as const,
    loadToken: async () => 'stored-token',
    saveToken: async (t: string) => {
      b.saved.push(t);
      return 'os' as const;
    },
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
    ...overrides,
  };
  return b;
}

describe('platform start-up', () => {
  afterEach(() => {
    configureApiClient({ origin: '', tokenStore: localStorageTokenStore });
    vi.unstubAllGlobals();
  });

  it('desktop: requests go to the configured server with the stored token; sign-in and sign-out go through the bridge, never localStorage', async () => {
    const local = new Map<string, string>();
    vi.stubGlobal('localStorage', { getItem: (k: string) => local.get(k) ?? null, setItem: (k: string, v: string) => local.set(k, v), removeItem: (k: string) => local.delete(k) });
    const fetch = vi.fn(async (_u: string, _i?: RequestInit) => new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    const b = fakeDesktopBridge();
    const info = await startPlatform(b);
    expect(info).toEqual({ server: { origin: 'https://avail.example', editable: true, confirmed: true }, tokenPersistence: 'os' });
    expect(getToken()).toBe('stored-token');
    await request('GET', '/me');
    expect(fetch.mock.calls[0][0]).toBe('https://avail.example/api/me');
    expect((fetch.mock.calls[0][1]?.headers as Record<string, string>).Authorization).toBe('Bearer stored-token');
    setToken('new-token');
    clearToken();
    await new Promise((r) => setTimeout(r, 0));
    expect(b.saved).toEqual(['new-token']);
    expect(b.cleared).toBe(1);
    expect(local.size).toBe(0);
  });

  it('changing the server points the client at it and records it as confirmed', async () => {
    const b = fakeDesktopBridge();
    await startPlatform(b);
    const fetch = vi.fn(async () => new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    expect(await changeServerOrigin('https://other.example/', b)).toBe('https://other.example');
    await request('GET', '/me');
    expect((fetch.mock.calls[0] as unknown[])[0]).toBe('https://other.example/api/me');
    expect(platformInfo().server).toMatchObject({ origin: 'https://other.example', confirmed: true });
  });

  it('browser: the token stays in localStorage (tabs agree) and the server is the page itself', async () => {
    const local = new Map<string, string>([['auth_token', 'web-token']]);
    vi.stubGlobal('localStorage', { getItem: (k: string) => local.get(k) ?? null, setItem: (k: string, v: string) => local.set(k, v), removeItem: (k: string) => local.delete(k) });
    const info = await startPlatform(browserBridge);
    expect(info.tokenPersistence).toBe('browser');
    expect(getToken()).toBe('web-token');
    local.set('auth_token', 'changed-by-another-tab');
    expect(getToken()).toBe('changed-by-another-tab');
    await expect(browserBridge.setServerOrigin('https://x.example')).rejects.toThrow(/server it was opened from/);
  });

  it('a desktop bridge that fails at start-up never sends the token to localStorage', async () => {
    const local = new Map<string, string>();
    vi.stubGlobal('localStorage', { getItem: (k: string) => local.get(k) ?? null, setItem: (k: string, v: string) => local.set(k, v), removeItem: (k: string) => local.delete(k) });
    const broken = fakeDesktopBridge({ serverSetting: async () => Promise.reject(new Error('no handler')) });
    await expect(startPlatform(broken)).rejects.toThrow('no handler');
    setToken('t-1');
    expect(getToken()).toBe('t-1');
    expect(local.size).toBe(0);
    expect(platformInfo().tokenPersistence).toBe('session');
  });

  it('bridge writes keep call order: sign-in then sign-out ends signed out on the device', async () => {
    const order: string[] = [];
    let release: () => void = () => undefined;
    const slowSave = new Promise<void>((r) => (release = r));
    const store = bridgedTokenStore(
      {
        saveToken: async (t) => {
          await slowSave;
          order.push(`save ${t}`);
          return 'os';
        },
        clearToken: async () => void order.push('clear'),
      },
      null,
    );
    store.set('a');
    store.clear();
    await new Promise((r) => setTimeout(r, 0));
    expect(order).toEqual([]); // the clear waits for the save
    release();
    await new Promise((r) => setTimeout(r, 0));
    expect(order).toEqual(['save a', 'clear']);
  });

  it('a failing bridge write keeps the session in memory and logs no token', async () => {
    const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const store = bridgedTokenStore({ saveToken: async () => Promise.reject(new Error('keychain locked secret-xyz')), clearToken: async () => undefined }, null);
    store.set('secret-xyz');
    await new Promise((r) => setTimeout(r, 0));
    expect(store.get()).toBe('secret-xyz');
    expect(JSON.stringify(err.mock.calls)).not.toContain('secret-xyz');
    err.mockRestore();
  });
});

describe('switching servers (Settings → This device, issue 27)', () => {
  afterEach(() => {
    configureApiClient({ origin: '', tokenStore: localStorageTokenStore });
    vi.unstubAllGlobals();
  });

  it('reloads only after the sign-out finished (device database and token), never before', async () => {
    const order: string[] = [];
    let finishLogout: () => void = () => undefined;
    const b = fakeDesktopBridge({
      setServerOrigin: async (u: string) => {
        order.push('server stored');
        return new URL(u).origin;
      },
    });
    await startPlatform(b);
    const switching = switchServer('https://other.example', {
      endRemoteSession: async () => void order.push('old session ended'),
      logout: () =>
        new Promise<void>((r) => {
          order.push('logout started');
          finishLogout = () => {
            order.push('logout finished');
            r();
          };
        }),
      reload: () => void order.push('reload'),
    }, b);
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual(['old session ended', 'server stored', 'logout started']); // no reload yet
    finishLogout();
    expect(await switching).toBeNull();
    expect(order).toEqual(['old session ended', 'server stored', 'logout started', 'logout finished', 'reload']);
  });

  it('the old server’s token never reaches the new server', async () => {
    const fetch = vi.fn(async (_u: string, _i?: RequestInit) => new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    const b = fakeDesktopBridge();
    await startPlatform(b);
    expect(getToken()).toBe('stored-token');
    await switchServer('https://other.example', {
      // What the app's logout does: the API call only while a token is held, to the configured server.
      endRemoteSession: () => request('POST', '/auth/logout'),
      logout: async () => {
        if (getToken()) await request('POST', '/auth/logout');
      },
      reload: () => undefined,
    }, b);
    const calls = fetch.mock.calls.map(([url, init]) => ({ url, auth: (init?.headers as Record<string, string> | undefined)?.Authorization }));
    expect(calls).toEqual([{ url: 'https://avail.example/api/auth/logout', auth: 'Bearer stored-token' }]);
    expect(getToken()).toBeNull();
    await new Promise((r) => setTimeout(r, 0));
    expect(b.cleared).toBe(1);
  });

  it('an invalid address or a setting that could not be stored changes nothing and reloads nothing', async () => {
    const b = fakeDesktopBridge({ setServerOrigin: async () => Promise.reject(new Error('Could not save the server address on this computer. Please try again.')) });
    await startPlatform(b);
    const deps = { endRemoteSession: vi.fn(async () => undefined), logout: vi.fn(async () => undefined), reload: vi.fn() };
    expect(await switchServer('ftp://nope', deps, b)).toBe('Enter the address of your Avail server, like https://avail.example.com');
    expect(deps.endRemoteSession).not.toHaveBeenCalled();
    expect(await switchServer('https://other.example', deps, b)).toBe('Could not save the server address on this computer. Please try again.');
    expect(deps.logout).not.toHaveBeenCalled();
    expect(deps.reload).not.toHaveBeenCalled();
  });
});
