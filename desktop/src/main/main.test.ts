/**
 * Wiring of main.ts against a fake `electron` module (no Electron binary here): what is
 * registered before `ready`, what the single-instance rule does, and that the window, protocol,
 * tray and IPC end up connected. The pieces themselves are tested in their own files.
 */
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IPC_CHANNELS } from '../ipc-channels.ts';
import { APP_SCHEME_PRIVILEGES } from './app-protocol.ts';

type Handler = (...args: unknown[]) => unknown;

const electron = vi.hoisted(() => {
  const { EventEmitter: Emitter } = require('node:events') as typeof import('node:events');
  const log: string[] = [];
  function make(opts: { gotLock: boolean; appData: string; keyring?: boolean; isPackaged?: boolean; switches?: string[] }) {
    let ready = false;
    let resolveReady: () => void = () => undefined;
    const whenReadyPromise = new Promise<void>((r) => (resolveReady = r));
    const paths: Record<string, string> = { appData: opts.appData };
    const app = Object.assign(new Emitter(), {
      isPackaged: opts.isPackaged ?? false,
      commandLine: { hasSwitch: (name: string) => (opts.switches ?? []).includes(name) },
      exit: vi.fn(),
      getAppPath: () => join(opts.appData, 'app'),
      setName: vi.fn(),
      setPath: vi.fn((name: string, p: string) => void (paths[name] = p)),
      getPath: (name: string) => paths[name] ?? join(opts.appData, name),
      isReady: () => ready,
      requestSingleInstanceLock: vi.fn(() => opts.gotLock),
      releaseSingleInstanceLock: vi.fn(),
      quit: vi.fn(),
      whenReady: () => whenReadyPromise,
      setAppUserModelId: vi.fn(),
      getLoginItemSettings: () => ({ openAtLogin: false }),
      setLoginItemSettings: vi.fn(),
      becomeReady() {
        ready = true;
        log.push('ready');
        resolveReady();
      },
    });
    const windows: Array<InstanceType<typeof FakeWindow>> = [];
    class FakeWindow extends Emitter {
      webContents = Object.assign(new Emitter(), { send: vi.fn(), reload: vi.fn(), setWindowOpenHandler: vi.fn(), isDestroyed: () => false });
      loadURL = vi.fn(async () => undefined);
      show = vi.fn();
      hide = vi.fn();
      focus = vi.fn();
      restore = vi.fn();
      isMinimized = () => false;
      isDestroyed = () => false;
      isVisible = () => true;
      maximized = false;
      isMaximized = () => this.maximized;
      maximize = vi.fn(() => void (this.maximized = true));
      getNormalBounds = () => ({ x: 10, y: 20, width: 1000, height: 700 });
      constructor(public options: Record<string, unknown>) {
        super();
        log.push('window');
        windows.push(this);
      }
    }
    const trays: Array<InstanceType<typeof FakeTray>> = [];
    class FakeTray extends Emitter {
      tooltip = '';
      menu: unknown = null;
      setToolTip = vi.fn((t: string) => void (this.tooltip = t));
      setContextMenu = vi.fn((m: unknown) => void (this.menu = m));
      setImage = vi.fn();
      constructor(public image: unknown) {
        super();
        trays.push(this);
      }
    }
    const invokeHandlers = new Map<string, Handler>();
    const sendHandlers = new Map<string, Handler>();
    const protocolHandlers = new Map<string, Handler>();
    const notifications: Array<{ title: string; body: string }> = [];
    const module = {
      app,
      BrowserWindow: FakeWindow,
      Tray: FakeTray,
      clipboard: { writeText: vi.fn() },
      ipcMain: { handle: (c: string, h: Handler) => void invokeHandlers.set(c, h), on: (c: string, h: Handler) => void sendHandlers.set(c, h) },
      Menu: { buildFromTemplate: (t: unknown) => t },
      nativeImage: { createFromPath: (p: string) => ({ path: p, setTemplateImage: vi.fn() }) },
      nativeTheme: Object.assign(new Emitter(), { shouldUseDarkColors: false, shouldUseDarkColorsForSystemIntegratedUI: false }),
      Notification: Object.assign(
        class extends Emitter {
          constructor(public options: { title: string; body: string }) {
            super();
          }
          show() {
            notifications.push({ title: this.options.title, body: this.options.body });
          }
        },
        { isSupported: () => true },
      ),
      protocol: {
        registerSchemesAsPrivileged: vi.fn(() => void log.push('registerSchemesAsPrivileged')),
        handle: vi.fn((scheme: string, h: Handler) => {
          log.push('protocol.handle');
          protocolHandlers.set(scheme, h);
        }),
      },
      safeStorage: opts.keyring
        ? {
            isEncryptionAvailable: () => true,
            encryptString: (s: string) => Buffer.from(`enc:${s}`),
            decryptString: (b: Buffer) => String(b).replace(/^enc:/, ''),
            getSelectedStorageBackend: () => 'gnome_libsecret',
          }
        : { isEncryptionAvailable: () => false, encryptString: vi.fn(), decryptString: vi.fn(), getSelectedStorageBackend: () => 'basic_text' },
      session: { defaultSession: { setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn() } },
      shell: { openExternal: vi.fn(async () => undefined) },
      dialog: { showMessageBox: vi.fn(async () => ({ response: 1 })) },
      screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1050 } }] },
      powerMonitor: new Emitter(),
      autoUpdater: new Emitter(),
    };
    return { module, windows, trays, invokeHandlers, sendHandlers, protocolHandlers, notifications };
  }
  const state: { current: ReturnType<typeof make> | null } = { current: null };
  const target = () => (state.current?.module ?? {}) as Record<string | symbol, unknown>;
  const proxy = new Proxy(
    {},
    {
      get: (_t, key) => target()[key],
      has: (_t, key) => key in target(),
      ownKeys: () => Reflect.ownKeys(target()),
      getOwnPropertyDescriptor: (_t, key) => (key in target() ? { configurable: true, enumerable: true, value: target()[key] } : undefined),
    },
  );
  return { make, state, proxy, log };
});
vi.mock('electron', () => electron.proxy);

