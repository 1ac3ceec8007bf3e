import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import type { QuitFlag } from './app-window.ts';
import { startAppUpdates } from './app-updates.ts';

function setup(opts: { isPackaged?: boolean; platform?: NodeJS.Platform; lockFree?: boolean } = {}) {
  const app = { isPackaged: opts.isPackaged ?? true, releaseSingleInstanceLock: vi.fn(), requestSingleInstanceLock: vi.fn(() => opts.lockFree ?? true), quit: vi.fn() };
  const nativeAutoUpdater = new EventEmitter();
  const updater = Object.assign(new EventEmitter(), {
    autoDownload: false,
    autoInstallOnAppQuit: false,
    logger: null,
    checkForUpdates: vi.fn(() => new Promise<unknown>(() => undefined)),
    quitAndInstall: vi.fn(),
  });
  const quitFlag: QuitFlag = { quitting: false };
  const appQuit = { started: false };
  const logs: string[] = [];
  const exists = vi.fn(() => true);
  const updates = startAppUpdates({
    app,
    nativeAutoUpdater,
    process: opts.platform === 'linux'
      ? { platform: 'linux', env: { APPIMAGE: '/home/ana/Avail.AppImage', APPDIR: '/tmp/.mount_Av' }, execPath: '/tmp/.mount_Av/avail', resourcesPath: '/tmp/.mount_Av/resources' }
      : { platform: 'win32', env: {}, execPath: 'C:\\Avail\\Avail.exe', resourcesPath: 'C:\\Avail\\resources', mas: false, windowsStore: false },
    exists,
    updater: () => updater,
    quitFlag,
    appQuit,
    showNotification: vi.fn(),
    onAppImageRenamed: vi.fn(),
    onChange: vi.fn(),
    log: (m) => void logs.push(m),
  });
  return { app, nativeAutoUpdater, updater, quitFlag, appQuit, logs, exists, updates };
}

describe('startAppUpdates', () => {
  it('a development run: updates off, one log line, no before-quit-for-update listener', () => {
    const { updates, nativeAutoUpdater, logs } = setup({ isPackaged: false });
    expect(updates.enabled).toBe(false);
    expect(logs).toEqual(['updates: off (not packaged (development run))']);
    expect(nativeAutoUpdater.listenerCount('before-quit-for-update')).toBe(0);
    updates.dispose();
  });

  it('packaged with app-update.yml: before-quit-for-update sets the quit flag and releases the lock', () => {
    const { updates, nativeAutoUpdater, quitFlag, app, exists } = setup();
    expect(updates.enabled).toBe(true);
    expect(exists).toHaveBeenCalledWith(expect.stringContaining('app-update.yml'));
    nativeAutoUpdater.emit('before-quit-for-update');
    expect(quitFlag.quitting).toBe(true);
    expect(app.releaseSingleInstanceLock).toHaveBeenCalledOnce();
    updates.dispose();
  });

  it('"Restart to update" forgets an earlier before-quit; a failed install takes the quit flag back (and quits when another instance holds the lock)', () => {
    const { updates, updater, appQuit, quitFlag, app } = setup({ lockFree: false });
    updater.emit('update-downloaded', { version: '1.2.3' });
    appQuit.started = true;
    quitFlag.quitting = true;
    updater.quitAndInstall.mockImplementationOnce(() => {
      expect(appQuit.started).toBe(false);
      throw new Error('installer failed');
    });
    updates.restartToUpdate();
    expect(updater.quitAndInstall).toHaveBeenCalledOnce();
    expect(app.releaseSingleInstanceLock).not.toHaveBeenCalled(); // Linux only
    expect(quitFlag.quitting).toBe(false);
    expect(app.requestSingleInstanceLock).toHaveBeenCalledOnce();
    expect(app.quit).toHaveBeenCalledOnce();
    updates.dispose();
  });

  it('Linux (an AppImage): "Restart to update" releases the lock before quitAndInstall (the new AppImage starts inside it)', () => {
    const { updates, updater, app } = setup({ platform: 'linux' });
    expect(updates.enabled).toBe(true);
    updater.emit('update-downloaded', { version: '1.2.3' });
    updater.quitAndInstall.mockImplementationOnce(() => expect(app.releaseSingleInstanceLock).toHaveBeenCalledOnce());
    updates.restartToUpdate();
    expect(updater.quitAndInstall).toHaveBeenCalledOnce();
    updates.dispose();
  });
});
