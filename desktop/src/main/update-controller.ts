/**
 * Updates of the packaged app with electron-updater (docs/desktop-release.md, "Publishing and
 * updates"; https://www.electron.build/auto-update): whether updates apply at all
 * ({@link updatesEnabled}), the automatic checks (10 s after start, then every 6 h), the manual
 * "Check for updates…" of the tray menu, the notifications telling their outcome, and "Restart to
 * update", which sets the quit flag before `quitAndInstall()` so hide-on-close does not hold it —
 * and takes it back, with "Could not install the update", when the install fails or no quit
 * follows within {@link INSTALL_QUIT_TIMEOUT_MS}.
 *
 * electron-updater's `autoUpdater` is injected (lazily: a disabled controller never touches it),
 * as are the timers, the file check and the notifications, so every rule is unit-tested with
 * the updater mocked. Reasons shown or logged never carry an address or a token
 * ({@link safeUpdateReason}).
 */

import { posix } from 'node:path';

/** First automatic check after start (ms). */
export const FIRST_CHECK_DELAY_MS = 10_000;
/** Then every 6 hours (ms). */
export const CHECK_INTERVAL_MS = 6 * 60 * 60 * 1000;
/** After "Restart to update", how long the app may take to start quitting before the install counts as failed (ms). */
export const INSTALL_QUIT_TIMEOUT_MS = 5_000;
/**
 * macOS: while Squirrel.Mac still fetches the update from electron-updater's local server (it quits
 * only once it has it), the wait is extended, up to this long in all (ms).
 */
export const SQUIRREL_FETCH_TIMEOUT_MS = 120_000;
/**
 * An `error` after `quitAndInstall()` returned (BaseUpdater: `install()` returned true — the
 * installer was spawned, NSIS spawn errors come later — and `app.quit()` is scheduled with
 * `setImmediate`): how long to wait for that quit before the install counts as failed (ms).
 */
export const DEFERRED_QUIT_GRACE_MS = 1_000;

/** The notification titles and bodies of the contract. */
export const UPDATE_TEXT = {
  upToDate: 'Avail is up to date',
  downloading: (version: string) => `${named(version)} is downloading`,
  ready: (version: string) => `${named(version)} is ready — restart to update`,
  checkFailed: 'Could not check for updates',
  downloadFailed: 'Could not download the update',
  installFailed: 'Could not install the update',
  /** The body when the install failed but the app is already quitting (electron-updater's scheduled quit). */
  closingAnyway: 'Avail will close; open it again to finish the update.',
} as const;

/** `Avail 1.2.3`, or `The Avail update` when the feed gave no usable version. */
function named(version: string): string {
  return version ? `Avail ${version}` : 'The Avail update';
}

/**
 * Where the updater stands, for the tray menu: `idle` (and `error`, after a failed check) offer
 * "Check for updates…"; `checking`, `downloading` and `installing` a disabled line; `ready` "Restart to update (v…)".
 */
export type UpdateState =
  | { kind: 'idle' }
  | { kind: 'checking' }
  | { kind: 'downloading'; /** '' when the feed gave no usable version. */ version: string }
  | { kind: 'ready'; version: string }
  /** "Restart to update" was chosen; waiting for the updater to quit the app ("Restarting to update…", disabled). */
  | { kind: 'installing'; version: string }
  | { kind: 'error' };

/** electron-updater's logger interface (`{ info, warn, error }`, optional `debug`). */
export interface UpdaterLogger {
  info(message?: unknown): void;
  warn(message?: unknown): void;
  error(message?: unknown): void;
  debug?(message: string): void;
}

/** The part of electron-updater's `AppUpdater` (its `autoUpdater`) the controller uses. */
export interface UpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  logger: UpdaterLogger | null;
  /** Resolves null when the updater is inactive; rejects (and emits `error`) on failure. */
  checkForUpdates(): Promise<unknown>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  /** MacUpdater only: false while Squirrel.Mac has not fetched the downloaded update yet. */
  readonly squirrelDownloadedUpdate?: boolean;
  /** `appimage-filename-updated` (AppImageUpdater, with the new file's path): the update was installed under another name. */
  on(
    event: 'checking-for-update' | 'update-available' | 'update-not-available' | 'download-progress' | 'update-downloaded' | 'error' | 'appimage-filename-updated',
    listener: (...args: any[]) => void,
  ): unknown;
}

/**
 * electron-updater's `autoUpdater` (its getter builds the platform's updater). Loaded only when
 * called — main.ts calls it only when updates apply (~680 kB of bundled code otherwise run at every
 * start); esbuild bundles electron-updater into `main.cjs` and runs it at this first `require`.
 * Throws when the module cannot be loaded or the updater not built (see {@link createUpdateController}).
 */
