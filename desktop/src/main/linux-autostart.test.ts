import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { linuxAutostart, retargetAutostart } from './linux-autostart.ts';
import { linuxAutostartEntry } from './login-item.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'avail-autostart-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const input = (over: Partial<Parameters<typeof linuxAutostart>[0]> = {}) => ({
  env: { XDG_CONFIG_HOME: join(dir, 'config') },
  home: () => join(dir, 'home'),
  execPath: '/opt/Avail/avail',
  isPackaged: true,
  appPath: () => '/src/avail/desktop',
  ...over,
});

describe('linuxAutostart', () => {
  it('lives in $XDG_CONFIG_HOME/autostart, else ~/.config/autostart', () => {
    expect(linuxAutostart(input()).file).toBe(join(dir, 'config', 'autostart', 'avail.desktop'));
    expect(linuxAutostart(input({ env: {} })).file).toBe(join(dir, 'home', '.config', 'autostart', 'avail.desktop'));
  });

  it('starts the AppImage this process runs from, else the installed binary; in development electron with the app folder', () => {
    const appImage = { APPIMAGE: '/home/ana/Avail.AppImage', APPDIR: '/tmp/.mount_Av' };
    expect(linuxAutostart(input({ env: appImage, execPath: '/tmp/.mount_Av/avail' }))).toMatchObject({ command: '/home/ana/Avail.AppImage', args: [] });
    expect(linuxAutostart(input())).toMatchObject({ command: '/opt/Avail/avail', args: [] });
    expect(linuxAutostart(input({ isPackaged: false, execPath: '/src/node_modules/electron/dist/electron' }))).toMatchObject({ args: ['/src/avail/desktop'] });
  });

  it('its file system writes the entry (folder created, mode 0644), reads and removes it', () => {
    const { fs, file } = linuxAutostart(input());
    expect(fs.exists(file)).toBe(false);
    fs.write(file, '[Desktop Entry]\n');
    expect(fs.read(file)).toBe('[Desktop Entry]\n');
    expect(statSync(file).mode & 0o777).toBe(0o644);
    fs.remove(file);
    fs.remove(file); // already gone: no throw
    expect(fs.exists(file)).toBe(false);
  });
});

describe('retargetAutostart', () => {
  it('points an existing entry at the new program and says so; nothing without an entry', () => {
    const log = vi.fn();
    const entry = linuxAutostart(input());
    retargetAutostart(entry, log);
    expect(log).not.toHaveBeenCalled();
    mkdirSync(join(dir, 'config', 'autostart'), { recursive: true });
    writeFileSync(entry.file, linuxAutostartEntry('/home/ana/Old.AppImage'));
    retargetAutostart({ ...entry, command: '/home/ana/New.AppImage' }, log);
    expect(readFileSync(entry.file, 'utf8')).toContain('Exec="/home/ana/New.AppImage" "--hidden"');
    expect(log).toHaveBeenCalledWith('start at login: the autostart entry now starts the current AppImage');
  });

  it('a file that cannot be read is one log line, never a throw', () => {
    const log = vi.fn();
    const entry = linuxAutostart(input());
    const broken = { ...entry, fs: { ...entry.fs, exists: () => true, read: () => { throw new Error('EACCES'); } } };
    expect(() => retargetAutostart(broken, log)).not.toThrow();
    expect(log).toHaveBeenCalledWith('start at login: could not update the autostart entry');
  });
});
