/**
 * Entry of the Electron main process: the only module that touches real Electron objects. It
 * wires the testable modules of this folder together:
 *
 * single instance → `app://` scheme (privileged before `ready`, served from the web build) →
 * server setting and token stores in the data folder → permissions and navigation rules → the
 * window (`app://avail/app/dashboard`, hidden to the tray on close, started hidden at login) →
 * the tray (menu and tooltip from the renderer's state; on start the last known state kept in
 * `tray-state.json`, issue 25) → IPC for the preload bridge. Busy blocks and proposal decisions
 * from the tray wait in `tray-commands.json` until the renderer has carried them out (acknowledged).
 *
 * Layout (development and packaged alike, see electron-builder.yml): this file is
 * `desktop/dist/main.cjs`, the preload `desktop/dist/preload.cjs`, the web build `web/dist/`;
 * tray images come from `build/` in development and `<resources>/tray/` when packaged.
 */
import { app, autoUpdater as nativeAutoUpdater, BrowserWindow, clipboard, dialog, ipcMain, Menu, nativeImage, nativeTheme, Notification, powerMonitor, protocol, safeStorage, screen, session, shell, Tray } from 'electron';
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { signedOutTrayState, type DesktopCommand } from '@avail/shared/desktop/desktop-bridge.ts';
import { BUILD_DEFAULT_SERVER_ORIGIN, PROJECT_HOMEPAGE } from '../build-constants.ts';
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, createAppProtocolHandler } from './app-protocol.ts';
import {
  claimSingleInstance,
  createDockControl,
  isAllowedPermission,
  trackQuitting,
  type QuitFlag,
} from './app-window.ts';
import { desktopCsp } from '@avail/shared/desktop/content-security-policy.ts';
import { registerIpcHandlers } from './ipc-handlers.ts';
import { createLoginItem, shouldStartHidden } from './login-item.ts';
import { linuxAutostart as linuxAutostartFor, retargetAutostart } from './linux-autostart.ts';
import { readBytes, removeFile, writePrivateFile } from './private-file.ts';
import { createServerSettingStore } from './server-setting-store.ts';
import { createTokenStore } from './token-store.ts';
import { startAppUpdates, type AppQuitStarted } from './app-updates.ts';
import type { UpdateController } from './update-controller.ts';
import { runningAppImage } from './update-environment.ts';
import { loadUpdater } from './updater.ts';
import { createNotifier } from './system-notifications.ts';
import { trayImage as trayImageFor } from './tray-image.ts';
import { droppedCommandNotice } from './dropped-command-notice.ts';
import { createTrayCommandQueue, isQueuedCommandType } from './tray-command-queue.ts';
import { createTrayController, type TrayController } from './tray-controller.ts';
import { createTrayStateStore, signedInUnknownTrayState } from './tray-state-store.ts';
import { confirmWithMessageBox, externalLinkAllowHosts, openExternalWithPolicy } from './external-link-policy.ts';
import { createWindowStateStore, holdQuitForWindowState } from './window-state-store.ts';
import { createMainWindow } from './main-window.ts';
import { e2eEnabled, e2eUserDataDir, probeTray, type E2eTrayProbe } from './e2e-hook.ts';
import { commandLineRefusal, scrubPackagedEnv } from './command-line-policy.ts';

/** Windows needs it for notifications; the same id as electron-builder.yml's appId. */
const APP_USER_MODEL_ID = 'app.avail.desktop';

const log = (message: string) => console.warn(`[avail] ${message}`);
// An installed app never writes its TLS session keys where SSLKEYLOGFILE says (command-line-policy.ts).
scrubPackagedEnv(app.isPackaged, process.env);

const webDistDir = join(__dirname, '..', '..', 'web', 'dist');
const preloadPath = join(__dirname, 'preload.cjs');
const resourcesDir = app.isPackaged ? join(process.resourcesPath, 'tray') : join(__dirname, '..', '..', 'build');

const quitFlag: QuitFlag = { quitting: false };
let tray: Tray | null = null;
let trayController: TrayController | null = null;
/** electron-updater behind update-controller.ts (issue 27); created after the tray. */
let updates: UpdateController | null = null;
/** The app has started quitting (`before-quit`): asked by the updater after "Restart to update". */
const appQuit: AppQuitStarted = { started: false };
/** System notifications, each kept referenced until clicked or closed (system-notifications.ts). */
const showNotification = createNotifier(Notification);

// One data folder, `<appData>/Avail`, in development (`electron .` in desktop/) and packaged alike.
app.setName('Avail');
// The real-Electron suite (AVAIL_E2E=1, unpackaged only) gives each test its own folder (e2e-hook.ts).
app.setPath('userData', e2eUserDataDir(process.env, app.isPackaged) ?? join(app.getPath('appData'), 'Avail'));
// An installed app never starts open to a debugger, a net log or a redirection (command-line-policy.ts).
const commandLineRefused = commandLineRefusal(app.isPackaged, (name) => app.commandLine.hasSwitch(name), process.argv);

