/**
 * The main window's host (main-window.ts) with a fake `BrowserWindow`: when the window is made,
 * shown, restored maximized, and when the page's database counts as gone. main.test.ts checks
 * the same host wired into main.ts.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { IPC_CHANNELS } from '../ipc-channels.ts';
import { APP_START_URL } from './app-protocol.ts';
import { createMainWindow, type MainWindowDeps } from './main-window.ts';
import type { WindowState } from './window-state-store.ts';

function setup(latest: WindowState | null = null) {
  const windows: FakeWindow[] = [];
  class FakeWindow extends EventEmitter {
    webContents = Object.assign(new EventEmitter(), { send: vi.fn(), reload: vi.fn(), setWindowOpenHandler: vi.fn(), isDestroyed: () => false });
    loadURL = vi.fn(async () => undefined);
    show = vi.fn(() => void (this.shown = true));
    hide = vi.fn();
    focus = vi.fn();
    restore = vi.fn();
    maximize = vi.fn();
    shown = false;
    destroyed = false;
    isMinimized = () => false;
    isDestroyed = () => this.destroyed;
    isVisible = () => this.shown;
    isMaximized = () => false;
    getNormalBounds = () => ({ x: 0, y: 0, width: 1200, height: 800 });
    constructor(public options: Record<string, unknown>) {
      super();
      windows.push(this);
    }
  }
  const quitFlag = { quitting: false };
  const pageGone = vi.fn();
  const deps: MainWindowDeps = {
    BrowserWindow: FakeWindow as unknown as MainWindowDeps['BrowserWindow'],
    screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1050 } }] },
    powerMonitor: new EventEmitter(),
    dock: null,
    quitFlag,
    windowState: { latest: () => latest, track: vi.fn() } as unknown as MainWindowDeps['windowState'],
    preloadPath: '/dist/preload.cjs',
    icon: undefined,
    openExternal: vi.fn(),
    pageGone,
    setTimeout,
    log: () => undefined,
  };
  return { host: createMainWindow(deps), windows, quitFlag, pageGone };
}

describe('createMainWindow', () => {
  it('create: one window loading the app, shown when ready unless started hidden', () => {
    const { host, windows } = setup();
    host.create(true);
    expect(windows).toHaveLength(1);
    expect(windows[0]!.loadURL).toHaveBeenCalledWith(APP_START_URL);
    expect(windows[0]!.options).toMatchObject({ show: false, webPreferences: { preload: '/dist/preload.cjs' } });
    windows[0]!.emit('ready-to-show');
    expect(windows[0]!.show).not.toHaveBeenCalled();
    expect(host.visible()).toBeNull();

    const shown = setup();
    shown.host.create(false);
    shown.windows[0]!.emit('ready-to-show');
    expect(shown.windows[0]!.show).toHaveBeenCalledOnce();
    expect(shown.host.visible()).toBe(shown.windows[0]);
  });

  it('restored maximized: maximized at its first show, not before', () => {
    const { host, windows } = setup({ bounds: { x: 10, y: 10, width: 900, height: 700 }, maximized: true });
    host.create(false);
    expect(windows[0]!.maximize).not.toHaveBeenCalled();
    windows[0]!.emit('ready-to-show');
    expect(windows[0]!.maximize).toHaveBeenCalledOnce();
  });

  it('a show before start() finished waits for it; none while quitting; a closed window is made again', async () => {
    const { host, windows, quitFlag } = setup();
    host.show();
    expect(windows).toHaveLength(0);
    host.started();
    expect(windows).toHaveLength(1);
    windows[0]!.destroyed = true;
    host.show();
    expect(windows).toHaveLength(2);
    quitFlag.quitting = true;
    windows[1]!.destroyed = true;
    host.show();
    expect(windows).toHaveLength(2);
  });

  it('send: to the renderer on the command channel; false without a window', () => {
    const { host, windows } = setup();
    const command = { type: 'navigate', route: '/app/dashboard' } as const;
    expect(host.send(command)).toBe(false);
    host.create(true);
    expect(host.send(command)).toBe(true);
    expect(windows[0]!.webContents.send).toHaveBeenCalledWith(IPC_CHANNELS.command, command);
  });

  it('the page is gone when the window closes, reloads or its renderer goes', () => {
    const { host, windows, pageGone } = setup();
    host.create(true);
    windows[0]!.webContents.emit('did-start-loading');
    windows[0]!.webContents.emit('render-process-gone', {}, { reason: 'clean-exit', exitCode: 0 });
    windows[0]!.emit('closed');
    expect(pageGone).toHaveBeenCalledTimes(3);
    expect(host.send({ type: 'navigate', route: '/app/dashboard' })).toBe(false);
  });
});
