import { describe, expect, it, vi } from 'vitest';
import { HIDDEN_ARG, createLoginItem, isLoginItemSupported, linuxAutostartEntry, shouldStartHidden } from './login-item.ts';

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
    return { files, fs: { exists: (f: string) => files.has(f), write: (f: string, t: string) => void files.set(f, t), remove: (f: string) => void files.delete(f) } };
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

  it('quotes paths with spaces and shell characters (Desktop Entry Exec rules); a launch with --hidden stays in the tray', () => {
    expect(linuxAutostartEntry('/opt/My Apps/avail', ['/src/a"b$c'])).toContain('Exec="/opt/My Apps/avail" "/src/a\\"b\\$c" "--hidden"');
    expect(shouldStartHidden({ argv: ['/opt/Avail/avail', '--hidden'], platform: 'linux', app: fakeApp() })).toBe(true);
  });
});