export function loadUpdater(): UpdaterLike {
  return (require('electron-updater') as typeof import('electron-updater')).autoUpdater;
}

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

/** Anything that looks like an address (scheme://…, or www.…) up to the next blank, quote or parenthesis, without trailing punctuation. */
const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>()]*[^\s"'<>().,;:!?]|\bwww\.[^\s"'<>()]*[^\s"'<>().,;:!?]/gi;
/** Credentials: `token=…`, `Authorization: …`, `Bearer …`, GitHub tokens, long opaque strings. */
const SECRET_PATTERNS: RegExp[] = [
  /\b(authorization|token|access_token|auth|password|secret|signature|x-amz-[a-z-]+)\s*[:=]\s*\S+/gi,
  /\b(bearer|basic|token)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\bgh[pousr]_[A-Za-z0-9]{10,}/g,
  /\b[A-Za-z0-9+/_-]{32,}={0,2}/g,
];

/**
 * A reason fit for a notification or a log line: the first line of the error's message (electron-
 * updater appends response headers and bodies below), addresses replaced by `(address)`,
 * credentials by `(hidden)`, at most 160 characters. Never empty ("unknown error").
 */
export function safeUpdateReason(error: unknown): string {
  const raw = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  let text = raw.split(/\r?\n/)[0] ?? '';
  text = text.replace(URL_PATTERN, '(address)');
  for (const p of SECRET_PATTERNS) text = text.replace(p, '(hidden)');
  text = text.replace(/\s+/g, ' ').trim();
  if (text.length > 160) text = `${text.slice(0, 159)}…`;
  return text || 'unknown error';
}

/** Timers, injectable so tests run on a fake clock. */
export interface UpdateTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(id: unknown): void;
}

export interface UpdateControllerDeps {
  environment: UpdateEnvironment;
  /** electron-updater's `autoUpdater` (main.ts: {@link loadUpdater}); called only when updates are enabled. May throw: updates are then off. */
  updater(): UpdaterLike;
  /** Shows a system notification (main.ts: `Notification`). */
  notify(n: { title: string; body: string }): void;
  /**
   * Runs right before `quitAndInstall()`: main.ts forgets an earlier `before-quit`, and on Linux
   * releases the single-instance lock (the new AppImage starts before this process exits and would
   * otherwise quit on the lock). The quit flag is set later, on Electron's `before-quit-for-update`.
   */
  beforeQuitAndInstall(): void;
  /** Undoes `beforeQuitAndInstall` when the install failed (main.ts: quit flag back to false, lock taken again — or, if another instance took it meanwhile, quit). */
  cancelQuit(): void;
  /** Whether the app has started quitting (main.ts: app `before-quit` seen); asked {@link INSTALL_QUIT_TIMEOUT_MS} after `quitAndInstall()`. */
  quitting(): boolean;
  /** The AppImage updater installed the update under a new file name (`appimage-filename-updated`): main.ts points the autostart entry there. */
  onAppImageRenamed?(newPath: string): void;
  /** Called after every state change (main.ts: redraw the tray menu). */
  onChange(): void;
  log(message: string): void;
  timers?: UpdateTimers;
}

export interface UpdateController {
  /** Whether updates apply to this copy (see {@link updatesEnabled}). */
  readonly enabled: boolean;
  /** The state for the tray menu; null when updates are disabled (no menu item at all). */
  state(): UpdateState | null;
  /**
   * "Check for updates…": starts a check unless one is running or an update is downloading or
   * ready (then it only marks the running check as manual); its outcome is notified.
   * Does nothing when updates are disabled.
   */
  checkNow(): void;
  /**
   * "Restart to update": state `installing`, `beforeQuitAndInstall()`, then `quitAndInstall()`; only
   * when an update is ready. When the updater reports an error, `quitAndInstall()` throws, or the app
   * has not started quitting {@link INSTALL_QUIT_TIMEOUT_MS} later (on macOS, while Squirrel.Mac still
   * fetches the update, up to {@link SQUIRREL_FETCH_TIMEOUT_MS}): `cancelQuit()`, "Could not install
   * the update" with the reason, state `error`. An error after `quitAndInstall()` returned (not
   * Squirrel.Mac) waits up to {@link DEFERRED_QUIT_GRACE_MS} for the quit electron-updater scheduled:
   * if the app is quitting by then it is let go ("Could not install the update" — "Avail will close;
   * open it again to finish the update."), else the same as above.
   */
  restartToUpdate(): void;
  /** Stops the timers. */
  dispose(): void;
}

