/**
 * The main-process side of the desktop bridge: `ipcMain.handle` for the invoke calls (token,
 * server setting) and `ipcMain.on` for the one-way ones (tray state, notifications, the
 * renderer's "commands ready", "not ready" and "command done")
 * (https://www.electronjs.org/docs/latest/api/ipc-main).
 *
 * Every message is answered only when its sender frame shows a page of `app://avail`
 * (https://www.electronjs.org/docs/latest/tutorial/security#17-validate-the-sender-of-all-ipc-messages):
 * `about:blank` documents, web pages and anything that ever navigated elsewhere get nothing.
 * Payloads are validated (`ipc-payloads.ts`) before use.
 */
import {
  isExternalPageUrl,
  normaliseServerOrigin,
  type DesktopCommand,
  type DesktopNotification,
  type ServerSetting,
  type TokenPersistence,
  type TrayState,
} from '@avail/shared/desktop/desktop-bridge.ts';
import { IPC_CHANNELS, type SetServerOriginReply } from '../ipc-channels.ts';
import { isAppUrl } from './app-window.ts';
import type { ExternalLinkOutcome } from './external-link-policy.ts';
import { isCommandId, isTokenArgument, isUserIdArgument, parseDesktopNotification, parseTrayState } from './ipc-payloads.ts';
import type { TokenStore } from './token-store.ts';
import type { ServerSettingStore } from './server-setting-store.ts';

/** What an IPC event tells about its sender (Electron's `IpcMainEvent` / `IpcMainInvokeEvent`). */
export interface IpcSenderEvent {
  /** The frame that sent the message; null when it navigated away or was destroyed. */
  senderFrame: { url: string } | null;
}

/** The part of `ipcMain` the handlers use. */
interface IpcMainLike {
  handle(channel: string, listener: (event: IpcSenderEvent, ...args: unknown[]) => unknown): void;
  on(channel: string, listener: (event: IpcSenderEvent, ...args: unknown[]) => void): unknown;
}

export interface IpcHandlerDeps {
  ipcMain: IpcMainLike;
  tokenStore: TokenStore;
  serverSettings: ServerSettingStore;
  /** Receives a validated tray state. */
  setTrayState(state: TrayState): void;
  /** Shows a system notification; `onClick` runs when the owner clicks it. */
  showNotification(notification: DesktopNotification, onClick: () => void): void;
  /** Shows and focuses the app window. */
  showWindow(): void;
  /**
   * Opens a page in the system browser through the external-link policy (main.ts passes
   * `openExternalWithPolicy`: allow-listed consent pages at once, other addresses after a
   * question); only called with URLs that pass `isExternalPageUrl`.
   */
  openExternal(url: string): Promise<ExternalLinkOutcome>;
  /** Sends a command to the renderer. */
  sendCommand(command: DesktopCommand): void;
  /** The renderer's device database is open for account `userId`: deliver the tray commands that waited (issue 25). */
  commandsReady(userId: string): void;
  /** The renderer can no longer carry tray commands out (signed out): they wait again. */
  commandsNotReady(): void;
  /** The renderer carried out (or gave up on) tray command `commandId`. */
  commandDone(commandId: string): void;
  /**
   * Called after `setServerOrigin` stored an origin different from the previous one and cleared
   * the token, before it answers. It must not reload the window: the renderer finishes its
   * sign-out (device database, token) and reloads itself (docs/desktop-release.md, "Hardening").
   */
  onServerOriginChanged?(origin: string): void;
  log?: (message: string) => void;
}

/** What the owner reads when the setting could not be written (disk full, no permission…). */
export const SERVER_SETTING_WRITE_FAILED = 'Could not save the server address on this computer. Please try again.';

/** Why `openExternal` rejected, for the renderer (which shows its own failure text). */
export const EXTERNAL_NOT_OPENED_MESSAGE: Record<Exclude<ExternalLinkOutcome, 'opened'>, string> = {
  cancelled: 'The address was not opened',
  refused: 'This address cannot be opened',
  failed: 'Could not open the address in the browser',
};

/** The message an invoke from a foreign sender is rejected with. */
export const FOREIGN_SENDER_MESSAGE = 'Refused: this call is only answered for the Avail app';

/** true when the event's sender frame is a page of `app://avail`. */
function isTrustedSender(event: IpcSenderEvent | null | undefined): boolean {
  const url = event?.senderFrame?.url;
  return typeof url === 'string' && isAppUrl(url);
}