// Must run before `ready`.
protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);

/** macOS: the Dock icon, hidden and shown only where the app hides / shows the window on purpose. */
const dock = createDockControl(app, process.platform);

/** Every address leaving the app (bridge, web links, window.open): allow-list, else a question. */
function openExternal(url: string) {
  const parent = mainWindow.visible();
  return openExternalWithPolicy(url, {
    shell,
    confirm: confirmWithMessageBox({ showMessageBox: (options) => (parent ? dialog.showMessageBox(parent, options) : dialog.showMessageBox(options)) }),
    allowHosts: externalLinkAllowHosts(PROJECT_HOMEPAGE),
    log,
  });
}

/** The XDG autostart entry of "Start at login" on Linux (linux-autostart.ts). */
function linuxAutostart() {
  return linuxAutostartFor({ env: process.env, home: () => app.getPath('home'), execPath: process.execPath, isPackaged: app.isPackaged, appPath: () => app.getAppPath() });
}

/** The tray icon for the platform and the current theme (tray-image.ts). */
const trayImage = () => trayImageFor({ platform: process.platform, resourcesDir, nativeImage, nativeTheme });

const userData = (): string => app.getPath('userData');
const serverSettings = createServerSettingStore({
  readFile: (file) => readFile(file),
  writeFile: (file, data) => writePrivateFile(file, data),
  file: join(userData(), 'desktop-config.json'),
  defaultOrigin: BUILD_DEFAULT_SERVER_ORIGIN,
  log,
});

/** Routes a command: busy blocks and decisions wait for the renderer's database, a route for its page, the rest go at once. */
function dispatchCommand(command: DesktopCommand): void {
  if (isQueuedCommandType(command)) commandQueue.submit(command);
  else if (command.type === 'navigate') commandQueue.navigate(command);
  else sendCommand(command);
}

const windowState = createWindowStateStore({
  readFile: (file) => readFile(file),
  writeFile: (file, data) => writePrivateFile(file, data),
  file: join(userData(), 'window-state.json'),
  setTimeout,
  clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
  log,
});

/** The one main window (main-window.ts). */
const mainWindow = createMainWindow({
  BrowserWindow,
  screen,
  powerMonitor,
  dock,
  quitFlag,
  windowState,
  preloadPath,
  icon: process.platform === 'linux' ? join(resourcesDir, 'icon.png') : undefined,
  openExternal,
  pageGone: () => commandQueue.notReady(),
  setTimeout,
  log,
});
const showWindow = (): void => mainWindow.show();
/** Sends a command to the renderer; false when there is no window (the command is not sent). */
const sendCommand = (command: DesktopCommand): boolean => mainWindow.send(command);

const trayStateStore = createTrayStateStore({
  readFile: (file) => readFile(file),
  writeFile: (file, data) => writePrivateFile(file, data),
  removeFile,
  file: join(userData(), 'tray-state.json'),
  log,
});
/** The owner's zone as last reported (for the times in a dropped command's notification). */
let ownerZone: string | undefined;
const commandQueue = createTrayCommandQueue({
  readFile: (file) => readFile(file),
  writeFile: (file, data) => writePrivateFile(file, data),
  file: join(userData(), 'tray-commands.json'),
  deliver: sendCommand,
  newId: () => randomUUID(),
  // What was clicked and why it was not carried out; a click opens the window at the dashboard.
  dropped: (command, reason) => {
    const notice = droppedCommandNotice(command, reason, ownerZone);
    showNotification(notice, () => {
      showWindow();
      commandQueue.navigate({ type: 'navigate', route: notice.route });
    });
    trayController?.refresh(); // the "waiting" count
  },
  log,
});

