import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadBundleWithStubElectron } from './bundle-load-check.mjs';

describe('the packaging check requires the packaged main bundle with a stub electron (docs/desktop-release.md, Real-Electron suite)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'avail-load-test-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const bundle = (code: string) => {
    const file = join(dir, 'main.cjs');
    writeFileSync(file, code);
    return file;
  };

  it("a bundle that wires itself to electron's app at its top level loads; nothing starts (the lock is refused, whenReady never resolves)", () => {
    const file = bundle(`
      const { app, protocol, BrowserWindow } = require('electron');
      const path = require('node:path');
      const dir = app.isPackaged ? path.join(process.resourcesPath, 'tray') : __dirname;
      app.setPath('userData', path.join(app.getPath('appData'), 'Avail'));
      protocol.registerSchemesAsPrivileged([{ scheme: 'app' }]);
      if (app.requestSingleInstanceLock()) throw new Error('the stub granted the lock: the app would start');
      app.whenReady().then(() => { new BrowserWindow(); throw new Error('started'); });
      module.exports = dir;
    `);
    expect(loadBundleWithStubElectron(file)).toEqual({ ok: true });
  });

  it('a module left external that the asar does not hold fails, naming it', () => {
    const result = loadBundleWithStubElectron(bundle(`require('electron'); require('electron-updater');`));
    expect(result).toEqual({ ok: false, reason: expect.stringContaining("Cannot find module 'electron-updater'") });
  });

  it('a top-level throw (e.g. a define that names an undefined identifier) fails with the error', () => {
    const result = loadBundleWithStubElectron(bundle(`const homepage = typeof undefinedDefine.host === 'string' ? 1 : 0;`));
    expect(result).toEqual({ ok: false, reason: expect.stringContaining('ReferenceError: undefinedDefine is not defined') });
  });

  it('with updater: the app starts as an AppImage with app-update.yml; it passes only once main listens to before-quit-for-update (updates on)', () => {
    const started = (onUpdates: string) =>
      bundle(`
        const { app, autoUpdater } = require('electron');
        const fs = require('node:fs');
        const path = require('node:path');
        if (app.commandLine.hasSwitch('remote-debugging-port')) throw new Error('the stub reported a switch');
        if (app.requestSingleInstanceLock()) {
          app.whenReady().then(() => {
            const on = process.env.APPIMAGE && process.env.APPDIR && fs.existsSync(path.join(process.resourcesPath, 'app-update.yml'));
            ${onUpdates}
          });
        }
      `);
    expect(loadBundleWithStubElectron(started(`if (on) autoUpdater.on('before-quit-for-update', () => undefined);`), { updater: true })).toEqual({ ok: true });
    const off = loadBundleWithStubElectron(started(`console.warn('[avail] updates: off (the updater could not be loaded: broken)');`), { updater: true });
    expect(off).toEqual({ ok: false, reason: expect.stringContaining('[avail] updates: off (the updater could not be loaded: broken)') });
    // Without the option the second run does not happen.
    expect(loadBundleWithStubElectron(started(`console.warn('[avail] updates: off (x)');`))).toEqual({ ok: true });
  });

  it('a promise rejected at the top level fails too', () => {
    const result = loadBundleWithStubElectron(bundle(`Promise.reject(new Error('config unreadable'));`));
    expect(result).toEqual({ ok: false, reason: expect.stringContaining('config unreadable') });
  });
});