/**
 * Creates the controller. Disabled ({@link updatesEnabled}): logs `updates: off (<reason>)` once and
 * does nothing else (no updater, no timer, `state()` null). Enabled: sets `autoDownload` and
 * `autoInstallOnAppQuit` to true, gives the updater a logger that writes through `log` with
 * addresses and tokens removed, listens to its events and schedules the first automatic check
 * after {@link FIRST_CHECK_DELAY_MS}, then one every {@link CHECK_INTERVAL_MS}.
 *
 * Automatic checks are silent except "Avail x.y.z is ready — restart to update"; a manual check
 * notifies "Avail is up to date", "Avail x.y.z is downloading", or "Could not check for updates"
 * with {@link safeUpdateReason}. Never two checks at once; none once an update is downloading or ready.
 */
export function createUpdateController(deps: UpdateControllerDeps): UpdateController {
  const decision = updatesEnabled(deps.environment);
  const off = (reason: string): UpdateController => {
    deps.log(`updates: off (${reason})`);
    return { enabled: false, state: () => null, checkNow: () => undefined, restartToUpdate: () => undefined, dispose: () => undefined };
  };
  if (!decision.enabled) return off(decision.reason);
  const timers: UpdateTimers = deps.timers ?? {
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
    setInterval: (fn, ms) => setInterval(fn, ms),
    clearInterval: (id) => clearInterval(id as ReturnType<typeof setInterval>),
  };
  const quiet = (level: string) => (message?: unknown) => deps.log(`updater ${level}: ${safeUpdateReason(message instanceof Error ? message : String(message ?? ''))}`);
  let updater: UpdaterLike;
  try {
    // Loading electron-updater and building the platform's updater can throw (a broken bundle, an unreadable app-update.yml).
    updater = deps.updater();
    updater.autoDownload = true;
    updater.autoInstallOnAppQuit = true;
    updater.logger = { info: quiet('info'), warn: quiet('warn'), error: quiet('error') };
  } catch (e) {
    return off(`the updater could not be loaded: ${safeUpdateReason(e)}`);
  }

  let state: UpdateState = { kind: 'idle' };
  /** A check (its promise) is running. */
  let inFlight = false;
  /** The current cycle was asked for from the menu: its outcome is notified. */
  let manual = false;
  let readyNotified: string | null = null;
  let firstTimer: unknown = null;
  let interval: unknown = null;
  let disposed = false;
  /** Set by "Restart to update" until the quit starts or the install fails. */
  let installTimer: unknown = null;
  let quitRequested = false;
  /** `quitAndInstall()` returned without throwing: a later error may come with a quit already scheduled. */
  let installReturned = false;
  /** Waiting {@link DEFERRED_QUIT_GRACE_MS} for that quit after such an error. */
  let graceTimer: unknown = null;

  function set(next: UpdateState): void {
    state = next;
    deps.onChange();
  }

  function fail(error: unknown): void {
    const reason = safeUpdateReason(error);
    const title = state.kind === 'downloading' ? UPDATE_TEXT.downloadFailed : UPDATE_TEXT.checkFailed;
    deps.log(`updates: ${title.toLowerCase()}: ${reason}`);
    if (manual) deps.notify({ title, body: reason });
    manual = false;
    set({ kind: 'error' });
  }

  const versionOf = (info: unknown): string => {
    const v = (info as { version?: unknown } | null)?.version;
    return typeof v === 'string' && /^[0-9A-Za-z.+-]{1,40}$/.test(v) ? v : '';
  };

  updater.on('checking-for-update', () => {
    if (state.kind !== 'checking') set({ kind: 'checking' });
  });
  updater.on('update-available', (info: unknown) => {
    const version = versionOf(info);
    if (manual) deps.notify({ title: UPDATE_TEXT.downloading(version), body: 'It installs when you restart Avail.' });
    set({ kind: 'downloading', version });
  });
  updater.on('update-not-available', () => {
    if (manual) deps.notify({ title: UPDATE_TEXT.upToDate, body: 'You have the latest version.' });
    manual = false;
    set({ kind: 'idle' });
  });
  updater.on('update-downloaded', (info: unknown) => {
    const version = versionOf(info);
    manual = false;
    if (readyNotified !== version) {
      readyNotified = version;
      deps.notify({ title: UPDATE_TEXT.ready(version), body: 'Choose "Restart to update" in the Avail tray menu.' });
    }
    set({ kind: 'ready', version });
  });
  /** The install did not happen: the quit flag back, the owner told why, "Check for updates…" again. */
  function installFailed(error: unknown): void {
    stopInstallTimers();
    if (quitRequested) {
      quitRequested = false;
      installReturned = false;
      deps.cancelQuit();
    }
    const reason = safeUpdateReason(error);
    deps.log(`updates: could not install the update: ${reason}`);
    deps.notify({ title: UPDATE_TEXT.installFailed, body: reason });
    manual = false;
    set({ kind: 'error' });
  }

  function stopInstallTimers(): void {
    if (installTimer !== null) timers.clearTimeout(installTimer);
    if (graceTimer !== null) timers.clearTimeout(graceTimer);
    installTimer = graceTimer = null;
  }

  /** The install failed but the app is already quitting (electron-updater's scheduled quit): let it close, say so. */
  function closingAnyway(error: unknown): void {
    stopInstallTimers();
    deps.log(`updates: could not install the update, Avail is closing anyway: ${safeUpdateReason(error)}`);
    deps.notify({ title: UPDATE_TEXT.installFailed, body: UPDATE_TEXT.closingAnyway });
  }

  /** An error while installing: see {@link UpdateController.restartToUpdate}. */
  function installError(error: unknown): void {
    if (!quitRequested || !installReturned || updater.squirrelDownloadedUpdate !== undefined) return installFailed(error);
    if (deps.quitting()) return closingAnyway(error);
    if (graceTimer !== null) return; // already waiting for the scheduled quit
    graceTimer = timers.setTimeout(() => {
      graceTimer = null;
      if (deps.quitting()) closingAnyway(error);
      else installFailed(error);
    }, DEFERRED_QUIT_GRACE_MS);
  }

  updater.on('error', (error: unknown) => {
    // With an update downloaded, an error is about installing it (BaseUpdater.install, Squirrel.Mac).
    if (state.kind === 'ready' || state.kind === 'installing') installError(error);
    else fail(error);
  });
  updater.on('appimage-filename-updated', (newPath: unknown) => {
    if (typeof newPath !== 'string' || !newPath) return;
    deps.log('updates: the AppImage was installed under a new file name');
    deps.onAppImageRenamed?.(newPath);
  });

  function check(isManual: boolean): void {
    if (disposed) return;
    if (isManual) manual = true;
    if (inFlight || state.kind === 'checking' || state.kind === 'downloading' || state.kind === 'ready' || state.kind === 'installing') return;
    inFlight = true;
    set({ kind: 'checking' });
    let result: Promise<unknown>;
    try {
      result = Promise.resolve(updater.checkForUpdates());
    } catch (e) {
      result = Promise.reject(e);
    }
    result.then(
      (r) => {
        inFlight = false;
        // With autoDownload the result carries the download's promise; its failure is reported by
        // the `error` event, so it is caught here (else: an unhandled rejection with addresses on stderr).
        const download = (r as { downloadPromise?: unknown } | null)?.downloadPromise;
        if (download && typeof (download as PromiseLike<unknown>).then === 'function') Promise.resolve(download).catch(() => undefined);
        // Inactive updater (null) or no event came: back to idle, silently.
        if (state.kind === 'checking') {
          if (r === null) deps.log('updates: the updater is inactive');
          manual = false;
          set({ kind: 'idle' });
        }
      },
      (e: unknown) => {
        inFlight = false;
        if (state.kind === 'checking' || state.kind === 'downloading') fail(e);
      },
    );
  }

  firstTimer = timers.setTimeout(() => {
    firstTimer = null;
    check(false);
    if (!disposed) interval = timers.setInterval(() => check(false), CHECK_INTERVAL_MS);
  }, FIRST_CHECK_DELAY_MS);

  return {
    enabled: true,
    state: () => state,
    checkNow: () => check(true),
    restartToUpdate() {
      if (state.kind !== 'ready' || quitRequested) return;
      quitRequested = true;
      installReturned = false;
      set({ kind: 'installing', version: state.version });
      deps.beforeQuitAndInstall();
      let waited = 0;
      const watch = () => {
        installTimer = timers.setTimeout(() => {
          installTimer = null;
          waited += INSTALL_QUIT_TIMEOUT_MS;
          if (deps.quitting()) return;
          // macOS: Squirrel.Mac quits once it has fetched the update; give it time (its errors arrive as `error`).
          if (updater.squirrelDownloadedUpdate === false && waited < SQUIRREL_FETCH_TIMEOUT_MS) watch();
          else installFailed(new Error('Avail did not restart'));
        }, INSTALL_QUIT_TIMEOUT_MS);
      };
      watch();
      try {
        updater.quitAndInstall();
        if (quitRequested) installReturned = true;
      } catch (e) {
        installFailed(e);
      }
    },
    dispose() {
      disposed = true;
      stopInstallTimers();
      if (firstTimer !== null) timers.clearTimeout(firstTimer);
      if (interval !== null) timers.clearInterval(interval);
      firstTimer = interval = null;
    },
  };
}
