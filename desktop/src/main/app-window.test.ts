import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import {
  OAUTH_POPUP_OPTIONS,
  RENDERER_RELOAD_DELAY_MS,
  attachCrashRecovery,
  attachHideOnClose,
  attachMainWindowGuards,
  claimSingleInstance,
  decideWindowOpen,
  isAllowedPermission,
  isAllowedPopupNavigation,
  mainWindowOpenHandler,
  mainWindowOptions,
  revealWindow,
  trackQuitting,
  trackSessionEnd,
  type NavigationEvent,
  type QuitFlag,
} from './app-window.ts';

const SERVER = 'https://avail.example.com';

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
  /** Emits will-navigate; returns true when the navigation was allowed. */
  navigate(url: string): boolean {
    let prevented = false;
    const event: NavigationEvent = { url, preventDefault: () => void (prevented = true) };
    this.emit('will-navigate', event);
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

  it('the OAuth popup has no preload and the same protections', () => {
    expect(OAUTH_POPUP_OPTIONS.webPreferences).not.toHaveProperty('preload');
    expect(OAUTH_POPUP_OPTIONS.webPreferences).toMatchObject({ contextIsolation: true, nodeIntegration: false, sandbox: true, webSecurity: true });
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

describe('window-open rules', () => {
  it('decideWindowOpen: about:blank is the OAuth popup, web links go outside, the rest is denied', () => {
    expect(decideWindowOpen('about:blank')).toEqual({ action: 'oauth-popup' });
    expect(decideWindowOpen('https://avail.example.com/ana')).toEqual({ action: 'open-external', url: 'https://avail.example.com/ana' });
    expect(decideWindowOpen('http://example.org/')).toEqual({ action: 'open-external', url: 'http://example.org/' });
    for (const url of ['file:///etc/passwd', 'app://avail/app/dashboard', 'javascript:alert(1)', 'about:srcdoc', 'data:text/html,x', 'mailto:a@b.c', '']) {
      expect(decideWindowOpen(url)).toEqual({ action: 'deny' });
    }
  });

  it('the handler allows the popup with its options, opens web links externally and denies them as windows', () => {
    const shell = { openExternal: vi.fn(async () => undefined) };
    const handler = mainWindowOpenHandler({ shell });
    expect(handler({ url: 'about:blank' })).toEqual({ action: 'allow', overrideBrowserWindowOptions: OAUTH_POPUP_OPTIONS });
    expect(handler({ url: 'https://example.org/help' })).toEqual({ action: 'deny' });
    expect(shell.openExternal).toHaveBeenCalledWith('https://example.org/help');
    expect(handler({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(shell.openExternal).toHaveBeenCalledTimes(1);
  });

  it('the popup may go to the server and the providers’ consent hosts only', () => {
    expect(isAllowedPopupNavigation('https://accounts.google.com/o/oauth2/v2/auth?x=1', SERVER)).toBe(true);
    expect(isAllowedPopupNavigation('https://login.microsoftonline.com/common/oauth2/v2.0/authorize', SERVER)).toBe(true);
    expect(isAllowedPopupNavigation('https://login.live.com/oauth20_authorize.srf', SERVER)).toBe(true);
    expect(isAllowedPopupNavigation('https://avail.example.com/api/oauth/google/callback?code=1', SERVER)).toBe(true);
    expect(isAllowedPopupNavigation('http://localhost:3000/api/oauth/google/callback', 'http://localhost:3000')).toBe(true);

    expect(isAllowedPopupNavigation('http://accounts.google.com/', SERVER)).toBe(false); // not https
    expect(isAllowedPopupNavigation('https://accounts.google.com.evil.example/', SERVER)).toBe(false);
    expect(isAllowedPopupNavigation('https://evil.example/accounts.google.com', SERVER)).toBe(false);
    expect(isAllowedPopupNavigation('https://avail.example.com:8443/', SERVER)).toBe(false); // other origin
    expect(isAllowedPopupNavigation('https://user@accounts.google.com/', SERVER)).toBe(false);
    expect(isAllowedPopupNavigation('app://avail/app/dashboard', SERVER)).toBe(false);
    expect(isAllowedPopupNavigation('file:///etc/passwd', SERVER)).toBe(false);
  });

  it('guards: the main window stays on app://avail; its popups get the popup rules', () => {
    const shell = { openExternal: vi.fn() };
    const main = new FakeContents();
    attachMainWindowGuards(main, { shell, serverOrigin: () => SERVER });

    expect(main.navigate('app://avail/app/settings')).toBe(true);
    expect(main.navigate('https://example.org/')).toBe(false);
    expect(shell.openExternal).toHaveBeenLastCalledWith('https://example.org/');
    expect(main.navigate('file:///etc/passwd')).toBe(false);
    expect(main.navigate('app://evil/')).toBe(false);
    expect(shell.openExternal).toHaveBeenCalledTimes(1);

    expect(main.openHandler?.({ url: 'about:blank' }).action).toBe('allow');
    const popup = new FakeContents();
    main.emit('did-create-window', { webContents: popup });
    expect(popup.navigate('https://accounts.google.com/o/oauth2/v2/auth')).toBe(true);
    expect(popup.navigate('https://avail.example.com/api/oauth/google/callback')).toBe(true);
    expect(popup.navigate('https://phish.example/login')).toBe(false);
    expect(shell.openExternal).toHaveBeenLastCalledWith('https://phish.example/login');
    expect(popup.navigate('app://avail/app/dashboard')).toBe(false);
    // The popup's own window.open: never a window; web links go outside.
    expect(popup.openHandler?.({ url: 'https://support.google.com/' })).toEqual({ action: 'deny' });
    expect(shell.openExternal).toHaveBeenLastCalledWith('https://support.google.com/');
    expect(popup.openHandler?.({ url: 'about:blank' })).toEqual({ action: 'deny' });
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
