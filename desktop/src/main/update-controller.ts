/**
 * Updates of the packaged app with electron-updater (docs/desktop-release.md, "Publishing and
 * updates"; https://www.electron.build/auto-update), the front door main.ts uses: whether updates
 * apply at all ({@link updatesEnabled}, update-environment.ts), the check phase (automatic checks
 * 10 s after start, then every 6 h, the manual "Check for updates…" and the notifications telling
 * their outcome: update-checks.ts), and the install phase ("Restart to update", taken back with
 * "Could not install the update" when the install fails or no quit follows: update-install.ts).
 * The state both phases share and the texts are in update-cycle.ts.
 *
 * electron-updater's `autoUpdater` is injected (lazily: a disabled controller never touches it),
 * as are the timers, the file check and the notifications, so every rule is unit-tested with
 * the updater mocked (updater.ts). Reasons shown or logged never carry an address or a token
 * ({@link safeUpdateReason}, update-reason.ts).
 */
import { createUpdateChecks } from './update-checks.ts';
import { createUpdateCycle, type UpdateState } from './update-cycle.ts';
import { updatesEnabled, type UpdateEnvironment } from './update-environment.ts';
import { createUpdateInstall } from './update-install.ts';
import { safeUpdateReason } from './update-reason.ts';
import { systemTimers, type UpdaterLike, type UpdateTimers } from './updater.ts';

export interface UpdateControllerDeps {
  environment: UpdateEnvironment;
  /** electron-updater's `autoUpdater` (main.ts: `loadUpdater`, updater.ts); called only when updates are enabled. May throw: updates are then off. */
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
  /** Whether the app has started quitting (main.ts: app `before-quit` seen); asked `INSTALL_QUIT_TIMEOUT_MS` (update-install.ts) after `quitAndInstall()`. */
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
   * has not started quitting `INSTALL_QUIT_TIMEOUT_MS` (update-install.ts) later (on macOS, while Squirrel.Mac still
   * fetches the update, up to `SQUIRREL_FETCH_TIMEOUT_MS`): `cancelQuit()`, "Could not install
   * the update" with the reason, state `error`. An error after `quitAndInstall()` returned (not
   * Squirrel.Mac) waits up to `DEFERRED_QUIT_GRACE_MS` for the quit electron-updater scheduled:
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
 * after `FIRST_CHECK_DELAY_MS`, then one every `CHECK_INTERVAL_MS` (update-checks.ts).
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
  const timers: UpdateTimers = deps.timers ?? systemTimers;
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

  const cycle = createUpdateCycle(() => deps.onChange());
  const phase = { updater, cycle, timers, notify: (n: { title: string; body: string }) => deps.notify(n), log: (message: string) => deps.log(message) };
  const checks = createUpdateChecks(phase);
  const install = createUpdateInstall({
    ...phase,
    beforeQuitAndInstall: () => deps.beforeQuitAndInstall(),
    cancelQuit: () => deps.cancelQuit(),
    quitting: () => deps.quitting(),
  });

  updater.on('error', (error: unknown) => {
    // With an update downloaded, an error is about installing it (BaseUpdater.install, Squirrel.Mac).
    const kind = cycle.state().kind;
    if (kind === 'ready' || kind === 'installing') install.error(error);
    else checks.fail(error);
  });
  updater.on('appimage-filename-updated', (newPath: unknown) => {
    if (typeof newPath !== 'string' || !newPath) return;
    deps.log('updates: the AppImage was installed under a new file name');
    deps.onAppImageRenamed?.(newPath);
  });
  checks.start();

  return {
    enabled: true,
    state: () => cycle.state(),
    checkNow: () => checks.check(true),
    restartToUpdate: () => install.restartToUpdate(),
    dispose() {
      checks.dispose();
      install.dispose();
    },
  };
}
