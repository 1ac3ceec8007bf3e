import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import type { DesktopCommand, TrayState } from '@avail/shared/desktop/desktop-bridge.ts';
import { IPC_CHANNELS } from '../ipc-channels.ts';

// The module's side effect (exposeInMainWorld) needs an `electron` module; the behaviour below
// goes through createPreloadBridge with its own fake ipcRenderer.
vi.mock('electron', () => ({ contextBridge: { exposeInMainWorld: vi.fn() }, ipcRenderer: {} }));
const { createPreloadBridge } = await import('./preload.ts');

/** ipcRenderer stand-in: invoke answers from a table; on/removeListener on a real emitter. */
function fakeIpc(answers: Record<string, unknown> = {}) {
  const emitter = new EventEmitter();
  return {
    emitter,
    invoke: vi.fn(async (channel: string, ..._args: unknown[]) => answers[channel]),
    send: vi.fn(),
    on: vi.fn((channel: string, l: (...a: unknown[]) => void) => emitter.on(channel, l)),
    removeListener: vi.fn((channel: string, l: (...a: unknown[]) => void) => emitter.removeListener(channel, l)),
  };
}

describe('createPreloadBridge', () => {
  it('maps each call to its channel', async () => {
    const ipc = fakeIpc({
      [IPC_CHANNELS.tokenPersistence]: 'session',
      [IPC_CHANNELS.loadToken]: 'tok',
      [IPC_CHANNELS.saveToken]: 'os',
      [IPC_CHANNELS.serverSetting]: { origin: 'https://a.example', editable: true, confirmed: true },
    });
    const bridge = createPreloadBridge(ipc);
    expect(await bridge.tokenPersistence()).toBe('session');
    expect(await bridge.loadToken()).toBe('tok');
    expect(await bridge.saveToken('t1')).toBe('os');
    expect(ipc.invoke).toHaveBeenCalledWith(IPC_CHANNELS.saveToken, 't1');
    expect(await bridge.clearToken()).toBeUndefined();
    expect(ipc.invoke).toHaveBeenCalledWith(IPC_CHANNELS.clearToken);
    expect(await bridge.serverSetting()).toEqual({ origin: 'https://a.example', editable: true, confirmed: true });
    const state = { signedIn: false } as TrayState;
    bridge.setTrayState(state);
    expect(ipc.send).toHaveBeenCalledWith(IPC_CHANNELS.setTrayState, state);
    bridge.notify({ title: 'T', body: 'B', route: '/app' });
    expect(ipc.send).toHaveBeenCalledWith(IPC_CHANNELS.notify, { title: 'T', body: 'B', route: '/app' });
    bridge.commandsReady('42');
    expect(ipc.send).toHaveBeenLastCalledWith(IPC_CHANNELS.commandsReady, '42');
    bridge.commandDone('c-1');
    expect(ipc.send).toHaveBeenLastCalledWith(IPC_CHANNELS.commandDone, 'c-1');
    bridge.commandsNotReady();
    expect(ipc.send).toHaveBeenLastCalledWith(IPC_CHANNELS.commandsNotReady);
    expect(bridge.usesServiceWorker()).toBe(false);
  });

  it('setServerOrigin resolves to the origin, or rejects with the plain user-facing message', async () => {
    const ok = createPreloadBridge(fakeIpc({ [IPC_CHANNELS.setServerOrigin]: { ok: true, origin: 'https://a.example' } }));
    expect(await ok.setServerOrigin('a.example')).toBe('https://a.example');
    const bad = createPreloadBridge(fakeIpc({ [IPC_CHANNELS.setServerOrigin]: { ok: false, message: 'Enter the address of your Avail server, like https://avail.example.com' } }));
    const error = await bad.setServerOrigin('ftp://x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('Enter the address of your Avail server, like https://avail.example.com');
  });

  it('onCommand delivers commands (never the IPC event); unsubscribe removes only that listener', () => {
    const ipc = fakeIpc();
    const bridge = createPreloadBridge(ipc);
    const a: DesktopCommand[] = [];
    const b: DesktopCommand[] = [];
    const offA = bridge.onCommand((c) => a.push(c));
    bridge.onCommand((c) => b.push(c));
    const event = { sender: 'ipc internals' };
    ipc.emitter.emit(IPC_CHANNELS.command, event, { type: 'sync-now' });
    offA();
    offA(); // twice is harmless
    ipc.emitter.emit(IPC_CHANNELS.command, event, { type: 'navigate', route: '/app/dashboard#proposals' });
    expect(a).toEqual([{ type: 'sync-now' }]);
    expect(b).toEqual([{ type: 'sync-now' }, { type: 'navigate', route: '/app/dashboard#proposals' }]);
    expect(ipc.emitter.listenerCount(IPC_CHANNELS.command)).toBe(1);
  });
});
