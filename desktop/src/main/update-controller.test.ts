import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHECK_INTERVAL_MS, FIRST_CHECK_DELAY_MS } from './update-checks.ts';
import { createUpdateController } from './update-controller.ts';
import type { UpdateEnvironment } from './update-environment.ts';
import { DEFERRED_QUIT_GRACE_MS, INSTALL_QUIT_TIMEOUT_MS, SQUIRREL_FETCH_TIMEOUT_MS } from './update-install.ts';
import type { UpdaterLike } from './updater.ts';

/** electron-updater's autoUpdater, mocked: `checkForUpdates` returns a promise the test settles. */
function fakeUpdater() {
  const emitter = new EventEmitter();
  const pending: Array<{ resolve: (v: unknown) => void; reject: (e: unknown) => void }> = [];
  const calls: string[] = [];
  const updater = {
    autoDownload: false,
    autoInstallOnAppQuit: false,
    logger: null as UpdaterLike['logger'],
    checkForUpdates: vi.fn(
      () =>
        new Promise<unknown>((resolve, reject) => {
          pending.push({ resolve, reject });
        }),
    ),
    quitAndInstall: vi.fn(() => void calls.push('quitAndInstall')),
    on: (event: string, listener: (...args: unknown[]) => void) => emitter.on(event, listener),
    emit: (event: string, ...args: unknown[]) => emitter.emit(event, ...args),
  };
  return { updater, pending, calls };
}

const PACKAGED_APPIMAGE: UpdateEnvironment = {
  isPackaged: true,
  platform: 'linux',
  env: { APPIMAGE: '/home/ana/Avail.AppImage', APPDIR: '/tmp/.mount_AvailXy12' },
  execPath: '/tmp/.mount_AvailXy12/avail',
  hasUpdateConfig: () => true,
};

