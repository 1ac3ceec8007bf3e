import { describe, expect, it, vi } from 'vitest';
import { HIDDEN_ARG, autostartProgram, createLoginItem, isLoginItemSupported, linuxAutostartEntry, retargetLinuxAutostart, shouldStartHidden } from './login-item.ts';

function fakeApp(settings: { openAtLogin?: boolean; wasOpenedAtLogin?: boolean } = {}) {
  return {
    getLoginItemSettings: vi.fn(() => ({ openAtLogin: settings.openAtLogin ?? false, wasOpenedAtLogin: settings.wasOpenedAtLogin })),
    setLoginItemSettings: vi.fn(),
  };
}

describe('login item', () => {
  it('is supported on macOS and Windows only', () => {
    expect(isLoginItemSupported('darwin')).toBe(true);
    expect(isLoginItemSupported('win32')).toBe(true);
    expect(isLoginItemSupported('linux')).toBe(false);
  });

  it('Windows: the login entry carries --hidden, and is read back with the same args', () => {
    const app = fakeApp({ openAtLogin: true });
    const item = createLoginItem(app, 'win32');
    expect(item.get()).toEqual({ openAtLogin: true, loginItemSupported: true });
    expect(app.getLoginItemSettings).toHaveBeenCalledWith({ args: [HIDDEN_ARG] });
    item.set(false);
    expect(app.setLoginItemSettings).toHaveBeenCalledWith({ openAtLogin: false, args: [HIDDEN_ARG] });
  });

  it('macOS: no args', () => {
    const app = fakeApp();
    createLoginItem(app, 'darwin').set(true);
    expect(app.setLoginItemSettings).toHaveBeenCalledWith({ openAtLogin: true });
  });

  it('Linux: reported unsupported, never calls Electron', () => {
    const app = fakeApp({ openAtLogin: true });
    const item = createLoginItem(app, 'linux');
    expect(item.get()).toEqual({ openAtLogin: false, loginItemSupported: false });
    item.set(true);
    expect(app.setLoginItemSettings).not.toHaveBeenCalled();
    expect(app.getLoginItemSettings).not.toHaveBeenCalled();
  });

  it('starts hidden with --hidden, or on macOS when opened by the login item', () => {
    expect(shouldStartHidden({ argv: ['avail', HIDDEN_ARG], platform: 'win32', app: fakeApp() })).toBe(true);
    expect(shouldStartHidden({ argv: ['avail'], platform: 'win32', app: fakeApp({ wasOpenedAtLogin: true }) })).toBe(false);
    expect(shouldStartHidden({ argv: ['avail'], platform: 'darwin', app: fakeApp({ wasOpenedAtLogin: true }) })).toBe(true);
    expect(shouldStartHidden({ argv: ['avail'], platform: 'darwin', app: fakeApp({ wasOpenedAtLogin: false }) })).toBe(false);
    expect(shouldStartHidden({ argv: ['avail'], platform: 'linux', app: fakeApp() })).toBe(false);
  });
});

describe('Linux: an XDG autostart entry', () => {
  function memoryFs() {
    const files = new Map<string, string>();
    return {
      files,
      fs: {
        exists: (f: string) => files.has(f),
        read: (f: string) => {
          const t = files.get(f);
          if (t === undefined) throw new Error('ENOENT');
          return t;
        },
        write: (f: string, t: string) => void files.set(f, t),
        remove: (f: string) => void files.delete(f),
      },
    };
  }
  const FILE = '/home/olivia/.config/autostart/avail.desktop';

  it('Start at login writes the entry (the AppImage, --hidden), reads back checked, and removing unchecks it', () => {
    const { files, fs } = memoryFs();
    const app = fakeApp();
    const item = createLoginItem(app, 'linux', { fs, file: FILE, command: '/home/olivia/Apps/Avail-0.1.0.AppImage' });
    expect(item.get()).toEqual({ openAtLogin: false, loginItemSupported: true });
    item.set(true);
    expect(item.get()).toEqual({ openAtLogin: true, loginItemSupported: true });
    const entry = files.get(FILE)!;
    expect(entry).toContain('[Desktop Entry]\nType=Application\nName=Avail');
    expect(entry).toContain('Exec="/home/olivia/Apps/Avail-0.1.0.AppImage" "--hidden"');
    item.set(false);
    expect(files.has(FILE)).toBe(false);
    expect(item.get().openAtLogin).toBe(false);
    expect(app.setLoginItemSettings).not.toHaveBeenCalled();
  });

  it('an entry switched off in the desktop settings (Hidden=true, X-GNOME-Autostart-enabled=false) reads as off; Start at login writes it on again', () => {
    const { files, fs } = memoryFs();
    const item = createLoginItem(fakeApp(), 'linux', { fs, file: FILE, command: '/opt/Avail/avail' });
    files.set(FILE, linuxAutostartEntry('/opt/Avail/avail').replace('X-GNOME-Autostart-enabled=true', 'X-GNOME-Autostart-enabled=false'));
    expect(item.get().openAtLogin).toBe(false);
    files.set(FILE, `${linuxAutostartEntry('/opt/Avail/avail')}Hidden=true\n`);
    expect(item.get().openAtLogin).toBe(false);
    item.set(true);
    expect(item.get().openAtLogin).toBe(true);
  });

  it('retargeting: only an entry whose program is another file is rewritten, its on/off lines kept', () => {
    const { files, fs } = memoryFs();
    const target = { fs, file: FILE, command: '/home/olivia/Apps/Avail 0.2.0.AppImage' };
    expect(retargetLinuxAutostart(target)).toBe(false); // none: nothing written
    expect(files.has(FILE)).toBe(false);
    // The same program with the owner's own edits (another argument order, an extra key): left alone.
    const edited = `${linuxAutostartEntry('/home/olivia/Apps/Avail 0.2.0.AppImage')}X-KDE-autostart-phase=2\n`;
    files.set(FILE, edited);
    expect(retargetLinuxAutostart(target)).toBe(false);
    expect(files.get(FILE)).toBe(edited);
    // Another program, switched off in the desktop's settings: now the new file, still off.
    files.set(FILE, linuxAutostartEntry('/home/olivia/Apps/Avail-0.1.0.AppImage').replace('X-GNOME-Autostart-enabled=true', 'X-GNOME-Autostart-enabled=false\nHidden=true'));
    expect(retargetLinuxAutostart(target)).toBe(true);
    const text = files.get(FILE)!;
    expect(autostartProgram(text)).toBe('/home/olivia/Apps/Avail 0.2.0.AppImage');
    expect(text).toContain('X-GNOME-Autostart-enabled=false');
    expect(text).not.toContain('X-GNOME-Autostart-enabled=true');
    expect(text).toContain('Hidden=true');
    expect(createLoginItem(fakeApp(), 'linux', target).get().openAtLogin).toBe(false);
    expect(autostartProgram('Exec="/a \\"b\\" c" "--hidden"')).toBe('/a "b" c');
    expect(autostartProgram('Exec=/usr/bin/avail --hidden')).toBe('/usr/bin/avail');
  });

  it('quotes paths with spaces and shell characters (Desktop Entry Exec rules); a launch with --hidden stays in the tray', () => {
    expect(linuxAutostartEntry('/opt/My Apps/avail', ['/src/a"b$c'])).toContain('Exec="/opt/My Apps/avail" "/src/a\\"b\\$c" "--hidden"');
    expect(shouldStartHidden({ argv: ['/opt/Avail/avail', '--hidden'], platform: 'linux', app: fakeApp() })).toBe(true);
  });
});