/** Registers every channel of {@link IPC_CHANNELS} except `command` (main → renderer). */
export function registerIpcHandlers(deps: IpcHandlerDeps): void {
  const log = deps.log ?? (() => undefined);
  const { ipcMain } = deps;

  /** An invoke handler that rejects foreign senders. */
  const handle = <R>(channel: string, fn: (...args: unknown[]) => Promise<R> | R) => {
    ipcMain.handle(channel, (event, ...args) => {
      if (!isTrustedSender(event)) {
        log(`ipc: refused ${channel} from ${describeSender(event)}`);
        throw new Error(FOREIGN_SENDER_MESSAGE);
      }
      return fn(...args);
    });
  };
  /** A one-way handler that ignores foreign senders. */
  const on = (channel: string, fn: (...args: unknown[]) => void) => {
    ipcMain.on(channel, (event, ...args) => {
      if (!isTrustedSender(event)) {
        log(`ipc: ignored ${channel} from ${describeSender(event)}`);
        return;
      }
      fn(...args);
    });
  };

  handle<void>(IPC_CHANNELS.openExternal, async (url) => {
    if (typeof url !== 'string' || !isExternalPageUrl(url)) throw new Error('Only https pages (or http on this computer) can be opened');
    const outcome = await deps.openExternal(url);
    if (outcome !== 'opened') throw new Error(EXTERNAL_NOT_OPENED_MESSAGE[outcome]);
  });
  handle<TokenPersistence>(IPC_CHANNELS.tokenPersistence, () => deps.tokenStore.persistence());
  handle<string | null>(IPC_CHANNELS.loadToken, () => deps.tokenStore.load());
  handle<TokenPersistence>(IPC_CHANNELS.saveToken, (token) => {
    if (!isTokenArgument(token)) throw new Error('saveToken needs the token string');
    return deps.tokenStore.save(token);
  });
  handle<void>(IPC_CHANNELS.clearToken, () => deps.tokenStore.clear());
  handle<ServerSetting>(IPC_CHANNELS.serverSetting, () => deps.serverSettings.get());
  handle<SetServerOriginReply>(IPC_CHANNELS.setServerOrigin, async (url) => {
    try {
      normaliseServerOrigin(typeof url === 'string' ? url : '');
    } catch (e) {
      return { ok: false, message: (e as Error).message }; // the contract's user-facing message
    }
    const before = (await deps.serverSettings.get()).origin;
    let origin: string;
    try {
      origin = await deps.serverSettings.setServerOrigin(url as string);
    } catch (e) {
      log(`ipc: could not store the server setting (${(e as { code?: string }).code ?? 'error'})`);
      return { ok: false, message: SERVER_SETTING_WRITE_FAILED };
    }
    if (origin !== before) {
      // The token belongs to the old server: it is gone before the renderer hears "ok" and reloads,
      // so the new server never receives it (issue 27). A failed removal is logged by the store.
      await deps.tokenStore.clear().catch(() => log('ipc: could not clear the token after a server change'));
      deps.onServerOriginChanged?.(origin);
    }
    return { ok: true, origin };
  });

  on(IPC_CHANNELS.setTrayState, (value) => {
    const state = parseTrayState(value);
    if (!state) {
      log('ipc: ignored an invalid tray state');
      return;
    }
    deps.setTrayState(state);
  });
  on(IPC_CHANNELS.commandsReady, (userId) => {
    if (!isUserIdArgument(userId)) {
      log('ipc: ignored commandsReady without a user id');
      return;
    }
    deps.commandsReady(userId);
  });
  on(IPC_CHANNELS.commandsNotReady, () => deps.commandsNotReady());
  on(IPC_CHANNELS.commandDone, (commandId) => {
    if (!isCommandId(commandId)) {
      log('ipc: ignored an invalid command id');
      return;
    }
    deps.commandDone(commandId);
  });
  on(IPC_CHANNELS.notify, (value) => {
    const notification = parseDesktopNotification(value);
    if (!notification) {
      log('ipc: ignored an invalid notification');
      return;
    }
    deps.showNotification(notification, () => {
      deps.showWindow();
      deps.sendCommand({ type: 'navigate', route: notification.route });
    });
  });
}

function describeSender(event: IpcSenderEvent | null | undefined): string {
  const url = event?.senderFrame?.url;
  if (typeof url !== 'string') return 'a destroyed frame';
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : u.protocol;
  } catch {
    return 'an unparsable URL';
  }
}
