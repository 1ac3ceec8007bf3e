/**
 * The check phase of the update controller (update-controller.ts): the automatic checks (10 s after
 * start, then every 6 h), the manual "Check for updates…", the download electron-updater starts
 * on its own (`autoDownload`), and the notifications telling their outcome. Automatic checks are
 * silent except "Avail x.y.z is ready — restart to update"; a manual check notifies "Avail is up to
 * date", "Avail x.y.z is downloading", or "Could not check for updates" with the reason
 * ({@link safeUpdateReason}). Never two checks at once; none once an update is downloading or ready.
 */
import { UPDATE_TEXT, type UpdateCycle } from './update-cycle.ts';
import { safeUpdateReason } from './update-reason.ts';
import type { UpdaterLike, UpdateTimers } from './updater.ts';

/** First automatic check after start (ms). */
export const FIRST_CHECK_DELAY_MS = 10_000;
/** Then every 6 hours (ms). */
export const CHECK_INTERVAL_MS = 6 * 60 * 60 * 1000;

/** What the check phase works with (given by update-controller.ts). */
export interface UpdateChecksDeps {
  updater: UpdaterLike;
  cycle: UpdateCycle;
  timers: UpdateTimers;
  /** Shows a system notification. */
  notify(n: { title: string; body: string }): void;
  log(message: string): void;
}

export interface UpdateChecks {
  /** Schedules the first automatic check after {@link FIRST_CHECK_DELAY_MS}, then one every {@link CHECK_INTERVAL_MS}. */
  start(): void;
  /**
   * A check; `isManual` (the menu) marks the cycle as manual even when none starts (one running,
   * an update downloading, ready or installing). Nothing after {@link UpdateChecks.dispose}.
   */
  check(isManual: boolean): void;
  /** A failed check or download (an updater `error` with no update downloaded): logged, notified when manual, state `error`. */
  fail(error: unknown): void;
  /** Stops the timers; no check runs afterwards. */
  dispose(): void;
}

/** The feed's version when it is a plain version string (no markup, no address), else ''. */
const versionOf = (info: unknown): string => {
  const v = (info as { version?: unknown } | null)?.version;
  return typeof v === 'string' && /^[0-9A-Za-z.+-]{1,40}$/.test(v) ? v : '';
};

/** Listens to the updater's check and download events; the timers start with {@link UpdateChecks.start}. */
export function createUpdateChecks(deps: UpdateChecksDeps): UpdateChecks {
  const { updater, cycle, timers } = deps;
  /** A check (its promise) is running. */
  let inFlight = false;
  let readyNotified: string | null = null;
  let firstTimer: unknown = null;
  let interval: unknown = null;
  let disposed = false;

  function fail(error: unknown): void {
    const reason = safeUpdateReason(error);
    const title = cycle.state().kind === 'downloading' ? UPDATE_TEXT.downloadFailed : UPDATE_TEXT.checkFailed;
    deps.log(`updates: ${title.toLowerCase()}: ${reason}`);
    if (cycle.manual) deps.notify({ title, body: reason });
    cycle.manual = false;
    cycle.set({ kind: 'error' });
  }

  updater.on('checking-for-update', () => {
    if (cycle.state().kind !== 'checking') cycle.set({ kind: 'checking' });
  });
  updater.on('update-available', (info: unknown) => {
    const version = versionOf(info);
    if (cycle.manual) deps.notify({ title: UPDATE_TEXT.downloading(version), body: 'It installs when you restart Avail.' });
    cycle.set({ kind: 'downloading', version });
  });
  updater.on('update-not-available', () => {
    if (cycle.manual) deps.notify({ title: UPDATE_TEXT.upToDate, body: 'You have the latest version.' });
    cycle.manual = false;
    cycle.set({ kind: 'idle' });
  });
  updater.on('update-downloaded', (info: unknown) => {
    const version = versionOf(info);
    cycle.manual = false;
    if (readyNotified !== version) {
      readyNotified = version;
      deps.notify({ title: UPDATE_TEXT.ready(version), body: 'Choose "Restart to update" in the Avail tray menu.' });
    }
    cycle.set({ kind: 'ready', version });
  });

  function check(isManual: boolean): void {
    if (disposed) return;
    if (isManual) cycle.manual = true;
    const kind = cycle.state().kind;
    if (inFlight || kind === 'checking' || kind === 'downloading' || kind === 'ready' || kind === 'installing') return;
    inFlight = true;
    cycle.set({ kind: 'checking' });
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
        if (cycle.state().kind === 'checking') {
          if (r === null) deps.log('updates: the updater is inactive');
          cycle.manual = false;
          cycle.set({ kind: 'idle' });
        }
      },
      (e: unknown) => {
        inFlight = false;
        const now = cycle.state().kind;
        if (now === 'checking' || now === 'downloading') fail(e);
      },
    );
  }

  return {
    start() {
      firstTimer = timers.setTimeout(() => {
        firstTimer = null;
        check(false);
        if (!disposed) interval = timers.setInterval(() => check(false), CHECK_INTERVAL_MS);
      }, FIRST_CHECK_DELAY_MS);
    },
    check,
    fail,
    dispose() {
      disposed = true;
      if (firstTimer !== null) timers.clearTimeout(firstTimer);
      if (interval !== null) timers.clearInterval(interval);
      firstTimer = interval = null;
    },
  };
}
