/**
 * Whether this copy of the app updates itself at all (update-controller.ts; docs/desktop-release.md,
 * "Publishing and updates"): packaged, built with a publish provider, not from an app store, and on
 * Linux only as an AppImage — which {@link runningAppImage} detects (main.ts also uses it to keep
 * "Start at login" pointing at the AppImage file). Pure apart from the injected file check.
 */
import { posix } from 'node:path';

/** What decides whether updates apply (see {@link updatesEnabled}). */
export interface UpdateEnvironment {
  /** `app.isPackaged`. */
  isPackaged: boolean;
  /** `process.platform`. */
  platform: NodeJS.Platform;
  /** `process.env` (only `APPIMAGE` and `APPDIR` are read). */
  env: Record<string, string | undefined>;
  /** `process.execPath`: on Linux it must lie inside `APPDIR` (see {@link runningAppImage}). */
  execPath: string;
  /** `process.mas`: a Mac App Store build (the store updates it). */
  mas?: boolean;
  /** `process.windowsStore`: a Microsoft Store build (the store updates it). */
  windowsStore?: boolean;
  /** Whether `<resourcesPath>/app-update.yml` exists (electron-builder writes it only with a `publish` provider). */
  hasUpdateConfig(): boolean;
}

/**
 * The AppImage file this process runs from, or null when it is not one: `APPIMAGE` and `APPDIR` are
 * set (by the AppImage runtime) and `execPath` lies inside `APPDIR` (the mounted image). A bare
 * `APPIMAGE` may be inherited from an AppImage'd parent (a terminal or launcher started from one),
 * so it alone does not count. Pure; POSIX paths (Linux only).
 */
export function runningAppImage(env: Record<string, string | undefined>, execPath: string): string | null {
  const image = env.APPIMAGE;
  const dir = env.APPDIR;
  if (!image || !dir || !posix.isAbsolute(image) || !posix.isAbsolute(dir) || !posix.isAbsolute(execPath)) return null;
  const inside = posix.relative(posix.normalize(dir), posix.normalize(execPath));
  return inside !== '' && !inside.startsWith('..') && !posix.isAbsolute(inside) ? image : null;
}

/**
 * Whether this copy of the app updates itself: only packaged, with `app-update.yml` (a build with a
 * publish provider), on Linux only as an AppImage ({@link runningAppImage}: deb/rpm/snap/flatpak are
 * updated by the system's package manager), never from the Mac App Store or the Microsoft Store.
 * `reason` (for one log line) says why not. Pure apart from `hasUpdateConfig`.
 */
export function updatesEnabled(e: UpdateEnvironment): { enabled: true } | { enabled: false; reason: string } {
  if (!e.isPackaged) return { enabled: false, reason: 'not packaged (development run)' };
  if (e.mas) return { enabled: false, reason: 'Mac App Store build (the store updates it)' };
  if (e.windowsStore) return { enabled: false, reason: 'Microsoft Store build (the store updates it)' };
  if (e.platform === 'linux' && !runningAppImage(e.env, e.execPath)) return { enabled: false, reason: 'not an AppImage (the system package manager updates it)' };
  if (!e.hasUpdateConfig()) return { enabled: false, reason: 'no app-update.yml (built without a publish provider)' };
  return { enabled: true };
}