function setup(environment: UpdateEnvironment = PACKAGED_APPIMAGE) {
  const f = fakeUpdater();
  const notes: Array<{ title: string; body: string }> = [];
  const logs: string[] = [];
  const deps = {
    environment,
    updater: vi.fn(() => f.updater),
    notify: (n: { title: string; body: string }) => void notes.push(n),
    beforeQuitAndInstall: vi.fn(() => void f.calls.push('beforeQuit')),
    cancelQuit: vi.fn(() => void f.calls.push('cancelQuit')),
    quitting: vi.fn(() => false),
    onAppImageRenamed: vi.fn(),
    onChange: vi.fn(),
    log: (m: string) => void logs.push(m),
  };
  const controller = createUpdateController(deps);
  return { controller, ...f, notes, logs, deps };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('createUpdateController: disabled', () => {
  const cases: Array<[string, UpdateEnvironment]> = [
    ['unpackaged', { ...PACKAGED_APPIMAGE, isPackaged: false }],
    ['no app-update.yml', { ...PACKAGED_APPIMAGE, hasUpdateConfig: () => false }],
    ['Linux deb (no APPIMAGE)', { ...PACKAGED_APPIMAGE, env: {} }],
    ['Linux deb started from an AppImage\'d terminal (APPIMAGE inherited, no APPDIR)', { ...PACKAGED_APPIMAGE, env: { APPIMAGE: '/home/ana/Other.AppImage' }, execPath: '/opt/Avail/avail' }],
    ['Mac App Store', { isPackaged: true, platform: 'darwin', env: {}, execPath: '/Applications/Avail.app/Contents/MacOS/Avail', mas: true, hasUpdateConfig: () => true }],
    ['Microsoft Store', { isPackaged: true, platform: 'win32', env: {}, execPath: 'C:\\Avail\\Avail.exe', windowsStore: true, hasUpdateConfig: () => true }],
  ];
  for (const [name, environment] of cases) {
    it(`${name}: no updater, no timer, no menu item, one log line`, () => {
      const { controller, deps, updater, logs } = setup(environment);
      expect(controller.enabled).toBe(false);
      expect(controller.state()).toBeNull();
      expect(vi.getTimerCount()).toBe(0);
      controller.checkNow();
      vi.advanceTimersByTime(CHECK_INTERVAL_MS * 2);
      expect(deps.updater).not.toHaveBeenCalled();
      expect(updater.checkForUpdates).not.toHaveBeenCalled();
      expect(logs).toEqual([expect.stringMatching(/^updates: off \(.+\)$/)]);
    });
  }
});

describe('createUpdateController: the updater cannot be loaded', () => {
  it('updates stay off: one log line without the address, no menu item, no timer, no throw', () => {
    const logs: string[] = [];
    const controller = createUpdateController({
      environment: PACKAGED_APPIMAGE,
      updater: () => {
        throw new Error('Cannot find module at https://example.com/x?token=abc');
      },
      notify: vi.fn(),
      beforeQuitAndInstall: vi.fn(),
      cancelQuit: vi.fn(),
      quitting: () => false,
      onChange: vi.fn(),
      log: (m) => void logs.push(m),
    });
    expect(controller.enabled).toBe(false);
    expect(controller.state()).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
    expect(logs).toEqual(['updates: off (the updater could not be loaded: Cannot find module at (address))']);
  });
});

describe('createUpdateController: enabled', () => {
  it('configures the updater: download automatically, install on quit; logs without addresses', () => {
    const { updater, logs } = setup();
    expect(updater.autoDownload).toBe(true);
    expect(updater.autoInstallOnAppQuit).toBe(true);
    updater.logger?.info('Downloading update from https://github.com/o/r/releases/download/v1.2.3/Avail.AppImage?token=abc');
    expect(logs.at(-1)).toBe('updater info: Downloading update from (address)');
  });

  it('first check 10 s after start, then every 6 h', async () => {
    const { updater, pending } = setup();
    vi.advanceTimersByTime(FIRST_CHECK_DELAY_MS - 1);
    expect(updater.checkForUpdates).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(updater.checkForUpdates).toHaveBeenCalledTimes(1);
    updater.emit('update-not-available', { version: '0.1.0' });
    pending[0].resolve({});
    await vi.advanceTimersByTimeAsync(CHECK_INTERVAL_MS - 1);
    expect(updater.checkForUpdates).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(updater.checkForUpdates).toHaveBeenCalledTimes(2);
    updater.emit('update-not-available', { version: '0.1.0' });
    pending[1].resolve({});
    await vi.advanceTimersByTimeAsync(CHECK_INTERVAL_MS);
    expect(updater.checkForUpdates).toHaveBeenCalledTimes(3);
  });

  it('a manual check while one runs does not start a second, and tells the outcome', async () => {
    const { controller, updater, pending, notes } = setup();
    vi.advanceTimersByTime(FIRST_CHECK_DELAY_MS);
    expect(controller.state()).toEqual({ kind: 'checking' });
    controller.checkNow();
    controller.checkNow();
    expect(updater.checkForUpdates).toHaveBeenCalledTimes(1);
    updater.emit('update-not-available', { version: '0.1.0' });
    pending[0].resolve({});
    await vi.advanceTimersByTimeAsync(0);
    expect(notes).toEqual([{ title: 'Avail is up to date', body: expect.any(String) }]);
    expect(controller.state()).toEqual({ kind: 'idle' });

    // The updater tells the outcome before its promise settles: still no second check until then.
    controller.checkNow();
    expect(updater.checkForUpdates).toHaveBeenCalledTimes(2);
    updater.emit('update-not-available', { version: '0.1.0' });
    controller.checkNow();
    expect(updater.checkForUpdates).toHaveBeenCalledTimes(2);
    pending[1].resolve({});
    await vi.advanceTimersByTimeAsync(0);
    controller.checkNow();
    expect(updater.checkForUpdates).toHaveBeenCalledTimes(3);
  });

  it('manual, up to date: "Avail is up to date"; automatic, up to date: no notification', async () => {
    const { controller, updater, pending, notes } = setup();
    controller.checkNow();
    expect(controller.state()).toEqual({ kind: 'checking' });
    updater.emit('checking-for-update');
    updater.emit('update-not-available', { version: '0.1.0' });
    pending[0].resolve({});
    await vi.advanceTimersByTimeAsync(0);
    expect(notes.map((n) => n.title)).toEqual(['Avail is up to date']);

    vi.advanceTimersByTime(FIRST_CHECK_DELAY_MS); // the automatic check
    expect(updater.checkForUpdates).toHaveBeenCalledTimes(2);
    updater.emit('update-not-available', { version: '0.1.0' });
    pending[1].resolve({});
    await vi.advanceTimersByTimeAsync(0);
    expect(notes).toHaveLength(1);
  });

  it('manual: downloading, then ready; "Restart to update" sets the quit flag, then quitAndInstall', async () => {
    const { controller, updater, pending, notes, calls, deps } = setup();
    controller.restartToUpdate(); // nothing ready yet
    expect(calls).toEqual([]);
    controller.checkNow();
    updater.emit('update-available', { version: '1.2.3' });
    expect(controller.state()).toEqual({ kind: 'downloading', version: '1.2.3' });
    expect(notes.map((n) => n.title)).toEqual(['Avail 1.2.3 is downloading']);
    pending[0].resolve({}); // the check is over; the download goes on
    await vi.advanceTimersByTimeAsync(0);
    controller.checkNow(); // no second check while downloading
    vi.advanceTimersByTime(FIRST_CHECK_DELAY_MS); // nor an automatic one
    expect(updater.checkForUpdates).toHaveBeenCalledTimes(1);
    updater.emit('update-downloaded', { version: '1.2.3' });
    expect(controller.state()).toEqual({ kind: 'ready', version: '1.2.3' });
    expect(notes.map((n) => n.title)).toEqual(['Avail 1.2.3 is downloading', 'Avail 1.2.3 is ready — restart to update']);
    expect(deps.onChange).toHaveBeenCalled();
    vi.advanceTimersByTime(CHECK_INTERVAL_MS); // no check once an update is ready
    expect(updater.checkForUpdates).toHaveBeenCalledTimes(1);
    controller.restartToUpdate();
    expect(calls).toEqual(['beforeQuit', 'quitAndInstall']);
  });

  /** A controller with version 1.2.3 downloaded (automatic check). */
  function ready() {
    const t = setup();
    vi.advanceTimersByTime(FIRST_CHECK_DELAY_MS);
    t.updater.emit('update-available', { version: '1.2.3' });
    t.updater.emit('update-downloaded', { version: '1.2.3' });
    t.pending[0].resolve({});
    t.notes.length = 0;
    return t;
  }

  it('"Restart to update" whose install fails at once (BaseUpdater.install emits error): the quit flag back, "Could not install the update" with the reason, Check for updates again', async () => {
    const { controller, updater, calls, notes, logs } = ready();
    await vi.advanceTimersByTimeAsync(0); // the check's promise settled
    updater.quitAndInstall.mockImplementation(() => {
      calls.push('quitAndInstall');
      updater.emit('error', new Error("EACCES: permission denied, unlink '/opt/apps/Avail.AppImage'\n    at unlinkSync"));
    });
    controller.restartToUpdate();
    expect(calls).toEqual(['beforeQuit', 'quitAndInstall', 'cancelQuit']);
    expect(notes).toEqual([{ title: 'Could not install the update', body: "EACCES: permission denied, unlink '/opt/apps/Avail.AppImage'" }]);
    expect(logs.at(-1)).toBe("updates: could not install the update: EACCES: permission denied, unlink '/opt/apps/Avail.AppImage'");
    expect(controller.state()).toEqual({ kind: 'error' });
    vi.advanceTimersByTime(INSTALL_QUIT_TIMEOUT_MS * 2); // the watchdog was stopped: told once
    expect(notes).toHaveLength(1);
    expect(calls.filter((c) => c === 'cancelQuit')).toHaveLength(1);
    controller.checkNow();
    expect(updater.checkForUpdates).toHaveBeenCalledTimes(2);
  });

  it('"Restart to update" after which the app never starts quitting (Squirrel.Mac refusing an unsigned or translocated app): undone after 5 s', () => {
    const { controller, calls, notes, deps } = ready();
    controller.restartToUpdate();
    controller.restartToUpdate(); // a second click while it runs does nothing
    expect(calls).toEqual(['beforeQuit', 'quitAndInstall']);
    vi.advanceTimersByTime(INSTALL_QUIT_TIMEOUT_MS - 1);
    expect(calls).not.toContain('cancelQuit');
    vi.advanceTimersByTime(1);
    expect(deps.quitting).toHaveBeenCalled();
    expect(calls).toEqual(['beforeQuit', 'quitAndInstall', 'cancelQuit']);
    expect(notes.map((n) => n.title)).toEqual(['Could not install the update']);
    expect(controller.state()).toEqual({ kind: 'error' });
  });

  it('"Restart to update" followed by the quit: "Restarting to update…" meanwhile, nothing undone, nothing told', () => {
    const { controller, calls, notes, deps } = ready();
    deps.quitting.mockReturnValue(true);
    controller.restartToUpdate();
    expect(controller.state()).toEqual({ kind: 'installing', version: '1.2.3' });
    controller.checkNow(); // no check while installing
    vi.advanceTimersByTime(INSTALL_QUIT_TIMEOUT_MS * 2);
    expect(calls).toEqual(['beforeQuit', 'quitAndInstall']);
    expect(notes).toEqual([]);
    expect(controller.state()).toEqual({ kind: 'installing', version: '1.2.3' });
  });

  it('an error after quitAndInstall returned (BaseUpdater: the installer spawned, app.quit() scheduled): the scheduled quit goes on, the owner is told to open Avail again', () => {
    const { controller, updater, calls, notes, deps } = ready();
    // BaseUpdater.quitAndInstall: install() returned true, then setImmediate(() => app.quit()).
    updater.quitAndInstall.mockImplementation(() => {
      calls.push('quitAndInstall');
      setImmediate(() => deps.quitting.mockReturnValue(true));
    });
    controller.restartToUpdate();
    updater.emit('error', new Error('spawn EACCES')); // the NSIS spawn error, before the scheduled quit ran
    expect(calls).toEqual(['beforeQuit', 'quitAndInstall']);
    vi.advanceTimersByTime(DEFERRED_QUIT_GRACE_MS);
    expect(calls).not.toContain('cancelQuit');
    expect(notes).toEqual([{ title: 'Could not install the update', body: 'Avail will close; open it again to finish the update.' }]);
    vi.advanceTimersByTime(INSTALL_QUIT_TIMEOUT_MS * 2);
    expect(notes).toHaveLength(1);

    // The same error once the quit is under way: told at once, nothing undone.
    const late = ready();
    late.controller.restartToUpdate();
    late.deps.quitting.mockReturnValue(true);
    late.updater.emit('error', new Error('spawn EACCES'));
    expect(late.notes).toEqual([{ title: 'Could not install the update', body: 'Avail will close; open it again to finish the update.' }]);
    expect(late.calls).not.toContain('cancelQuit');
  });

  it('an error after quitAndInstall returned and no quit follows within the grace: undone as a failed install', () => {
    const { controller, updater, calls, notes } = ready();
    controller.restartToUpdate();
    updater.emit('error', new Error('spawn EACCES'));
    vi.advanceTimersByTime(DEFERRED_QUIT_GRACE_MS - 1);
    expect(calls).not.toContain('cancelQuit');
    vi.advanceTimersByTime(1);
    expect(calls).toEqual(['beforeQuit', 'quitAndInstall', 'cancelQuit']);
    expect(notes).toEqual([{ title: 'Could not install the update', body: 'spawn EACCES' }]);
    expect(controller.state()).toEqual({ kind: 'error' });
  });

  it('macOS: a Squirrel.Mac error after quitAndInstall returned is a failed install at once (no quit is scheduled)', () => {
    const { controller, updater, calls } = ready();
    Object.assign(updater, { squirrelDownloadedUpdate: false });
    controller.restartToUpdate();
    updater.emit('error', new Error('Code signature did not pass validation'));
    expect(calls).toEqual(['beforeQuit', 'quitAndInstall', 'cancelQuit']);
  });

  it('macOS: while Squirrel.Mac still fetches the update the wait goes on (it quits once fetched), up to its own limit', () => {
    const { controller, updater, calls, deps } = ready();
    Object.assign(updater, { squirrelDownloadedUpdate: false });
    controller.restartToUpdate();
    vi.advanceTimersByTime(INSTALL_QUIT_TIMEOUT_MS * 3);
    expect(calls).not.toContain('cancelQuit');
    Object.assign(updater, { squirrelDownloadedUpdate: true }); // fetched; the quit starts
    deps.quitting.mockReturnValue(true);
    vi.advanceTimersByTime(SQUIRREL_FETCH_TIMEOUT_MS);
    expect(calls).toEqual(['beforeQuit', 'quitAndInstall']);

    const other = ready();
    Object.assign(other.updater, { squirrelDownloadedUpdate: false });
    other.controller.restartToUpdate();
    vi.advanceTimersByTime(SQUIRREL_FETCH_TIMEOUT_MS - 1);
    expect(other.calls).not.toContain('cancelQuit');
    vi.advanceTimersByTime(INSTALL_QUIT_TIMEOUT_MS);
    expect(other.calls).toContain('cancelQuit');
    expect(other.notes.map((n) => n.title)).toEqual(['Could not install the update']);
  });

  it('quitAndInstall throwing is an install failure too', () => {
    const { controller, updater, calls, notes } = ready();
    updater.quitAndInstall.mockImplementation(() => {
      throw new Error('No update filepath provided, can\'t quit and install');
    });
    controller.restartToUpdate();
    expect(calls).toEqual(['beforeQuit', 'cancelQuit']);
    expect(notes).toEqual([{ title: 'Could not install the update', body: "No update filepath provided, can't quit and install" }]);
  });

  it('autoDownload: a failing download (the check result\'s downloadPromise) is reported by the error event only, never an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    vi.useRealTimers(); // Node reports unhandled rejections between macrotasks
    const { controller, updater, pending, notes } = setup();
    try {
      controller.checkNow();
      updater.emit('update-available', { version: '1.2.3' });
      const error = new Error('net::ERR_CONNECTION_RESET https://github.com/o/r/releases/download/v1.2.3/Avail-1.2.3.AppImage');
      pending[0].resolve({ updateInfo: { version: '1.2.3' }, downloadPromise: Promise.reject(error) });
      updater.emit('error', error);
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).toEqual([]);
      expect(notes.map((n) => n.title)).toEqual(['Avail 1.2.3 is downloading', 'Could not download the update']);
    } finally {
      controller.dispose();
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('the AppImage installed under a new name (appimage-filename-updated): main.ts hears the new path', () => {
    const { updater, deps } = ready();
    updater.emit('appimage-filename-updated', '/home/ana/Apps/Avail-1.2.3-x86_64.AppImage');
    expect(deps.onAppImageRenamed).toHaveBeenCalledWith('/home/ana/Apps/Avail-1.2.3-x86_64.AppImage');
  });

  it('automatic: silent while downloading, notifies once the update is ready', () => {
    const { updater, notes } = setup();
    vi.advanceTimersByTime(FIRST_CHECK_DELAY_MS);
    updater.emit('update-available', { version: '1.2.3' });
    updater.emit('download-progress', { percent: 50 });
    expect(notes).toEqual([]);
    updater.emit('update-downloaded', { version: '1.2.3' });
    expect(notes.map((n) => n.title)).toEqual(['Avail 1.2.3 is ready — restart to update']);
  });

  it('a failed manual check: "Could not check for updates" with the reason, no address, no token', async () => {
    const { controller, updater, pending, notes, logs } = setup();
    controller.checkNow();
    const error = new Error(
      'Cannot find latest-linux.yml in the latest release artifacts (https://github.com/o/r/releases/download/v1.2.3/latest-linux.yml?X-Amz-Signature=deadbeef): HttpError: 404\nHeaders: {"authorization":"token ghp_abcdefghijklmnopqrstuvwxyz0123456789"}',
    );
    updater.emit('error', error);
    pending[0].reject(error);
    await vi.advanceTimersByTimeAsync(0);
    expect(notes).toEqual([{ title: 'Could not check for updates', body: 'Cannot find latest-linux.yml in the latest release artifacts ((address)): HttpError: 404' }]);
    expect(controller.state()).toEqual({ kind: 'error' });
    expect(logs.join('\n')).not.toMatch(/https?:|ghp_|deadbeef/);
    // The next check can run.
    controller.checkNow();
    expect(updater.checkForUpdates).toHaveBeenCalledTimes(2);
  });

  it('a failed automatic check is only logged', async () => {
    const { updater, pending, notes, logs } = setup();
    vi.advanceTimersByTime(FIRST_CHECK_DELAY_MS);
    pending[0].reject(new Error('net::ERR_INTERNET_DISCONNECTED'));
    await vi.advanceTimersByTimeAsync(0);
    expect(notes).toEqual([]);
    expect(logs.at(-1)).toBe('updates: could not check for updates: net::ERR_INTERNET_DISCONNECTED');
  });

  it('dispose stops the checks', () => {
    const { controller, updater } = setup();
    controller.dispose();
    vi.advanceTimersByTime(CHECK_INTERVAL_MS * 2);
    expect(updater.checkForUpdates).not.toHaveBeenCalled();
  });
});
