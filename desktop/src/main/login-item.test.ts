import { describe, expect, it, vi } from 'vitest';
import { HIDDEN_ARG, createLoginItem, isLoginItemSupported, shouldStartHidden } from './login-item.ts';

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
