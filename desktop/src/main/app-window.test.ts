import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import {
  RENDERER_RELOAD_DELAY_MS,
  attachCrashRecovery,
  createDockControl,
  attachHideOnClose,
  attachMainWindowGuards,
  claimSingleInstance,
  decideWindowOpen,
  isAllowedPermission,
  mainWindowOpenHandler,
  mainWindowOptions,
  revealWindow,
  trackQuitting,
  trackSessionEnd,
  type NavigationEvent,
  type QuitFlag,
} from './app-window.ts';

/** A window / app / webContents stand-in: a real EventEmitter plus spies. */
class FakeWindow extends EventEmitter {
  hide = vi.fn();
  show = vi.fn();
  focus = vi.fn();
  restore = vi.fn();
  minimized = false;
  isMinimized = () => this.minimized;
  /** Emits 'close' like Electron: returns whether the close went ahead (not prevented). */
  tryClose(): boolean {
    let prevented = false;
    this.emit('close', { preventDefault: () => void (prevented = true) });
    return !prevented;
  }
}

class FakeApp extends EventEmitter {
  constructor(private readonly gotLock: boolean) {
    super();
  }
  requestSingleInstanceLock = vi.fn(() => this.gotLock);
  quit = vi.fn();
}

class FakeContents extends EventEmitter {
  openHandler: ((d: { url: string }) => { action: 'allow' | 'deny'; overrideBrowserWindowOptions?: unknown }) | null = null;
  setWindowOpenHandler(h: NonNullable<FakeContents['openHandler']>) {
    this.openHandler = h;
  }
  /** Emits will-navigate (or will-redirect); returns true when the navigation was allowed. */
  navigate(url: string, event: 'will-navigate' | 'will-redirect' = 'will-navigate'): boolean {
    let prevented = false;
    const details: NavigationEvent = { url, preventDefault: () => void (prevented = true) };
    this.emit(event, details);
    return !prevented;
  }
}

describe('mainWindowOptions', () => {
  it('is sandboxed and isolated, without Node, with the preload and no background throttling', () => {
    const o = mainWindowOptions({ preload: '/app/desktop/dist/preload.cjs' });
    expect(o.show).toBe(false);
    expect(o.webPreferences).toMatchObject({
      preload: '/app/desktop/dist/preload.cjs',
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
      webSecurity: true,
      backgroundThrottling: false,
      webviewTag: false,
    });
  });

  it('opens where it was left (window-state-store), else at the default size, centred', () => {
    expect(mainWindowOptions({ preload: 'p', bounds: { x: -1200, y: 40, width: 1000, height: 700 } })).toMatchObject({ x: -1200, y: 40, width: 1000, height: 700 });
    const sized = mainWindowOptions({ preload: 'p', bounds: { width: 1200, height: 800 } });
    expect(sized).toMatchObject({ width: 1200, height: 800, center: true });
    expect(sized).not.toHaveProperty('x');
    expect(mainWindowOptions({ preload: 'p' })).toMatchObject({ width: 1200, height: 800, center: true });
  });
});

describe('single instance', () => {
  it('a second instance (no lock) quits and creates nothing', () => {
    const app = new FakeApp(false);
    const show = vi.fn();
    expect(claimSingleInstance(app, show)).toBe(false);
    expect(app.quit).toHaveBeenCalledOnce();
    expect(app.listenerCount('second-instance')).toBe(0);
  });

  it('the first instance keeps running and comes to the front on second-instance', () => {
    const app = new FakeApp(true);
    const win = new FakeWindow();
    win.minimized = true;
    expect(claimSingleInstance(app, () => revealWindow(win))).toBe(true);
    expect(app.quit).not.toHaveBeenCalled();
    app.emit('second-instance', {}, ['avail'], '/home/ana');
    expect(win.restore).toHaveBeenCalledOnce();
    expect(win.show).toHaveBeenCalledOnce();
    expect(win.focus).toHaveBeenCalledOnce();
  });
});

describe('hide on close', () => {
  it('closing hides the window to the tray', () => {
    const app = new FakeApp(true);
    const win = new FakeWindow();
    const flag: QuitFlag = { quitting: false };
    trackQuitting(app, flag);
    attachHideOnClose(win, flag);
    expect(win.tryClose()).toBe(false);
    expect(win.hide).toHaveBeenCalledOnce();
  });

  it('after before-quit the window really closes', () => {
    const app = new FakeApp(true);
    const win = new FakeWindow();
    const flag: QuitFlag = { quitting: false };
    trackQuitting(app, flag);
    attachHideOnClose(win, flag);
    app.emit('before-quit');
    expect(flag.quitting).toBe(true);
    expect(win.tryClose()).toBe(true);
    expect(win.hide).not.toHaveBeenCalled();
  });
});

