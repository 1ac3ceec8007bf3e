/**
 * The updater wired into the running app (main.ts; issue 27): the update controller
 * (update-controller.ts) over this process's environment, electron-updater loaded only when
 * updates apply, its outcomes as system notifications, and the quit it asks for — the
 * single-instance lock released for the new AppImage, the quit flag set on Electron's
 * `before-quit-for-update` (https://www.electronjs.org/docs/latest/api/auto-updater#event-before-quit-for-update)
 * and taken back when the install fails.
 */
import { join } from 'node:path';
import type { QuitFlag } from './app-window.ts';
import type { ShowNotification } from './system-notifications.ts';
import { createUpdateController, type UpdateController } from './update-controller.ts';
import type { UpdaterLike } from './updater.ts';

/** The part of Electron's `app` the updates use. */
interface UpdatesApp {
  isPackaged: boolean;
  releaseSingleInstanceLock(): void;
  requestSingleInstanceLock(): boolean;
  quit(): void;
}

/** Whether the app has started quitting: main.ts sets `started` on the app's `before-quit`. */
export interface AppQuitStarted {
  started: boolean;
}

export interface AppUpdatesDeps {
  app: UpdatesApp;
  /** Electron's `autoUpdater` (Squirrel); electron-updater's BaseUpdater emits its `before-quit-for-update` too. */
  nativeAutoUpdater: { on(event: 'before-quit-for-update', listener: () => void): unknown };
  /** The part of Node's (Electron's) `process` read: see update-environment.ts. */
  process: { platform: NodeJS.Platform; env: Record<string, string | undefined>; execPath: string; resourcesPath: string; mas?: boolean; windowsStore?: boolean };
  /** Whether a file exists (`existsSync`): `<resourcesPath>/app-update.yml`. */
  exists(file: string): boolean;
  /** electron-updater's `autoUpdater` (updater.ts: `loadUpdater`); called only when updates apply. */
  updater(): UpdaterLike;
  /** Hide-on-close's flag (app-window.ts): set once the updater quits the app. */
  quitFlag: QuitFlag;
  appQuit: AppQuitStarted;
  showNotification: ShowNotification;
  /** The AppImage was installed under a new file name: main.ts points the autostart entry there. */
  onAppImageRenamed(newPath: string): void;
  /** After every update state change (main.ts: redraw the tray menu). */
  onChange(): void;
  log(message: string): void;
}

/**
 * Creates the update controller for this process and, when updates apply, listens to
 * `before-quit-for-update`: from there hide-on-close lets the window close, nothing shows it
 * again, and the single-instance lock is released. Returns the controller (disabled: one log line).
 */
export function startAppUpdates(deps: AppUpdatesDeps): UpdateController {
  const { app, process: proc, quitFlag } = deps;
  const updates = createUpdateController({
    environment: {
      isPackaged: app.isPackaged,
      platform: proc.platform,
      env: proc.env,
      execPath: proc.execPath,
      mas: proc.mas,
      windowsStore: proc.windowsStore,
      hasUpdateConfig: () => deps.exists(join(proc.resourcesPath, 'app-update.yml')),
    },
    // Loaded only when updates are on; a failure to load leaves updates off (update-controller.ts).
    updater: () => deps.updater(),
    notify: (n) => deps.showNotification({ ...n }, () => undefined), // no page to open: the tray menu has the action
    // The quit flag waits for `before-quit-for-update` (below): until then (Squirrel.Mac may still be
    // fetching) Open Avail, the Dock and a second launch still work. The new AppImage starts inside
    // quitAndInstall(), before this process exits, and must not find the single-instance lock held.
    beforeQuitAndInstall: () => {
      deps.appQuit.started = false;
      if (proc.platform === 'linux') app.releaseSingleInstanceLock();
    },
    cancelQuit: () => {
      quitFlag.quitting = false;
      // Another instance took the lock meanwhile: it is the app now, this one goes.
      if (!app.requestSingleInstanceLock()) app.quit();
    },
    quitting: () => deps.appQuit.started,
    onAppImageRenamed: (newPath) => deps.onAppImageRenamed(newPath),
    onChange: () => deps.onChange(),
    log: deps.log,
  });
  // Emitted by Electron's autoUpdater (Squirrel) and by electron-updater's BaseUpdater right before
  // the updater quits the app: from here hide-on-close lets the window close, and nothing shows it again.
  if (updates.enabled) {
    deps.nativeAutoUpdater.on('before-quit-for-update', () => {
      quitFlag.quitting = true;
      app.releaseSingleInstanceLock();
    });
  }
  return updates;
}
