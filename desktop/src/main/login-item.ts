/**
 * "Start at login" (https://www.electronjs.org/docs/latest/api/app#appsetloginitemsettingssettings-macos-windows):
 * `app.setLoginItemSettings` on macOS and Windows; on Linux, where Electron has none, an XDG
 * autostart entry `$XDG_CONFIG_HOME/autostart/avail.desktop`
 * (https://specifications.freedesktop.org/autostart-spec/latest/) that desktop sessions run at
 * login. A launch at login starts hidden in the tray: on Windows and Linux the entry carries
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

/** The file operations the Linux autostart entry needs (synchronous: the tray menu reads it when built). */
interface AutostartFs {
  exists(file: string): boolean;
  /** The file's text (UTF-8); throws when it cannot be read. */
  read(file: string): string;
  /** Writes the file, creating its folder. */
  write(file: string, text: string): void;
  remove(file: string): void;
}

/** Where and how the Linux autostart entry starts the app. */
export interface LinuxAutostart {
  fs: AutostartFs;
  /** `…/autostart/avail.desktop`. */
  file: string;
  /** The program: the AppImage (`$APPIMAGE`) or the installed binary (`process.execPath`). */
  command: string;
  /** Arguments before `--hidden` (in development: the app folder for `electron`). */
  args?: string[];
}

/** Quotes one argument of a desktop entry's `Exec` key (Desktop Entry spec, "The Exec key"). */
function quoteExecArg(arg: string): string {
  return `"${arg.replace(/(["`$\\])/g, '\\$1')}"`;
}

/** The `.desktop` text of the autostart entry. */
export function linuxAutostartEntry(command: string, args: readonly string[] = []): string {
  const exec = [command, ...args, HIDDEN_ARG].map(quoteExecArg).join(' ');
  return ['[Desktop Entry]', 'Type=Application', 'Name=Avail', 'Comment=Your free time, in the tray', `Exec=${exec}`, 'Terminal=false', 'X-GNOME-Autostart-enabled=true', ''].join('\n');
}

/** The first argument of `Exec=` (the program), unquoted (the inverse of the quoting above); null when there is none. */
export function autostartProgram(text: string): string | null {
  const line = text.split(/\r?\n/).find((l) => /^Exec\s*=/.test(l));
  if (!line) return null;
  const exec = line.replace(/^Exec\s*=\s*/, '');
  if (!exec.startsWith('"')) return exec.split(/\s+/)[0] || null;
  let out = '';
  for (let i = 1; i < exec.length; i++) {
    const c = exec[i];
    if (c === '\\' && i + 1 < exec.length) out += exec[++i];
    else if (c === '"') return out;
    else out += c;
  }
  return null; // unterminated quote
}

/**
 * Whether the entry's text turns it off for the session (Autostart spec: `Hidden=true`; GNOME:
 * `X-GNOME-Autostart-enabled=false`) — the owner may have switched it off in their desktop's settings.
 */
function autostartDisabled(text: string): boolean {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  return lines.some((l) => /^Hidden\s*=\s*true$/i.test(l)) || lines.some((l) => /^X-GNOME-Autostart-enabled\s*=\s*false$/i.test(l));
}

/**
 * The entry `text` made to start `command` (an AppImage renamed by an update, or moved): null when
 * its program already is `command` (nothing to write). Else a fresh entry
 * ({@link linuxAutostartEntry}) keeping the owner's `Hidden=` and `X-GNOME-Autostart-enabled=` lines.
 */
function retargetedAutostartEntry(text: string, command: string, args: readonly string[] = []): string | null {
  if (autostartProgram(text) === command) return null;
  const key = (l: string) => /^(Hidden|X-GNOME-Autostart-enabled)\s*=/.exec(l.trim())?.[1] ?? null;
  const kept = text.split(/\r?\n/).filter((l) => key(l) !== null).map((l) => l.trim());
  const keptKeys = new Set(kept.map(key));
  const fresh = linuxAutostartEntry(command, args)
    .split('\n')
    .filter((l) => !keptKeys.has(key(l)));
  fresh.splice(fresh.length - 1, 0, ...kept);
  return fresh.join('\n');
}

/**
 * Points an existing Linux autostart entry at `linux.command` ({@link retargetedAutostartEntry}).
 * Returns true when it was rewritten, false when there is none or it already starts that program.
 * Throws when the file cannot be read or written.
 */
export function retargetLinuxAutostart(linux: LinuxAutostart): boolean {
  if (!linux.fs.exists(linux.file)) return false;
  const next = retargetedAutostartEntry(linux.fs.read(linux.file), linux.command, linux.args);
  if (next === null) return false;
  linux.fs.write(linux.file, next);
  return true;
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
 * (always `openAtLogin: false` where unsupported); `set()` is a no-op where unsupported. On Linux,
 * pass `linux` (the autostart entry; on when it exists and is not {@link autostartDisabled};
 * `set(true)` writes a fresh, enabled entry); without it Linux stays unsupported.
 */
export function createLoginItem(app: LoginItemApp, platform: string, linux?: LinuxAutostart): LoginItemControl {
  if (platform === 'linux' && linux) {
    return {
      get() {
        try {
          // Switched off in the desktop's settings (Hidden=true, X-GNOME-Autostart-enabled=false): off.
          return { openAtLogin: linux.fs.exists(linux.file) && !autostartDisabled(linux.fs.read(linux.file)), loginItemSupported: true };
        } catch {
          return { openAtLogin: false, loginItemSupported: true };
        }
      },
      set(openAtLogin) {
        if (openAtLogin) linux.fs.write(linux.file, linuxAutostartEntry(linux.command, linux.args));
        else linux.fs.remove(linux.file);
      },
    };
  }
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
  if (input.argv.includes(HIDDEN_ARG)) return true; // Windows login item, Linux autostart entry
  if (input.platform !== 'darwin') return false;
  try {
    return input.app.getLoginItemSettings().wasOpenedAtLogin === true;
  } catch {
    return false;
  }
}
