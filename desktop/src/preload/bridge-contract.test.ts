/**
 * The runtime half of the bridge contract (`satisfies DesktopBridge` is the compile-time half):
 * the object the preload exposes and the browser's implementation have exactly the members of
 * DESKTOP_BRIDGE_MEMBERS, all functions — so the web app can call any of them on either platform.
 */
import { describe, expect, it, vi } from 'vitest';
import { DESKTOP_BRIDGE_GLOBAL, DESKTOP_BRIDGE_MEMBERS } from '@avail/shared/desktop/desktop-bridge.ts';
import { browserBridge } from '../../../web/src/platform/browser-bridge.ts';

const electron = vi.hoisted(() => ({
  contextBridge: { exposeInMainWorld: vi.fn() },
  ipcRenderer: { invoke: vi.fn(), send: vi.fn(), on: vi.fn(), removeListener: vi.fn() },
}));
vi.mock('electron', () => electron);

const expected = [...DESKTOP_BRIDGE_MEMBERS].sort();

function membersOf(bridge: object): string[] {
  return Object.keys(bridge).sort();
}

describe('bridge contract', () => {
  it('the preload exposes the bridge exactly once, as window.availDesktop', async () => {
    await import('./preload.ts');
    expect(electron.contextBridge.exposeInMainWorld).toHaveBeenCalledTimes(1);
    const [name, bridge] = electron.contextBridge.exposeInMainWorld.mock.calls[0] as [string, Record<string, unknown>];
    expect(name).toBe(DESKTOP_BRIDGE_GLOBAL);
    expect(name).toBe('availDesktop');
    expect(membersOf(bridge)).toEqual(expected);
    for (const m of DESKTOP_BRIDGE_MEMBERS) expect(typeof bridge[m], m).toBe('function');
    // Importing the preload does nothing else: no IPC traffic until the page calls the bridge.
    expect(electron.ipcRenderer.invoke).not.toHaveBeenCalled();
    expect(electron.ipcRenderer.send).not.toHaveBeenCalled();
    expect(electron.ipcRenderer.on).not.toHaveBeenCalled();
  });

  it('the browser implementation has exactly the same members, all functions', () => {
    expect(membersOf(browserBridge)).toEqual(expected);
    for (const m of DESKTOP_BRIDGE_MEMBERS) expect(typeof (browserBridge as Record<string, unknown>)[m], m).toBe('function');
  });

  it('the two differ where the platforms do: service worker only in the browser', async () => {
    await import('./preload.ts');
    const [, bridge] = electron.contextBridge.exposeInMainWorld.mock.calls[0] as [string, { usesServiceWorker(): boolean }];
    expect(bridge.usesServiceWorker()).toBe(false);
    expect(browserBridge.usesServiceWorker()).toBe(true);
  });
});