describe('window-open and navigation rules', () => {
  it('decideWindowOpen: never a window — web links go outside (through the policy), the rest is denied', () => {
    expect(decideWindowOpen('https://avail.example.com/ana')).toEqual({ action: 'open-external', url: 'https://avail.example.com/ana' });
    expect(decideWindowOpen('http://example.org/')).toEqual({ action: 'open-external', url: 'http://example.org/' });
    for (const url of ['about:blank', '', 'file:///etc/passwd', 'app://avail/app/dashboard', 'javascript:alert(1)', 'about:srcdoc', 'data:text/html,x', 'mailto:a@b.c']) {
      expect(decideWindowOpen(url), url).toEqual({ action: 'deny' });
    }
  });

  it('the handler denies every window.open, about:blank included, and hands web links to the policy', () => {
    const openExternal = vi.fn(async (_url: string) => 'opened');
    const handler = mainWindowOpenHandler({ openExternal });
    expect(handler({ url: 'about:blank' })).toEqual({ action: 'deny' });
    expect(handler({ url: '' })).toEqual({ action: 'deny' });
    expect(openExternal).not.toHaveBeenCalled();
    expect(handler({ url: 'https://example.org/help' })).toEqual({ action: 'deny' });
    expect(openExternal).toHaveBeenCalledExactlyOnceWith('https://example.org/help');
    expect(handler({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(openExternal).toHaveBeenCalledTimes(1);
  });

  it.each(['will-navigate', 'will-redirect'] as const)('%s: the main window stays on app://avail; web links go to the policy', (event) => {
    const openExternal = vi.fn();
    const main = new FakeContents();
    attachMainWindowGuards(main, { openExternal });

    expect(main.navigate('app://avail/app/settings', event)).toBe(true);
    expect(main.navigate('https://accounts.google.com/o/oauth2/v2/auth?state=s', event)).toBe(false);
    expect(openExternal).toHaveBeenLastCalledWith('https://accounts.google.com/o/oauth2/v2/auth?state=s');
    expect(main.navigate('http://evil.example/', event)).toBe(false);
    expect(openExternal).toHaveBeenLastCalledWith('http://evil.example/');
    expect(main.navigate('file:///etc/passwd', event)).toBe(false);
    expect(main.navigate('app://evil/', event)).toBe(false);
    expect(main.navigate('about:blank', event)).toBe(false);
    expect(openExternal).toHaveBeenCalledTimes(2);
    expect(main.openHandler?.({ url: 'about:blank' })).toEqual({ action: 'deny' });
  });

  it('a failing opener is logged, never thrown into the navigation', async () => {
    const log = vi.fn();
    const main = new FakeContents();
    attachMainWindowGuards(main, { openExternal: () => Promise.reject(new Error('x')), log });
    expect(main.navigate('https://example.org/?q=secret')).toBe(false);
    await new Promise((r) => setTimeout(r, 0));
    expect(log).toHaveBeenCalledWith('could not open a link in the default browser');
  });
});

describe('macOS Dock', () => {
  function dockApp() {
    const calls: string[] = [];
    let finishShow: () => void = () => undefined;
    const dock = {
      // Like Electron: resolves once macOS has made the app a regular (Dock) app again.
      show: vi.fn(() => new Promise<void>((resolve) => (finishShow = () => (calls.push('dock.show done'), resolve())))),
      hide: vi.fn(() => void calls.push('dock.hide')),
    };
    return { app: { dock }, calls, finishShow: () => finishShow() };
  }
  /** A macOS window: occlusion (covered, another Space, minimised, screen lock, Cmd+H) fires hide/show as Electron does there. */
  class MacWindow extends FakeWindow {
    occlude() {
      this.emit('hide');
    }
    unocclude() {
      this.emit('show');
    }
  }

  it('the window covered, on another Space, minimised or behind a lock screen keeps the app in the Dock', () => {
    const { app } = dockApp();
    const win = new MacWindow();
    const dock = createDockControl(app, 'darwin');
    attachHideOnClose(win, { quitting: false }, dock);
    for (let i = 0; i < 3; i++) {
      win.occlude();
      win.unocclude();
    }
    expect(app.dock.hide).not.toHaveBeenCalled();
    expect(app.dock.show).not.toHaveBeenCalled();
  });

  it('closing the window hides the Dock icon; Open shows the Dock icon first and the window once it is there', async () => {
    const { app, calls, finishShow } = dockApp();
    const win = new MacWindow();
    win.show.mockImplementation(() => void calls.push('win.show'));
    const dock = createDockControl(app, 'darwin');
    attachHideOnClose(win, { quitting: false }, dock);
    expect(win.tryClose()).toBe(false);
    expect(app.dock.hide).toHaveBeenCalledOnce();

    const revealed = revealWindow(win, dock);
    await Promise.resolve();
    expect(app.dock.show).toHaveBeenCalledOnce();
    expect(win.show).not.toHaveBeenCalled(); // not before the Dock icon is back
    finishShow();
    await revealed;
    expect(calls).toEqual(['dock.hide', 'dock.show done', 'win.show']);
    expect(win.focus).toHaveBeenCalledOnce();
  });

  it('quitting closes the window without touching the Dock; a failing dock.show still shows the window', async () => {
    const app = { dock: { show: vi.fn(async () => Promise.reject(new Error('no dock'))), hide: vi.fn() } };
    const win = new MacWindow();
    const dock = createDockControl(app, 'darwin');
    attachHideOnClose(win, { quitting: true }, dock);
    expect(win.tryClose()).toBe(true);
    expect(app.dock.hide).not.toHaveBeenCalled();
    await revealWindow(win, dock);
    expect(win.show).toHaveBeenCalledOnce();
  });

  it('no Dock on Windows and Linux: the window shows at once', () => {
    for (const platform of ['win32', 'linux'] as const) {
      const { app } = dockApp();
      expect(createDockControl(app, platform)).toBeNull();
      const win = new FakeWindow();
      attachHideOnClose(win, { quitting: false }, createDockControl(app, platform));
      win.tryClose();
      void revealWindow(win, createDockControl(app, platform));
      expect(win.show).toHaveBeenCalledOnce(); // synchronously
      expect(app.dock.hide).not.toHaveBeenCalled();
      expect(app.dock.show).not.toHaveBeenCalled();
    }
    expect(createDockControl({}, 'darwin')).toBeNull();
  });
});

describe('permissions', () => {
  it('allows notifications and clipboard writes for app://avail only', () => {
    expect(isAllowedPermission('notifications', 'app://avail/app/dashboard')).toBe(true);
    expect(isAllowedPermission('clipboard-sanitized-write', 'app://avail')).toBe(true);
    expect(isAllowedPermission('notifications', 'https://accounts.google.com/')).toBe(false);
    expect(isAllowedPermission('notifications', undefined)).toBe(false);
    for (const p of ['media', 'geolocation', 'clipboard-read', 'openExternal', 'fullscreen', 'hid', 'unknown']) {
      expect(isAllowedPermission(p, 'app://avail/app/dashboard')).toBe(false);
    }
  });

  it('lets the app hand a mailto: link to the mail client, nothing else external', () => {
    expect(isAllowedPermission('openExternal', 'app://avail/support', 'mailto:support@example.com')).toBe(true);
    expect(isAllowedPermission('openExternal', 'https://accounts.google.com/', 'mailto:x@example.com')).toBe(false);
    for (const url of ['file:///etc/passwd', 'smb://host/share', 'ms-settings:', 'javascript:alert(1)', undefined]) {
      expect(isAllowedPermission('openExternal', 'app://avail/support', url)).toBe(false);
    }
  });
});

describe('Windows session end and renderer crashes', () => {
  it('a Windows shutdown (session-end / powerMonitor shutdown) marks the app quitting, so close no longer hides', () => {
    const handlers = new Map<string, () => void>();
    const power = new Map<string, () => void>();
    const flag = { quitting: false };
    trackSessionEnd({ on: (e: string, fn: () => void) => handlers.set(e, fn) }, { on: (e: string, fn: () => void) => power.set(e, fn) }, flag);
    handlers.get('session-end')!();
    expect(flag.quitting).toBe(true);
    const flag2 = { quitting: false };
    trackSessionEnd({ on: () => undefined }, { on: (e: string, fn: () => void) => power.set(e, fn) }, flag2);
    power.get('shutdown')!();
    expect(flag2.quitting).toBe(true);
  });

  it('reloads a crashed renderer after a second, but not after a clean exit or once destroyed', () => {
    let gone: ((e: unknown, d: { reason: string; exitCode: number }) => void) | undefined;
    const timers: Array<() => void> = [];
    const contents = { on: (_e: string, fn: typeof gone) => void (gone = fn), reload: vi.fn(), isDestroyed: vi.fn(() => false) };
    const log = vi.fn();
    attachCrashRecovery(contents, { setTimeout: (fn: () => void, ms: number) => (expect(ms).toBe(RENDERER_RELOAD_DELAY_MS), timers.push(fn)), log });
    gone!({}, { reason: 'clean-exit', exitCode: 0 });
    expect(timers).toHaveLength(0);
    gone!({}, { reason: 'crashed', exitCode: 139 });
    expect(contents.reload).not.toHaveBeenCalled();
    timers.shift()!();
    expect(contents.reload).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledWith(expect.stringContaining('crashed'));
    gone!({}, { reason: 'oom', exitCode: 1 });
    contents.isDestroyed.mockReturnValue(true);
    timers.shift()!();
    expect(contents.reload).toHaveBeenCalledTimes(1);
  });
});
