/**
 * The recording `window.availDesktop` bridge of the desktop browser specs (desktop-mode,
 * desktop-tray-queue): the renderer is the web build under the desktop CSP, and this bridge plays
 * Electron's main process — it records every call and lets a spec send tray commands.
 */
import type { Page } from '@playwright/test';

/** One recorded bridge call. */
export interface BridgeCall {
  name: string;
  arg: unknown;
}

/**
 * Installs the recording bridge before any script of the page runs. Like Electron's main process
 * it outlives a reload: its state (server, token, recorded calls) is kept in sessionStorage.
 * `start`: the token and server it starts with (default: signed out, server not confirmed).
 */
export async function installRecordingBridge(page: Page, start: { token?: string | null; origin?: string; confirmed?: boolean } = {}) {
  await page.addInitScript((start) => {
    const w = window as unknown as Record<string, unknown>;
    type State = { calls: Array<{ name: string; arg: unknown }>; token: string | null; origin: string; confirmed: boolean };
    const saved = sessionStorage.getItem('__bridge');
    const st: State = saved
      ? (JSON.parse(saved) as State)
      : { calls: [], token: start.token ?? null, origin: start.origin ?? 'http://localhost:3000', confirmed: start.confirmed ?? false };
    const save = () => sessionStorage.setItem('__bridge', JSON.stringify(st));
    const listeners = new Set<(c: unknown) => void>();
    const rec = (name: string, arg: unknown = null) => {
      st.calls.push({ name, arg: JSON.parse(JSON.stringify(arg)) });
      save();
    };
    w.__bridgeCalls = () => st.calls;
    w.__bridgeToken = () => st.token;
    w.__emitDesktopCommand = (c: unknown) => listeners.forEach((l) => l(c));
    w.availDesktop = {
      tokenPersistence: async () => 'os',
      loadToken: async () => st.token,
      saveToken: async (t: string) => {
        st.token = t;
        rec('saveToken', typeof t);
        return 'os';
      },
      clearToken: async () => {
        st.token = null;
        rec('clearToken');
      },
      serverSetting: async () => ({ origin: st.origin, editable: true, confirmed: st.confirmed }),
      setServerOrigin: async (url: string) => {
        const origin = new URL(url).origin;
        // Like main (ipc-handlers.ts): a changed server's answer comes after the token is gone.
        if (origin !== st.origin && st.token !== null) {
          st.token = null;
          rec('clearToken', 'server changed');
        }
        st.origin = origin;
        st.confirmed = true;
        rec('setServerOrigin', url);
        return st.origin;
      },
      setTrayState: (s: unknown) => rec('setTrayState', s),
      onCommand: (l: (c: unknown) => void) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
      notify: (n: unknown) => rec('notify', n),
      commandsReady: (userId: string) => rec('commandsReady', userId),
      commandsNotReady: () => rec('commandsNotReady'),
      commandDone: (commandId: string) => rec('commandDone', commandId),
      usesServiceWorker: () => false,
      capabilities: () => ({ notifications: true, consentInSystemBrowser: true }),
      openExternal: async (url: string) => rec('openExternal', url),
    };
  }, start);
}


/** The recorded calls of bridge member `name`, oldest first. */
export async function callsOf(page: Page, name: string): Promise<BridgeCall[]> {
  return page.evaluate((n) => (window as unknown as { __bridgeCalls(): BridgeCall[] }).__bridgeCalls().filter((c) => c.name === n), name);
}
