/**
 * The preload script: exposes the {@link DesktopBridge} to the web app as `window.availDesktop`
 * through `contextBridge` (https://www.electronjs.org/docs/latest/api/context-bridge). It runs
 * sandboxed (no Node; only `electron`'s renderer modules), so it is bundled into one CommonJS file
 * with `electron` external. The web page never sees `ipcRenderer` or an IPC event: only the
 * bridge's functions, each mapped to one channel of `IPC_CHANNELS`.
 *
 * The module's only side effect is the single `exposeInMainWorld` call at the bottom.
 */
import { contextBridge, ipcRenderer } from 'electron';
import {
  DESKTOP_BRIDGE_GLOBAL,
  type DesktopBridge,
  type DesktopCommand,
  type DesktopNotification,
  type ServerSetting,
  type TokenPersistence,
  type TrayState,
} from '@avail/shared/desktop/desktop-bridge.ts';
import { IPC_CHANNELS, type SetServerOriginReply } from '../ipc-channels.ts';

/** The part of `ipcRenderer` the bridge uses (https://www.electronjs.org/docs/latest/api/ipc-renderer). */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  send(channel: string, ...args: unknown[]): void;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

/**
 * Builds the bridge over `ipc`. `setServerOrigin` rejects with `Error(<the user-facing message>)`
 * (the main process sends it as data, see `SetServerOriginReply`); `onCommand` returns an
 * unsubscribe that removes exactly that listener; `usesServiceWorker` is false (the app's files
 * are local).
 */
export function createPreloadBridge(ipc: IpcRendererLike): DesktopBridge {
  const bridge = {
    // Notifications are shown by the main process; consent pages go to the system browser.
    capabilities: () => ({ notifications: true, consentInSystemBrowser: true }),
    openExternal: async (url: string) => {
      await ipc.invoke(IPC_CHANNELS.openExternal, url);
    },
    tokenPersistence: () => ipc.invoke(IPC_CHANNELS.tokenPersistence) as Promise<TokenPersistence>,
    loadToken: () => ipc.invoke(IPC_CHANNELS.loadToken) as Promise<string | null>,
    saveToken: (token: string) => ipc.invoke(IPC_CHANNELS.saveToken, token) as Promise<TokenPersistence>,
    clearToken: async () => {
      await ipc.invoke(IPC_CHANNELS.clearToken);
    },
    serverSetting: () => ipc.invoke(IPC_CHANNELS.serverSetting) as Promise<ServerSetting>,
    setServerOrigin: async (url: string) => {
      const reply = (await ipc.invoke(IPC_CHANNELS.setServerOrigin, url)) as SetServerOriginReply;
      if (!reply.ok) throw new Error(reply.message);
      return reply.origin;
    },
    setTrayState: (state: TrayState) => ipc.send(IPC_CHANNELS.setTrayState, state),
    onCommand: (listener: (command: DesktopCommand) => void) => {
      const relay = (_event: unknown, command: unknown) => listener(command as DesktopCommand);
      ipc.on(IPC_CHANNELS.command, relay);
      return () => {
        ipc.removeListener(IPC_CHANNELS.command, relay);
      };
    },
    notify: (notification: DesktopNotification) => ipc.send(IPC_CHANNELS.notify, notification),
    commandsReady: (userId: string) => ipc.send(IPC_CHANNELS.commandsReady, userId),
    commandsNotReady: () => ipc.send(IPC_CHANNELS.commandsNotReady),
    commandDone: (commandId: string) => ipc.send(IPC_CHANNELS.commandDone, commandId),
    usesServiceWorker: () => false,
  } satisfies DesktopBridge;
  return bridge;
}

contextBridge.exposeInMainWorld(DESKTOP_BRIDGE_GLOBAL, createPreloadBridge(ipcRenderer));
