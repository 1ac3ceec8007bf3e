/**
 * The install phase of the update controller (update-controller.ts): "Restart to update", which
 * runs `beforeQuitAndInstall()` (main.ts) before electron-updater's `quitAndInstall()` — and takes
 * it back with `cancelQuit()` and "Could not install the update" when the install fails or no quit
 * follows within {@link INSTALL_QUIT_TIMEOUT_MS}. On macOS the wait goes on while Squirrel.Mac still
 * fetches the update (up to {@link SQUIRREL_FETCH_TIMEOUT_MS}); an error after `quitAndInstall()`
 * returned waits {@link DEFERRED_QUIT_GRACE_MS} for the quit electron-updater scheduled.
 */
import { UPDATE_TEXT, type UpdateCycle } from './update-cycle.ts';
import { safeUpdateReason } from './update-reason.ts';
import type { UpdaterLike, UpdateTimers } from './updater.ts';

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

/** What the install phase works with (given by update-controller.ts; see its `UpdateControllerDeps`). */
export interface UpdateInstallDeps {
  updater: UpdaterLike;
  cycle: UpdateCycle;
  timers: UpdateTimers;
  notify(n: { title: string; body: string }): void;
  log(message: string): void;
  /** Runs right before `quitAndInstall()`. */
  beforeQuitAndInstall(): void;
  /** Undoes `beforeQuitAndInstall` when the install failed. */
  cancelQuit(): void;
  /** Whether the app has started quitting. */
  quitting(): boolean;
}

export interface UpdateInstall {
  /** "Restart to update" (see `UpdateController.restartToUpdate`); only when an update is ready. */
  restartToUpdate(): void;
  /** An updater `error` while an update is ready or installing: an install failure (or, after a scheduled quit, a close anyway). */
  error(error: unknown): void;
  /** Stops the install's timers. */
  dispose(): void;
}

/** The install phase of one controller. */
export function createUpdateInstall(deps: UpdateInstallDeps): UpdateInstall {
  const { updater, cycle, timers } = deps;
  /** Set by "Restart to update" until the quit starts or the install fails. */
  let installTimer: unknown = null;
  let quitRequested = false;
  /** `quitAndInstall()` returned without throwing: a later error may come with a quit already scheduled. */
  let installReturned = false;
  /** Waiting {@link DEFERRED_QUIT_GRACE_MS} for that quit after such an error. */
  let graceTimer: unknown = null;

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
    cycle.manual = false;
    cycle.set({ kind: 'error' });
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

  /** An error while installing: see `UpdateController.restartToUpdate`. */
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

  return {
    restartToUpdate() {
      const state = cycle.state();
      if (state.kind !== 'ready' || quitRequested) return;
      quitRequested = true;
      installReturned = false;
      cycle.set({ kind: 'installing', version: state.version });
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
    error: installError,
    dispose: stopInstallTimers,
  };
}
