/**
 * "Start at login" (https://www.electronjs.org/docs/latest/api/app#appsetloginitemsettingssettings-macos-windows):
 * `app.setLoginItemSettings` exists on macOS and Windows only, so on Linux the menu item is shown
 * disabled. A launch at login starts hidden in the tray: on Windows the login entry carries
 * `--hidden`; on macOS the app asks `getLoginItemSettings().wasOpenedAtLogin`.
 */
import type { LoginItemControl } from './tray-controller.ts';

/** Argument of a launch that should stay in the tray (login item on Windows; usable by hand). */
export const HIDDEN_ARG = '--hidden';

/** The part of `app` the login item uses. */
export interface LoginItemApp {
  getLoginItemSettings(options?: { args?: string[] }): { openAtLogin: boolean; wasOpenedAtLogin?: boolean };
  setLoginItemSettings(settings: { openAtLogin: boolean; args?: string[] }): void;
}

/** true on macOS ('darwin') and Windows ('win32'), where Electron supports login items. */
export function isLoginItemSupported(platform: string): boolean {
  return platform === 'darwin' || platform === 'win32';
}

/** Arguments of the login entry: `--hidden` on Windows (macOS login items take none). */
function loginArgs(platform: string): string[] | undefined {
  return platform === 'win32' ? [HIDDEN_ARG] : undefined;
}

/**
 * The tray's start-at-login switch. `get()` reports `{ openAtLogin, loginItemSupported }`
 * (always `openAtLogin: false` where unsupported); `set()` is a no-op where unsupported.
 */
export function createLoginItem(app: LoginItemApp, platform: string): LoginItemControl {
  const supported = isLoginItemSupported(platform);
  const args = loginArgs(platform);
  return {
    get() {
      if (!supported) return { openAtLogin: false, loginItemSupported: false };
      try {
        return { openAtLogin: app.getLoginItemSettings(args ? { args } : undefined).openAtLogin, loginItemSupported: true };
      } catch {
        return { openAtLogin: false, loginItemSupported: true };
      }
    },
    set(openAtLogin) {
      if (!supported) return;
      app.setLoginItemSettings(args ? { openAtLogin, args } : { openAtLogin });
    },
  };
}

/**
 * Whether this launch should start hidden in the tray: `--hidden` among `argv` (any platform), or
 * on macOS a launch by the login item (`wasOpenedAtLogin`).
 */
export function shouldStartHidden(input: { argv: readonly string[]; platform: string; app: Pick<LoginItemApp, 'getLoginItemSettings'> }): boolean {
  if (input.argv.includes(HIDDEN_ARG)) return true;
  if (input.platform !== 'darwin') return false;
  try {
    return input.app.getLoginItemSettings().wasOpenedAtLogin === true;
  } catch {
    return false;
  }
}