async function start(): Promise<void> {
  if (process.platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID);
  // The CSP and the popup rules need the origin from the first request on; the tray shows its
  // last known state at once, and the commands a previous run kept wait for the renderer.
  const [, lastTrayState] = await Promise.all([serverSettings.get(), trayStateStore.load(), commandQueue.load(), windowState.load()]);

  const tokenStore = createTokenStore({
    safeStorage,
    readFile: readBytes,
    writeFile: (file, data, options) => writePrivateFile(file, data, options),
    unlink: removeFile,
    file: join(userData(), 'session-token.bin'),
    // The token is given only to the server it was saved for (desktop-config.json can be edited).
    currentOrigin: () => serverSettings.currentOrigin(),
    log,
  });
  // The last known tray state only for an owner still signed in on this computer: without a stored
  // token (signed out meanwhile, or no keyring: the token lived in memory) it would be false.
  const signedIn = (await tokenStore.load()) !== null;
  if (!signedIn && lastTrayState) trayStateStore.remember(signedOutTrayState(Date.now()));
  // Commands kept for an owner who is no longer signed in here are reported, never run for the next one.
  if (!signedIn) commandQueue.signedOut();
  ownerZone = lastTrayState?.timezone;

  protocol.handle(
    APP_SCHEME,
    createAppProtocolHandler({ distDir: webDistDir, readFile: (file) => readFile(file), csp: () => desktopCsp(serverSettings.currentOrigin()), log }),
  );

  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(isAllowedPermission(permission, details.requestingUrl, 'externalURL' in details ? details.externalURL : undefined)),
  );
  ses.setPermissionCheckHandler((_contents, permission, requestingOrigin) => isAllowedPermission(permission, requestingOrigin));
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });

  // Before the window exists, so the renderer's first bridge call finds its handler.
  registerIpcHandlers({
    ipcMain,
    tokenStore,
    serverSettings,
    setTrayState: (state) => {
      if (state.signedIn) ownerZone = state.timezone;
      // Signed out: what still waits is reported as failed and forgotten (never run for the next account).
      else commandQueue.signedOut(state.unverified ? 'unverified' : 'signed-out');
      trayController?.setState(state);
    },
    showNotification,
    showWindow,
    sendCommand: dispatchCommand,
    commandsReady: (userId) => {
      commandQueue.ready(userId);
      trayController?.refresh(); // the "waiting" count
    },
    commandsNotReady: () => commandQueue.notReady(),
    commandDone: (commandId) => {
      commandQueue.done(commandId);
      trayController?.refresh();
    },
    openExternal,
    // A server change: ipc-handlers clears the token before answering; the renderer signs out and
    // reloads itself (the CSP's connect-src applies per document). Main never reloads on a timer.
    log,
  });

  const loginItem = createLoginItem(app, process.platform, process.platform === 'linux' ? linuxAutostart() : undefined);
  // Run from an AppImage (Linux): "Start at login" keeps pointing at this file.
  if (runningAppImage(process.env, process.execPath)) retargetAutostart(linuxAutostart(), log);
  const startHidden = shouldStartHidden({ argv: process.argv, platform: process.platform, app });
  if (startHidden) dock?.hide(); // started at login: in the menu bar only, until the window is opened
  mainWindow.create(startHidden);

  tray = new Tray(trayImage());
  // AVAIL_E2E=1 only: the suite reads what the tray shows and clicks its menu (e2e-hook.ts).
  let controlledTray: Tray = tray;
  if (e2eEnabled(process.env, app.isPackaged)) {
    const probed = probeTray(tray);
    controlledTray = probed.tray;
    (globalThis as { __availE2E?: E2eTrayProbe }).__availE2E = probed.probe;
  }
  trayController = createTrayController({
    tray: controlledTray,
    buildMenu: (template) => Menu.buildFromTemplate(template),
    clipboard,
    send: dispatchCommand,
    initialState: signedIn ? (lastTrayState ?? signedInUnknownTrayState(Date.now())) : null,
    onState: (state) => trayStateStore.remember(state),
    waitingCount: () => commandQueue.size(),
    showWindow,
    quit: () => app.quit(),
    loginItem,
    platform: process.platform,
    menuBarText: { get: () => serverSettings.showNextFreeInMenuBar(), set: (on) => void serverSettings.setShowNextFreeInMenuBar(on) },
    updates: { state: () => updates?.state() ?? null, checkNow: () => updates?.checkNow(), restartToUpdate: () => updates?.restartToUpdate() },
  });
  updates = startAppUpdates({
    app,
    nativeAutoUpdater,
    process,
    exists: existsSync,
    updater: loadUpdater,
    quitFlag,
    appQuit,
    showNotification,
    onAppImageRenamed: (newPath) => retargetAutostart({ ...linuxAutostart(), command: newPath }, log),
    onChange: () => trayController?.refresh(),
    log,
  });
  trayController.refresh();
  if (process.platform !== 'darwin') tray.on('click', showWindow); // macOS opens the menu on click
  nativeTheme.on('updated', () => tray?.setImage(trayImage()));

  app.on('activate', showWindow); // macOS: Dock icon clicked
  mainWindow.started();
}

if (commandLineRefused) {
  log(commandLineRefused);
  app.exit(1);
} else if (claimSingleInstance(app, showWindow)) {
  trackQuitting(app, quitFlag);
  app.on('before-quit', () => void (appQuit.started = true));
  // A move or the close-time save still being written when the app quits: held up to 1 s.
  holdQuitForWindowState(app, windowState, { setTimeout, clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>), log });
  // The tray keeps the app alive without windows; only Quit ends it.
  app.on('window-all-closed', () => undefined);
  app.on('will-quit', () => {
    trayController?.dispose();
    updates?.dispose();
  });
  app.whenReady().then(start).catch((e: unknown) => {
    log(`start failed: ${e instanceof Error ? e.message : String(e)}`);
    app.quit();
  });
}
