/**
 * The Linux autostart entry of this copy of the app (main.ts hands it to login-item.ts): the XDG
 * file `$XDG_CONFIG_HOME/autostart/avail.desktop` (https://specifications.freedesktop.org/autostart-spec/latest/,
 * `~/.config` when the variable is unset), the program it starts — the AppImage this process runs
 * from (update-environment.ts) or the installed binary — and the real file system behind it.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { retargetLinuxAutostart, type LinuxAutostart } from './login-item.ts';
import { runningAppImage } from './update-environment.ts';

/** Where the entry lives and what it starts (read from the process and Electron's `app`). */
export interface LinuxAutostartInput {
  /** `process.env` (`XDG_CONFIG_HOME`, and `APPIMAGE`/`APPDIR` for the AppImage). */
  env: Record<string, string | undefined>;
  /** `app.getPath('home')`; asked only when `XDG_CONFIG_HOME` is unset. */
  home(): string;
  /** `process.execPath`. */
  execPath: string;
  /** `app.isPackaged`. */
  isPackaged: boolean;
  /** `app.getAppPath()`; asked only in development, where `electron` needs the app folder. */
  appPath(): string;
}

/** The XDG autostart entry of "Start at login" on Linux: the AppImage or installed binary, `--hidden`. */
export function linuxAutostart(input: LinuxAutostartInput): LinuxAutostart {
  const configHome = input.env.XDG_CONFIG_HOME || join(input.home(), '.config');
  return {
    fs: {
      exists: (file: string) => existsSync(file),
      read: (file: string) => readFileSync(file, 'utf8'),
      write: (file: string, text: string) => {
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, text, { mode: 0o644 });
      },
      remove: (file: string) => rmSync(file, { force: true }),
    },
    file: join(configHome, 'autostart', 'avail.desktop'),
    command: runningAppImage(input.env, input.execPath) ?? input.execPath,
    // In development `electron` needs the app folder.
    args: input.isPackaged ? [] : [input.appPath()],
  };
}

/**
 * An existing autostart entry made to start `entry.command` (an AppImage renamed by an update or
 * moved by its owner), its on/off lines kept; nothing when there is none or its program already is
 * that file (login-item.ts). Never throws: one log line when it was rewritten or could not be.
 * Linux only in effect.
 */
export function retargetAutostart(entry: LinuxAutostart, log: (message: string) => void): void {
  try {
    if (!retargetLinuxAutostart(entry)) return;
    log('start at login: the autostart entry now starts the current AppImage');
  } catch {
    log('start at login: could not update the autostart entry');
  }
}