/** electron-updater as main.ts gets it: through updater.ts's loadUpdater, mocked here (vi.mock does not reach a bundled require). */
const updaterModule = vi.hoisted(() => ({ load: null as null | (() => unknown), calls: 0 }));
vi.mock('./updater.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./updater.ts')>();
  return {
    ...actual,
    loadUpdater: () => {
      updaterModule.calls++;
      if (!updaterModule.load) throw new Error('electron-updater is not mocked in this test');
      return updaterModule.load();
    },
  };
});

let appData: string;
beforeEach(async () => {
  appData = await mkdtemp(join(tmpdir(), 'avail-main-'));
  electron.log.length = 0;
  updaterModule.load = null;
  updaterModule.calls = 0;
  vi.resetModules();
});
afterEach(async () => {
  // A state write of the last test may still land: retried rather than failing on ENOTEMPTY.
  await rm(appData, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
});

async function boot(gotLock: boolean, keyring = false, extra: { isPackaged?: boolean; switches?: string[] } = {}) {
  const fake = electron.make({ gotLock, appData, keyring, ...extra });
  electron.state.current = fake;
  await import('./main.ts');
  return fake;
}
const flush = () => new Promise((r) => setTimeout(r, 20));
/** Waits (up to 5 s, polling every 10 ms) until the main process's ready work has happened: a fixed pause is too short on a loaded machine. */
async function until(cond: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!cond() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
}

describe('main.ts wiring', () => {
  it('registers the privileged app:// scheme and the data folder before ready', async () => {
    const fake = await boot(true);
    expect(fake.module.protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([APP_SCHEME_PRIVILEGES]);
    expect(fake.module.app.setPath).toHaveBeenCalledWith('userData', join(appData, 'Avail'));
    fake.module.app.becomeReady();
    await flush();
    expect(electron.log.indexOf('registerSchemesAsPrivileged')).toBeLessThan(electron.log.indexOf('ready'));
  });

  it('a second instance quits without creating a window or a tray', async () => {
    const fake = await boot(false);
    expect(fake.module.app.quit).toHaveBeenCalledOnce();
    fake.module.app.becomeReady();
    await flush();
    expect(fake.windows).toHaveLength(0);
    expect(fake.trays).toHaveLength(0);
    expect(fake.module.protocol.handle).not.toHaveBeenCalled();
  });

  it('on ready: protocol, window at app://avail/app/dashboard, tray, IPC', async () => {
    const fake = await boot(true);
    fake.module.app.becomeReady();
    await until(() => fake.protocolHandlers.has('app') && fake.windows.length > 0 && fake.trays.length > 0);

    expect(fake.protocolHandlers.has('app')).toBe(true);
    const res = (await fake.protocolHandlers.get('app')!({ url: 'app://avail/../secret' })) as Response;
    expect(res.status).toBe(403);
    expect(res.headers.get('content-security-policy')).toContain("connect-src 'self' http://localhost:3000");

    expect(fake.windows).toHaveLength(1);
    const win = fake.windows[0];
    expect(win.options.webPreferences).toMatchObject({ contextIsolation: true, nodeIntegration: false, sandbox: true, backgroundThrottling: false });
    expect(String((win.options.webPreferences as { preload: string }).preload)).toMatch(/preload\.cjs$/);
    expect(win.loadURL).toHaveBeenCalledWith('app://avail/app/dashboard');
    expect(win.webContents.setWindowOpenHandler).toHaveBeenCalledOnce();
    expect(fake.module.session.defaultSession.setPermissionRequestHandler).toHaveBeenCalledOnce();

    expect(fake.trays).toHaveLength(1);
    expect(fake.trays[0].tooltip).toBe('Not signed in');

    expect([...fake.invokeHandlers.keys()]).toContain(IPC_CHANNELS.serverSetting);
    const sender = { senderFrame: { url: 'app://avail/app/dashboard' } };
    expect(await fake.invokeHandlers.get(IPC_CHANNELS.serverSetting)!(sender)).toEqual({ origin: 'http://localhost:3000', editable: true, confirmed: false });
    // No keyring in this fake (basic_text): session-only token.
    expect(await fake.invokeHandlers.get(IPC_CHANNELS.tokenPersistence)!(sender)).toBe('session');

    // A valid tray state from the app reaches the tray.
    fake.sendHandlers.get(IPC_CHANNELS.setTrayState)!(sender, {
      signedIn: true,
      connection: 'online',
      pendingCount: 1,
      timezone: 'UTC',
      windows: [],
      link: null,
      freeTimesText: null,
      computedAt: Date.now(),
    });
    expect(fake.trays[0].tooltip).toBe('Busy — no free time in the next 14 days');
  });

  it('closing hides the window; a second launch shows it again; Quit really closes', async () => {
    const fake = await boot(true);
    fake.module.app.becomeReady();
    await until(() => fake.windows.length > 0);
    const win = fake.windows[0];
    let prevented = false;
    win.emit('close', { preventDefault: () => void (prevented = true) });
    expect(prevented).toBe(true);
    expect(win.hide).toHaveBeenCalledOnce();

    fake.module.app.emit('second-instance', {}, ['avail'], appData);
    expect(win.show).toHaveBeenCalled();
    expect(win.focus).toHaveBeenCalled();

    fake.module.app.emit('before-quit');
    prevented = false;
    win.emit('close', { preventDefault: () => void (prevented = true) });
    expect(prevented).toBe(false);
  });

  it('changing the server clears the stored token before answering and never reloads from main (the renderer does, after its sign-out)', async () => {
    const { mkdir, writeFile } = await import('node:fs/promises');
    const { existsSync } = await import('node:fs');
    const dataDir = join(appData, 'Avail');
    await mkdir(dataDir, { recursive: true });
    await writeFile(join(dataDir, 'session-token.bin'), 'enc:old-server-token');
    const fake = await boot(true, true);
    fake.module.app.becomeReady();
    await until(() => fake.invokeHandlers.has(IPC_CHANNELS.setServerOrigin) && fake.windows.length > 0 && fake.protocolHandlers.has('app'));
    const sender = { senderFrame: { url: 'app://avail/app/settings' } };
    expect(await fake.invokeHandlers.get(IPC_CHANNELS.setServerOrigin)!(sender, 'https://avail.example.com')).toEqual({ ok: true, origin: 'https://avail.example.com' });
    // Answered only once the old server's token is gone, from memory and from disk.
    expect(existsSync(join(dataDir, 'session-token.bin'))).toBe(false);
    expect(await fake.invokeHandlers.get(IPC_CHANNELS.loadToken)!(sender)).toBeNull();
    await new Promise((r) => setTimeout(r, 100));
    expect(fake.windows[0].webContents.reload).not.toHaveBeenCalled();
    const res = (await fake.protocolHandlers.get('app')!({ url: 'app://avail/' })) as Response;
    expect(res.headers.get('content-security-policy')).toContain("connect-src 'self' https://avail.example.com");
  });

  it('links leaving the app go through the policy: consent pages open, other addresses only after Open', async () => {
    const fake = await boot(true);
    fake.module.app.becomeReady();
    await until(() => fake.invokeHandlers.has(IPC_CHANNELS.openExternal) && fake.windows.length > 0);
    const sender = { senderFrame: { url: 'app://avail/app/settings' } };
    await fake.invokeHandlers.get(IPC_CHANNELS.openExternal)!(sender, 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize?state=s');
    expect(fake.module.shell.openExternal).toHaveBeenCalledExactlyOnceWith('https://login.microsoftonline.com/common/oauth2/v2.0/authorize?state=s');
    expect(fake.module.dialog.showMessageBox).not.toHaveBeenCalled();
    // Another https page: asked (Cancel chosen in this fake), not opened.
    await expect(fake.invokeHandlers.get(IPC_CHANNELS.openExternal)!(sender, 'https://example.org/?q=1')).rejects.toThrow();
    expect(fake.module.dialog.showMessageBox).toHaveBeenCalledWith(fake.windows[0], expect.objectContaining({ message: 'Open this address in your browser?', detail: 'https://example.org/?q=1\n\nSite: example.org' }));
    expect(fake.module.shell.openExternal).toHaveBeenCalledTimes(1);
    // window.open from the page: never a window, about:blank included.
    const openHandler = fake.windows[0].webContents.setWindowOpenHandler.mock.calls[0][0] as (d: { url: string }) => { action: string };
    expect(openHandler({ url: 'about:blank' })).toEqual({ action: 'deny' });
  });

  it('remembers the window: opens where it was left (on a display), maximized again, saved 0600 on close', async () => {
    const { mkdir, writeFile, readFile } = await import('node:fs/promises');
    const { existsSync, statSync } = await import('node:fs');
    const dataDir = join(appData, 'Avail');
    await mkdir(dataDir, { recursive: true });
    const file = join(dataDir, 'window-state.json');
    await writeFile(file, JSON.stringify({ version: 1, bounds: { x: 300, y: 120, width: 900, height: 640 }, maximized: true }));
    const fake = await boot(true);
    fake.module.app.becomeReady();
    await until(() => fake.windows.length > 0);
    const win = fake.windows[0];
    expect(win.options).toMatchObject({ x: 300, y: 120, width: 900, height: 640 });
    win.emit('ready-to-show');
    expect(win.show).toHaveBeenCalledOnce();
    expect(win.maximize).toHaveBeenCalledOnce();
    // Maximized before it first appears: it never shows at its normal size and then jumps.
    expect(win.maximize.mock.invocationCallOrder[0]).toBeLessThan(win.show.mock.invocationCallOrder[0]);
    win.emit('show');
    expect(win.maximize).toHaveBeenCalledOnce();
    win.emit('close', { preventDefault: () => undefined });
    await until(() => existsSync(file) && readFileSync(file, 'utf8').includes('"x":10'));
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ version: 1, bounds: { x: 10, y: 20, width: 1000, height: 700 }, maximized: true });
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe('main.ts: start, quit and launch guards', () => {
  it('a second launch while the app is still starting opens the window only once start finished (protocol and IPC first)', async () => {
    const fake = await boot(true);
    fake.module.app.becomeReady();
    fake.module.app.emit('second-instance', {}, ['avail'], appData); // start() is still reading its files
    await until(() => fake.windows.length > 0 && fake.windows[0].show.mock.calls.length > 0);
    expect(fake.windows).toHaveLength(1);
    expect(electron.log.indexOf('protocol.handle')).toBeGreaterThan(-1);
    expect(electron.log.indexOf('protocol.handle')).toBeLessThan(electron.log.indexOf('window'));
    expect(fake.windows[0].show).toHaveBeenCalled();
    expect(fake.windows[0].focus).toHaveBeenCalled();
  });

  it('while quitting (an updater restart) nothing shows the window again', async () => {
    const fake = await boot(true);
    fake.module.app.becomeReady();
    await until(() => fake.windows.length > 0 && fake.trays.length > 0);
    const win = fake.windows[0];
    fake.module.app.emit('before-quit');
    fake.module.app.emit('second-instance', {}, ['avail'], appData);
    fake.module.app.emit('activate');
    expect(win.show).not.toHaveBeenCalled();
    expect(fake.windows).toHaveLength(1);
  });

  it('a quit right after the window closed waits for its place to be written, then quits again', async () => {
    const { existsSync } = await import('node:fs');
    const fake = await boot(true);
    fake.module.app.becomeReady();
    await until(() => fake.windows.length > 0 && fake.trays.length > 0);
    const file = join(appData, 'Avail', 'window-state.json');
    fake.module.app.emit('before-quit');
    fake.windows[0].emit('close', { preventDefault: () => undefined });
    let prevented = false;
    fake.module.app.emit('will-quit', { preventDefault: () => void (prevented = true) });
    expect(prevented).toBe(true);
    expect(fake.module.app.quit).not.toHaveBeenCalled();
    await until(() => fake.module.app.quit.mock.calls.length > 0);
    expect(existsSync(file)).toBe(true);
    prevented = false;
    fake.module.app.emit('will-quit', { preventDefault: () => void (prevented = true) });
    expect(prevented).toBe(false);
  });

  describe('packaged', () => {
    const saved = { resourcesPath: (process as { resourcesPath?: string }).resourcesPath, e2e: process.env.AVAIL_E2E, dir: process.env.AVAIL_USER_DATA_DIR };
    beforeEach(() => {
      (process as { resourcesPath?: string }).resourcesPath = appData;
    });
    afterEach(() => {
      (process as { resourcesPath?: string }).resourcesPath = saved.resourcesPath;
      for (const [key, value] of [['AVAIL_E2E', saved.e2e], ['AVAIL_USER_DATA_DIR', saved.dir]] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    });

    it('an installed app started with --remote-debugging-port, --ssl-key-log-file, --proxy-server … exits 1 before anything starts', async () => {
      for (const flag of ['remote-debugging-port', 'remote-debugging-pipe', 'ssl-key-log-file', 'log-net-log', 'host-resolver-rules', 'ignore-certificate-errors', 'proxy-server', 'inspect', 'js-flags']) {
        vi.resetModules();
        const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
        const fake = await boot(true, false, { isPackaged: true, switches: [flag] });
        expect(fake.module.app.exit).toHaveBeenCalledExactlyOnceWith(1);
        expect(warn).toHaveBeenCalledExactlyOnceWith(`[avail] refusing to start with --${flag}: it could expose the sign-in token or the connection to the server`);
        warn.mockRestore();
        expect(fake.module.app.requestSingleInstanceLock).not.toHaveBeenCalled();
        fake.module.app.becomeReady();
        await flush();
        expect(fake.windows).toHaveLength(0);
        expect(fake.module.protocol.handle).not.toHaveBeenCalled();
      }
    });

    it('an installed app removes SSLKEYLOGFILE from its environment at once; a development run keeps it', async () => {
      const savedKeys = process.env.SSLKEYLOGFILE;
      try {
        process.env.SSLKEYLOGFILE = join(appData, 'keys.log');
        await boot(true);
        expect(process.env.SSLKEYLOGFILE).toBe(join(appData, 'keys.log'));
        vi.resetModules();
        await boot(true, false, { isPackaged: true });
        expect(process.env.SSLKEYLOGFILE).toBeUndefined();
      } finally {
        if (savedKeys === undefined) delete process.env.SSLKEYLOGFILE;
        else process.env.SSLKEYLOGFILE = savedKeys;
      }
    });

    it('an installed app ignores AVAIL_E2E / AVAIL_USER_DATA_DIR; a development run honours them', async () => {
      process.env.AVAIL_E2E = '1';
      process.env.AVAIL_USER_DATA_DIR = join(appData, 'e2e-folder');
      const packaged = await boot(true, false, { isPackaged: true });
      expect(packaged.module.app.exit).not.toHaveBeenCalled();
      expect(packaged.module.app.setPath).toHaveBeenCalledExactlyOnceWith('userData', join(appData, 'Avail'));
      vi.resetModules();
      const dev = await boot(true);
      expect(dev.module.app.setPath).toHaveBeenCalledExactlyOnceWith('userData', join(appData, 'e2e-folder'));
    });
  });
});

describe('main.ts: the tray on its own (issue 25)', () => {
  it('shows the last known state at once on start, keeps a tray busy block until the renderer\'s database is open, and forgets it all on sign-out', async () => {
    const { mkdir, writeFile, readFile } = await import('node:fs/promises');
    const { existsSync, readFileSync, statSync } = await import('node:fs');
    const dataDir = join(appData, 'Avail');
    await mkdir(dataDir, { recursive: true });
    const now = Date.now();
    // Free from a minute ago for two hours (UTC), computed an hour ago by the last run.
    await writeFile(
      join(dataDir, 'tray-state.json'),
      JSON.stringify({ version: 1, signedIn: true, timezone: 'UTC', windows: [{ start: now - 60_000, end: now + 7_200_000 }], link: 'https://avail.example.com/ana', freeTimesText: null, computedAt: now - 3_600_000 }),
    );
    // Signed in on this computer: the keychain holds the token.
    await writeFile(join(dataDir, 'session-token.bin'), 'enc:stored-token');
    const fake = await boot(true, true);
    fake.module.app.becomeReady();
    await until(() => fake.trays.length > 0 && fake.windows.length > 0);
    const tray = fake.trays[0];
    expect(tray.tooltip).toMatch(/^Free now until \d\d:\d\d$/);
    type Item = { id?: string; label?: string; click?: () => void };
    const menu = () => tray.menu as Item[];
    expect(menu().find((i) => i.id === 'connection')?.label).toMatch(/^Syncing… · as of \d\d:\d\d$/);

    // "Busy for the next 30 min" before the renderer is ready: nothing is sent yet, the menu says it waits.
    const win = fake.windows[0];
    menu().find((i) => i.id === 'busy-0')!.click!();
    expect(win.webContents.send).not.toHaveBeenCalled();
    expect(menu().find((i) => i.id === 'connection')?.label).toContain('1 tray action waiting');
    await until(() => existsSync(join(dataDir, 'tray-commands.json')));

    // The renderer's database opens: the command arrives, stamped with the click, marked queued.
    const sender = { senderFrame: { url: 'app://avail/app/dashboard' } };
    fake.sendHandlers.get(IPC_CHANNELS.commandsReady)!(sender, '42');
    expect(win.webContents.send).toHaveBeenCalledWith(IPC_CHANNELS.command, { type: 'busy', duration: { minutes: 30 }, at: expect.any(Number), commandId: expect.any(String), queued: true });
    const [, sent] = win.webContents.send.mock.calls[0] as [string, { at: number; commandId: string }];
    expect(Math.abs(sent.at - now)).toBeLessThan(5_000);

    // The page reloads before the renderer carried it out: it comes again with the next "ready",
    // and so does the click made meanwhile.
    win.webContents.emit('did-start-loading');
    menu().find((i) => i.id === 'busy-1')!.click!();
    expect(win.webContents.send).toHaveBeenCalledTimes(1);
    fake.sendHandlers.get(IPC_CHANNELS.commandsReady)!(sender, '42');
    expect(win.webContents.send).toHaveBeenCalledTimes(3);
    expect(win.webContents.send).toHaveBeenNthCalledWith(2, IPC_CHANNELS.command, expect.objectContaining({ commandId: sent.commandId, queued: true }));
    expect(win.webContents.send).toHaveBeenLastCalledWith(IPC_CHANNELS.command, expect.objectContaining({ type: 'busy', duration: { minutes: 60 }, queued: true }));
    // Acknowledged (carried out): forgotten, never delivered again.
    const [, second] = win.webContents.send.mock.calls[2] as [string, { commandId: string }];
    fake.sendHandlers.get(IPC_CHANNELS.commandDone)!(sender, sent.commandId);
    fake.sendHandlers.get(IPC_CHANNELS.commandDone)!(sender, second.commandId);
    expect(menu().find((i) => i.id === 'connection')?.label).not.toContain('waiting');
    win.webContents.emit('did-start-loading');
    fake.sendHandlers.get(IPC_CHANNELS.commandsReady)!(sender, '42');
    expect(win.webContents.send).toHaveBeenCalledTimes(3);

    // The renderer reports a full state: it is kept on disk (0600) for the next start.
    fake.sendHandlers.get(IPC_CHANNELS.setTrayState)!(sender, { signedIn: true, connection: 'online', pendingCount: 0, timezone: 'UTC', windows: [], link: null, freeTimesText: null, computedAt: Date.now() });
    const keptFile = join(dataDir, 'tray-state.json');
    await until(() => readFileSync(keptFile, 'utf8').includes('"link":null'));
    expect(JSON.parse(await readFile(keptFile, 'utf8'))).toMatchObject({ version: 1, signedIn: true, windows: [], link: null });
    if (process.platform !== 'win32') expect(statSync(keptFile).mode & 0o777).toBe(0o600);

    // Signed out: the file goes, so the next start says "Not signed in".
    fake.sendHandlers.get(IPC_CHANNELS.setTrayState)!(sender, { signedIn: false, connection: 'online', pendingCount: 0, timezone: 'UTC', windows: [], link: null, freeTimesText: null, computedAt: Date.now() });
    expect(tray.tooltip).toBe('Not signed in');
    await until(() => !existsSync(join(dataDir, 'tray-state.json')));
    expect(existsSync(join(dataDir, 'tray-state.json'))).toBe(false);
  });

  it('a click while the page loads, then a sign-out (401) before the database opened: reported as failed, gone from disk, never run for the next account', async () => {
    const { mkdir, writeFile, readFile } = await import('node:fs/promises');
    const { existsSync } = await import('node:fs');
    const dataDir = join(appData, 'Avail');
    await mkdir(dataDir, { recursive: true });
    await writeFile(join(dataDir, 'session-token.bin'), 'enc:stored-token');
    const fake = await boot(true, true);
    fake.module.app.becomeReady();
    await until(() => fake.trays.length > 0 && fake.windows.length > 0);
    type Item = { id?: string; click?: () => void };
    (fake.trays[0].menu as Item[]).find((i) => i.id === 'busy-0')!.click!();
    const file = join(dataDir, 'tray-commands.json');
    await until(() => existsSync(file) && JSON.parse(readFileSync(file, 'utf8')).commands.length === 1);

    const sender = { senderFrame: { url: 'app://avail/app/dashboard' } };
    fake.sendHandlers.get(IPC_CHANNELS.setTrayState)!(sender, { signedIn: false, connection: 'online', pendingCount: 0, timezone: 'UTC', windows: [], link: null, freeTimesText: null, computedAt: Date.now() });
    expect(fake.notifications).toEqual([{ title: 'The busy block could not be added', body: expect.stringMatching(/^"Busy for the next 30 min" \(clicked .+\): You were signed out\.$/) }]);
    await until(() => JSON.parse(readFileSync(file, 'utf8')).commands.length === 0);
    // Another account signs in: nothing arrives.
    fake.sendHandlers.get(IPC_CHANNELS.commandsReady)!(sender, '77');
    expect(fake.windows[0].webContents.send).not.toHaveBeenCalled();
    expect(JSON.parse(await readFile(file, 'utf8')).commands).toEqual([]);
  });

  it('a start without a stored token reports the commands a previous run kept as failed and empties the file', async () => {
    const { mkdir, writeFile } = await import('node:fs/promises');
    const dataDir = join(appData, 'Avail');
    await mkdir(dataDir, { recursive: true });
    const file = join(dataDir, 'tray-commands.json');
    await writeFile(file, JSON.stringify({ version: 2, commands: [{ type: 'proposal', id: 'p-1', action: 'confirm', commandId: 'c-1', userId: '42' }] }));
    const fake = await boot(true, true); // keyring, but no token stored: signed out
    fake.module.app.becomeReady();
    await until(() => fake.notifications.length > 0);
    expect(fake.notifications).toEqual([{ title: 'The proposal could not be confirmed', body: 'Confirm from the tray: You were signed out.' }]);
    await until(() => JSON.parse(readFileSync(file, 'utf8')).commands.length === 0);
  });

  it('a stored token without a stored state (first start after an update) shows Syncing…, not "Not signed in"', async () => {
    const { mkdir, writeFile } = await import('node:fs/promises');
    const dataDir = join(appData, 'Avail');
    await mkdir(dataDir, { recursive: true });
    await writeFile(join(dataDir, 'session-token.bin'), 'enc:stored-token');
    const fake = await boot(true, true);
    fake.module.app.becomeReady();
    await until(() => fake.trays.length > 0);
    expect(fake.trays[0].tooltip).toBe('Syncing…');
  });

  it('a stored state without a stored token (signed out meanwhile, or no keyring) is not shown, and is removed', async () => {
    const { mkdir, writeFile } = await import('node:fs/promises');
    const { existsSync } = await import('node:fs');
    const dataDir = join(appData, 'Avail');
    await mkdir(dataDir, { recursive: true });
    const now = Date.now();
    await writeFile(
      join(dataDir, 'tray-state.json'),
      JSON.stringify({ version: 1, signedIn: true, timezone: 'UTC', windows: [{ start: now - 60_000, end: now + 7_200_000 }], link: null, freeTimesText: null, computedAt: now }),
    );
    const fake = await boot(true); // no keyring: the token lived in memory only
    fake.module.app.becomeReady();
    await until(() => fake.trays.length > 0);
    expect(fake.trays[0].tooltip).toBe('Not signed in');
    await until(() => !existsSync(join(dataDir, 'tray-state.json')));
    expect(existsSync(join(dataDir, 'tray-state.json'))).toBe(false);
  });
});

describe('main.ts: updates (issue 27 review)', () => {
  it('electron-updater is not loaded at start when updates are off (a development run): no menu item', async () => {
    updaterModule.load = () => fakeUpdater();
    const fake = await boot(true);
    fake.module.app.becomeReady();
    await until(() => fake.trays.length > 0);
    await flush();
    expect(updaterModule.calls).toBe(0);
    expect((fake.trays[0].menu as Array<{ id?: string }>).some((i) => i.id === 'update')).toBe(false);
  });

  it('a restart keeps the token of a confirmed non-default server; once desktop-config.json names another server it is not given', async () => {
    const { mkdir, writeFile } = await import('node:fs/promises');
    const dataDir = join(appData, 'Avail');
    await mkdir(dataDir, { recursive: true });
    const config = join(dataDir, 'desktop-config.json');
    await writeFile(config, JSON.stringify({ serverOrigin: 'https://avail.example.com', confirmed: true }));
    const sender = { senderFrame: { url: 'app://avail/app/dashboard' } };
    const run = async () => {
      vi.resetModules();
      const fake = await boot(true, true);
      fake.module.app.becomeReady();
      await until(() => fake.invokeHandlers.has(IPC_CHANNELS.loadToken) && fake.trays.length > 0);
      return fake;
    };
    const first = await run();
    expect(await first.invokeHandlers.get(IPC_CHANNELS.saveToken)!(sender, 'token-for-example')).toBe('os');
    const second = await run();
    expect(await second.invokeHandlers.get(IPC_CHANNELS.loadToken)!(sender)).toBe('token-for-example');
    await writeFile(config, JSON.stringify({ serverOrigin: 'https://evil.example.net', confirmed: true }));
    const third = await run();
    expect(await third.invokeHandlers.get(IPC_CHANNELS.loadToken)!(sender)).toBeNull();
  });

  it("run from an AppImage: an autostart entry naming another file (an update's new name, a move) is rewritten to start this one", async () => {
    const { mkdir, writeFile } = await import('node:fs/promises');
    const { linuxAutostartEntry } = await import('./login-item.ts');
    const saved = { env: { ...process.env }, execPath: process.execPath };
    const entry = join(appData, 'config', 'autostart', 'avail.desktop');
    await mkdir(join(appData, 'config', 'autostart'), { recursive: true });
    await writeFile(entry, linuxAutostartEntry('/home/ana/Apps/Avail-0.1.0-x86_64.AppImage', [join(appData, 'app')]));
    Object.assign(process.env, { XDG_CONFIG_HOME: join(appData, 'config'), APPIMAGE: '/home/ana/Apps/Avail-0.2.0-x86_64.AppImage', APPDIR: '/tmp/.mount_AvailQx' });
    process.execPath = '/tmp/.mount_AvailQx/avail';
    try {
      const fake = await boot(true);
      fake.module.app.becomeReady();
      await until(() => fake.trays.length > 0);
      expect(readFileSync(entry, 'utf8')).toBe(linuxAutostartEntry('/home/ana/Apps/Avail-0.2.0-x86_64.AppImage', [join(appData, 'app')]));
    } finally {
      process.execPath = saved.execPath;
      for (const key of ['XDG_CONFIG_HOME', 'APPIMAGE', 'APPDIR']) {
        if (saved.env[key] === undefined) delete process.env[key];
        else process.env[key] = saved.env[key];
      }
    }
  });

  it('an APPIMAGE inherited from a parent (no APPDIR) leaves the autostart entry alone', async () => {
    const { mkdir, writeFile } = await import('node:fs/promises');
    const saved = { ...process.env };
    const entry = join(appData, 'config', 'autostart', 'avail.desktop');
    await mkdir(join(appData, 'config', 'autostart'), { recursive: true });
    await writeFile(entry, 'kept as it is');
    Object.assign(process.env, { XDG_CONFIG_HOME: join(appData, 'config'), APPIMAGE: '/home/ana/Apps/Other.AppImage' });
    delete process.env.APPDIR;
    try {
      const fake = await boot(true);
      fake.module.app.becomeReady();
      await until(() => fake.trays.length > 0);
      await flush();
      expect(readFileSync(entry, 'utf8')).toBe('kept as it is');
    } finally {
      for (const key of ['XDG_CONFIG_HOME', 'APPIMAGE', 'APPDIR']) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
    }
  });
});

/** electron-updater's autoUpdater, faked: never checks on its own; quitAndInstall is replaced per test. */
function fakeUpdater() {
  return Object.assign(new EventEmitter(), {
    autoDownload: false,
    autoInstallOnAppQuit: false,
    logger: null as unknown,
    checkForUpdates: vi.fn(() => new Promise<unknown>(() => undefined)),
    quitAndInstall: vi.fn(),
  });
}

describe('main.ts: a packaged AppImage that updates itself (issue 27 review)', () => {
  const saved = { env: { ...process.env }, execPath: process.execPath, resourcesPath: (process as { resourcesPath?: string }).resourcesPath, platform: process.platform };
  type Item = { id?: string; label?: string; enabled?: boolean; click?: () => void };
  beforeEach(async () => {
    const { writeFile } = await import('node:fs/promises');
    (process as { resourcesPath?: string }).resourcesPath = appData;
    await writeFile(join(appData, 'app-update.yml'), 'provider: generic\nurl: https://updates.example.com/avail/\n');
    Object.defineProperty(process, 'platform', { value: 'linux', configurable: true });
    Object.assign(process.env, { XDG_CONFIG_HOME: join(appData, 'config'), APPIMAGE: join(appData, 'Avail-0.1.0-x86_64.AppImage'), APPDIR: '/tmp/.mount_AvailQx', AVAIL_E2E: '1' });
    process.execPath = '/tmp/.mount_AvailQx/avail';
    delete (globalThis as { __availE2E?: unknown }).__availE2E;
  });
  afterEach(() => {
    vi.useRealTimers();
    (process as { resourcesPath?: string }).resourcesPath = saved.resourcesPath;
    Object.defineProperty(process, 'platform', { value: saved.platform, configurable: true });
    process.execPath = saved.execPath;
    for (const key of ['XDG_CONFIG_HOME', 'APPIMAGE', 'APPDIR', 'AVAIL_E2E']) {
      if (saved.env[key] === undefined) delete process.env[key];
      else process.env[key] = saved.env[key];
    }
  });

  /** Boots packaged with the fake updater, an update downloaded: the menu offers "Restart to update (v0.2.0)". */
  async function bootWithUpdate() {
    const updater = fakeUpdater();
    updaterModule.load = () => updater;
    const fake = await boot(true, false, { isPackaged: true });
    fake.module.app.becomeReady();
    await until(() => fake.trays.length > 0 && fake.windows.length > 0 && updater.listenerCount('update-downloaded') > 0);
    updater.emit('update-downloaded', { version: '0.2.0' });
    const item = () => (fake.trays[0].menu as Item[]).find((i) => i.id === 'update');
    expect(item()?.label).toBe('Restart to update (v0.2.0)');
    return { fake, updater, item };
  }

  it('Restart to update: the lock released before quitAndInstall, "Restarting to update…" and the window still opens until the updater quits; its before-quit counts as the quit (no failure reported); no e2e probe', async () => {
    const { fake, updater, item } = await bootWithUpdate();
    expect((globalThis as { __availE2E?: unknown }).__availE2E).toBeUndefined(); // AVAIL_E2E=1 is ignored when packaged
    expect(updaterModule.calls).toBe(1);
    // BaseUpdater.quitAndInstall: install() returned true, then setImmediate(before-quit-for-update, app.quit()).
    updater.quitAndInstall.mockImplementation(() =>
      void setImmediate(() => {
        fake.module.autoUpdater.emit('before-quit-for-update');
        fake.module.app.emit('before-quit');
      }),
    );
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate'] });
    item()!.click!();
    const { releaseSingleInstanceLock } = fake.module.app;
    expect(releaseSingleInstanceLock).toHaveBeenCalled();
    expect(releaseSingleInstanceLock.mock.invocationCallOrder[0]).toBeLessThan(updater.quitAndInstall.mock.invocationCallOrder[0]);
    expect(item()).toMatchObject({ label: 'Restarting to update…', enabled: false });
    // Before the updater's quit: closing still hides, a second launch still shows the window.
    const win = fake.windows[0];
    let prevented = false;
    win.emit('close', { preventDefault: () => void (prevented = true) });
    expect(prevented).toBe(true);
    fake.module.app.emit('second-instance', {}, ['avail'], appData);
    expect(win.show).toHaveBeenCalled();
    vi.advanceTimersByTime(1); // the scheduled before-quit-for-update + quit
    prevented = false;
    win.emit('close', { preventDefault: () => void (prevented = true) });
    expect(prevented).toBe(false);
    vi.advanceTimersByTime(10_000);
    expect(fake.notifications.map((n) => n.title)).not.toContain('Could not install the update');
    expect(fake.module.app.requestSingleInstanceLock).toHaveBeenCalledTimes(1); // never taken back
  });

  it('Restart to update after which no quit comes (an earlier before-quit forgotten): the lock taken back, Check for updates again; if another instance took it meanwhile, this one quits', async () => {
    const { fake, updater, item } = await bootWithUpdate();
    fake.module.app.emit('before-quit'); // a quit that did not end the app
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate'] });
    item()!.click!();
    expect(updater.quitAndInstall).toHaveBeenCalledOnce();
    vi.advanceTimersByTime(5_000);
    expect(fake.notifications.map((n) => n.title)).toEqual(['Avail 0.2.0 is ready — restart to update', 'Could not install the update']);
    expect(fake.module.app.requestSingleInstanceLock).toHaveBeenCalledTimes(2);
    expect(fake.module.app.quit).not.toHaveBeenCalled();
    expect(item()?.label).toBe('Check for updates…');
    // Hide-on-close holds again.
    let prevented = false;
    fake.windows[0].emit('close', { preventDefault: () => void (prevented = true) });
    expect(prevented).toBe(true);

    // The same with the lock taken by another instance meanwhile: this one quits.
    vi.useRealTimers();
    vi.resetModules();
    const again = await bootWithUpdate();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate'] });
    again.item()!.click!();
    again.fake.module.app.requestSingleInstanceLock.mockReturnValue(false);
    vi.advanceTimersByTime(5_000);
    expect(again.fake.module.app.quit).toHaveBeenCalledOnce();
  });

  it('electron-updater failing to load leaves updates off (no menu item, one log line); the app starts', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    updaterModule.load = () => {
      throw new Error('Cannot find module ./AppImageUpdater');
    };
    const fake = await boot(true, false, { isPackaged: true });
    fake.module.app.becomeReady();
    await until(() => fake.trays.length > 0 && updaterModule.calls > 0);
    await flush();
    expect(warn).toHaveBeenCalledWith('[avail] updates: off (the updater could not be loaded: Cannot find module ./AppImageUpdater)');
    warn.mockRestore();
    expect(fake.module.app.quit).not.toHaveBeenCalled();
    expect((fake.trays[0].menu as Item[]).some((i) => i.id === 'update')).toBe(false);
  });
});

// Keep EventEmitter referenced for the hoisted factory's types.
void EventEmitter;
