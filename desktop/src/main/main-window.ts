/**
 * The one main window (main.ts): created at start (hidden when started at login) and again when
 * shown after it was closed, placed where it was left (window-state-store.ts: bounds, maximized
 * at its first show so it does not jump), hidden to the tray on close, guarded (app-window.ts:
 * navigation, crash recovery, session end), loading `app://avail/app/dashboard`. A show asked for
 * before start() finished (a second launch, a notification) waits for it; none while quitting.
 * Commands reach the renderer through it (IPC channel `command`).
 */
import type { BrowserWindow, BrowserWindowConstructorOptions } from 'electron';
import type { DesktopCommand } from '@avail/shared/desktop/desktop-bridge.ts';
import { IPC_CHANNELS } from '../ipc-channels.ts';
import { APP_START_URL } from './app-protocol.ts';
import {
  attachCrashRecovery,
  attachHideOnClose,
  attachMainWindowGuards,
  mainWindowOptions,
  revealWindow,
  trackSessionEnd,
  type DockControl,
  type QuitFlag,
} from './app-window.ts';
import { restoredWindowPlacement, type Rect, type WindowStateStore } from './window-state-store.ts';

export interface MainWindowDeps {
  /** Electron's `BrowserWindow` class. */
  BrowserWindow: new (options: BrowserWindowConstructorOptions) => BrowserWindow;
  /** Electron's `screen` (usable after `ready` only). */
  screen: { getAllDisplays(): Array<{ workArea: Rect }> };
  /** Electron's `powerMonitor`: its `shutdown` marks the app as quitting. */
  powerMonitor: { on(event: 'shutdown', listener: () => void): unknown } | null;
  /** macOS's Dock (app-window.ts), null elsewhere. */
  dock: DockControl | null;
  quitFlag: QuitFlag;
  windowState: WindowStateStore;
  /** `dist/preload.cjs`. */
  preloadPath: string;
  /** The window icon (Linux only), else undefined. */
  icon: string | undefined;
  /** Every address leaving the app (main.ts: the external-link policy). */
  openExternal(url: string): unknown;
  /** The page's database closed (window closed, reloading, renderer gone): tray commands wait again. */
  pageGone(): void;
  setTimeout(fn: () => void, ms: number): unknown;
  log(message: string): void;
}

export interface MainWindow {
  /** Creates the window at start (after `ready`); `startHidden` (started at login): it stays hidden. */
  create(startHidden: boolean): void;
  /** Shows the window (created again if it was closed); before {@link MainWindow.started}: once start() finished; while quitting: nothing. */
  show(): void;
  /** start() finished: from now on {@link MainWindow.show} acts, and a show asked for meanwhile is done. */
  started(): void;
  /** Sends a command to the renderer; false when there is no window (the command is not sent). */
  send(command: DesktopCommand): boolean;
  /** The window when it exists and is visible (the parent of a question), else null. */
  visible(): BrowserWindow | null;
}

/** The main window's host; no window exists until {@link MainWindow.create} or a show after {@link MainWindow.started}. */
export function createMainWindow(deps: MainWindowDeps): MainWindow {
  const { quitFlag, dock, windowState } = deps;
  let mainWindow: BrowserWindow | null = null;
  /** Set at the end of start(): before it, the protocol, IPC and window state are not there yet. */
  let started = false;
  /** A show asked for during start() (a second launch, a notification): done once start() finished. */
  let showRequested = false;
  /** Windows whose restored maximized state waits for their first show (maximized before it: no jump). */
  const maximizeAtFirstShow = new WeakSet<BrowserWindow>();
  const applyFirstShowMaximize = (win: BrowserWindow) => {
    if (maximizeAtFirstShow.delete(win)) win.maximize();
  };

  function createWindow(startHidden: boolean): BrowserWindow {
    // Runs after `ready` only (start(), showWindow): Electron's `screen` is not usable before it.
    const placement = restoredWindowPlacement(windowState.latest(), deps.screen.getAllDisplays().map((d) => d.workArea));
    const win = new deps.BrowserWindow(mainWindowOptions({ preload: deps.preloadPath, icon: deps.icon, bounds: placement.bounds }));
    attachHideOnClose(win, quitFlag, dock);
    windowState.track(win);
    trackSessionEnd(win, deps.powerMonitor, quitFlag);
    attachCrashRecovery(win.webContents, { setTimeout: deps.setTimeout, log: deps.log });
    attachMainWindowGuards(win.webContents, { openExternal: deps.openExternal, log: deps.log });
    if (placement.maximized) maximizeAtFirstShow.add(win);
    win.once('ready-to-show', () => {
      if (startHidden) return;
      applyFirstShowMaximize(win);
      win.show();
    });
    win.on('closed', () => {
      if (mainWindow === win) mainWindow = null;
      deps.pageGone();
    });
    // A (re)load or a crash closes the page's database: tray commands wait again for its "ready".
    win.webContents.on('did-start-loading', () => deps.pageGone());
    win.webContents.on('render-process-gone', () => deps.pageGone());
    void win.loadURL(APP_START_URL);
    return win;
  }

  function show(): void {
    if (quitFlag.quitting) return; // quitting (e.g. an updater restart): never a new window
    if (!started) {
      showRequested = true;
      return;
    }
    if (!mainWindow || mainWindow.isDestroyed()) mainWindow = createWindow(false);
    const win = mainWindow;
    void revealWindow(win, dock, () => applyFirstShowMaximize(win));
  }

  return {
    create(startHidden) {
      mainWindow = createWindow(startHidden);
    },
    show,
    started() {
      started = true;
      if (showRequested) show();
    },
    send(command) {
      if (!mainWindow || mainWindow.isDestroyed()) return false;
      mainWindow.webContents.send(IPC_CHANNELS.command, command);
      return true;
    },
    visible: () => (mainWindow && !mainWindow.isDestroyed() && mainWindow.isVisible() ? mainWindow : null),
  };
}
