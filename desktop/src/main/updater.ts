/**
 * The part of electron-updater (https://www.electron.build/auto-update) the update controller uses,
 * its lazy loader, and the timers the update phases run on — all injected, so every rule of
 * update-controller.ts, update-checks.ts and update-install.ts is unit-tested with the updater
 * mocked and a fake clock.
 */

/** electron-updater's logger interface (`{ info, warn, error }`, optional `debug`). */
interface UpdaterLogger {
  info(message?: unknown): void;
  warn(message?: unknown): void;
  error(message?: unknown): void;
  debug?(message: string): void;
}

/** The part of electron-updater's `AppUpdater` (its `autoUpdater`) the controller uses. */
export interface UpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  logger: UpdaterLogger | null;
  /** Resolves null when the updater is inactive; rejects (and emits `error`) on failure. */
  checkForUpdates(): Promise<unknown>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  /** MacUpdater only: false while Squirrel.Mac has not fetched the downloaded update yet. */
  readonly squirrelDownloadedUpdate?: boolean;
  /** `appimage-filename-updated` (AppImageUpdater, with the new file's path): the update was installed under another name. */
  on(
    event: 'checking-for-update' | 'update-available' | 'update-not-available' | 'download-progress' | 'update-downloaded' | 'error' | 'appimage-filename-updated',
    listener: (...args: any[]) => void,
  ): unknown;
}

/**
 * electron-updater's `autoUpdater` (its getter builds the platform's updater). Loaded only when
 * called — main.ts calls it only when updates apply (~680 kB of bundled code otherwise run at every
 * start); esbuild bundles electron-updater into `main.cjs` and runs it at this first `require`.
 * Throws when the module cannot be loaded or the updater not built (see update-controller.ts).
 */
export function loadUpdater(): UpdaterLike {
  return (require('electron-updater') as typeof import('electron-updater')).autoUpdater;
}

/** Timers, injectable so tests run on a fake clock. */
export interface UpdateTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(id: unknown): void;
}

/** The real timers (Node's). */
export const systemTimers: UpdateTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (id) => clearInterval(id as ReturnType<typeof setInterval>),
};
