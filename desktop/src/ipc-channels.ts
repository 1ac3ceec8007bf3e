/**
 * IPC channel names shared by the main process (`main/ipc-handlers.ts`) and the preload script
 * (`preload/preload.ts`). Invoke channels answer a promise; send channels are one-way.
 * No Electron import: the preload bundle and the tests read it as plain data.
 */
export const IPC_CHANNELS = {
  /** invoke → TokenPersistence */
  tokenPersistence: 'avail:token-persistence',
  /** invoke → string | null */
  loadToken: 'avail:load-token',
  /** invoke(token) → TokenPersistence */
  saveToken: 'avail:save-token',
  /** invoke → void */
  clearToken: 'avail:clear-token',
  /** invoke → ServerSetting */
  serverSetting: 'avail:server-setting',
  /** invoke(url) → SetServerOriginReply (an error travels as data: Electron rewrites thrown messages) */
  setServerOrigin: 'avail:set-server-origin',
  /** invoke(url) → void; only https / loopback http pages (isExternalPageUrl) */
  openExternal: 'avail:open-external',
  /** send(TrayState) */
  setTrayState: 'avail:set-tray-state',
  /** send(DesktopNotification) */
  notify: 'avail:notify',
  /** send(userId): the renderer's device database is open for this account; main delivers the queued tray commands */
  commandsReady: 'avail:commands-ready',
  /** send(): the renderer can no longer carry tray commands out (signed out); they wait again */
  commandsNotReady: 'avail:commands-not-ready',
  /** send(commandId): a tray command was carried out or has failed; main forgets it */
  commandDone: 'avail:command-done',
  /** main → renderer: DesktopCommand */
  command: 'avail:command',
} as const;

/**
 * Reply of `setServerOrigin`. Electron prefixes an error thrown in an invoke handler with
 * "Error invoking remote method …", so the user-facing message travels as data and the preload
 * throws it as a plain `Error(message)`.
 */
export type SetServerOriginReply = { ok: true; origin: string } | { ok: false; message: string };
