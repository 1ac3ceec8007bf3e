/**
 * Owns the tray icon's menu and tooltip: keeps the last {@link TrayState} the renderer sent,
 * rebuilds menu + tooltip when a new state arrives and at every minute boundary (the label says
 * "until 15:30" and "today", which age without a new state), copies through an injected
 * clipboard and forwards the tray's commands to the renderer through an injected `send`.
 *
 * Electron pages followed: https://www.electronjs.org/docs/latest/api/tray (setContextMenu,
 * setToolTip) and https://www.electronjs.org/docs/latest/api/clipboard (writeText).
 */
import type { MenuItemConstructorOptions } from 'electron';
import { proposalRoute, signedOutTrayState, type DesktopCommand, type TrayState } from '@avail/shared/desktop/desktop-bridge.ts';
import { MINUTE_MS } from '@avail/shared/domain/zone-time.ts';
import { trayMenuTemplate, type LoginItemState } from './tray-menu.ts';
import { freeTimesTextCurrent, trayStatusText, trayTitleText } from './tray-label.ts';
import type { UpdateState } from './update-cycle.ts';

/** The part of Electron's `Tray` the controller uses. */
interface TrayLike<M> {
  setContextMenu(menu: M | null): void;
  setToolTip(text: string): void;
  /** macOS only: the text beside the icon in the menu bar. */
  setTitle?(title: string, options?: { fontType?: 'monospaced' | 'monospacedDigit' }): void;
}

/** The "Show next free time in the menu bar" preference (server-setting-store.ts keeps it in desktop-config.json). */
interface MenuBarTextPreference {
  get(): boolean;
  set(on: boolean): void;
}

/** The updater as the menu needs it (update-controller.ts). */
export interface TrayUpdates {
  /** null: updates are off here (no menu item). */
  state(): UpdateState | null;
  checkNow(): void;
  restartToUpdate(): void;
}

/** The start-at-login switch (see `login-item.ts`). */
export interface LoginItemControl {
  get(): LoginItemState;
  set(openAtLogin: boolean): void;
}

/** Timers, injectable so tests run on a fake clock. */
interface ControllerTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
}

export interface TrayControllerDeps<M> {
  tray: TrayLike<M>;
  /** `Menu.buildFromTemplate`. */
  buildMenu(template: MenuItemConstructorOptions[]): M;
  clipboard: { writeText(text: string): void };
  /**
   * Sends a command to the renderer. Busy blocks (stamped here with the click instant `at`) and
   * proposal decisions go to `tray-command-queue.ts` in main.ts, which keeps them until the
   * renderer's database is open; the rest are dropped when the window is gone.
   */
  send(command: DesktopCommand): void;
  /**
   * The state to show until the renderer reports (issue 25: the last known state,
   * `tray-state-store.ts`); default the signed-out state ("Not signed in").
   */
  initialState?: TrayState | null;
  /** Called with every state the tray adopts (after merging, see `setState`), e.g. to keep it on disk. */
  onState?(state: TrayState): void;
  /** How many tray commands wait for the device database (shown in the menu). Default 0. */
  waitingCount?(): number;
  /** Shows and focuses the app window (creating/restoring it as needed). */
  showWindow(): void;
  /** Quits the app for real (not just hiding the window). */
  quit(): void;
  loginItem: LoginItemControl;
  /** Current instant, UTC epoch ms. Default `Date.now`. */
  now?: () => number;
  timers?: ControllerTimers;
  /** `process.platform`: the menu-bar text and its checkbox exist only on `darwin`. Default `process.platform`. */
  platform?: NodeJS.Platform;
  /** The menu-bar text option (macOS); absent: never offered. */
  menuBarText?: MenuBarTextPreference;
  /** Update items (issue 27); absent: none. */
  updates?: TrayUpdates;
}

export interface TrayController {
  /**
   * Replaces the state (already validated by the IPC layer) and redraws at once. A signed-in
   * `syncing` state (the renderer knows the owner but has not read its data yet, issue 25) keeps
   * the windows, free-times text, their `computedAt` and the proposals of the state shown before,
   * when that was signed in, and takes the rest (zone, link, connection, pending count) from the
   * renderer.
   */
  setState(state: TrayState): void;
  /** The state shown now (merged as `setState` says), or null before the renderer sent one. */
  state(): TrayState | null;
  /** Redraws menu and tooltip from the last state at the current instant. */
  refresh(): void;
  /** Stops the minute timer. */
  dispose(): void;
}

/**
 * The state the tray shows when the renderer reports `incoming` while `shown` is on screen (see
 * {@link TrayController.setState}). Pure.
 */
function mergeTrayState(shown: TrayState, incoming: TrayState): TrayState {
  if (!incoming.signedIn || !incoming.syncing || !shown.signedIn) return incoming;
  return {
    ...incoming,
    windows: shown.windows,
    freeTimesText: shown.freeTimesText,
    computedAt: shown.computedAt,
    ...(shown.proposals ? { proposals: shown.proposals } : {}),
    syncing: true,
  };
}

/**
 * On macOS (`platform`), with `menuBarText` on, the tray's title (`tray.setTitle`) is the short
 * {@link trayTitleText} ("Free until 15:30"), redrawn with the menu; off, it is `''`. Elsewhere
 * `setTitle` is never called. `updates` adds the update item (tray-menu.ts).
 *
 * Creates the controller, draws the initial menu — `initialState` (the last known state, shown
 * as "Syncing…"), else the signed-out state (`signedOutTrayState`: "Not signed in", Open Avail,
 * Quit) until the renderer reports — and starts the minute timer, aligned to the next minute
 * boundary of `now()` and re-aligned after each tick.
 */
export function createTrayController<M>(deps: TrayControllerDeps<M>): TrayController {
  const now = deps.now ?? Date.now;
  const timers: ControllerTimers = deps.timers ?? {
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
  };
  let last: TrayState = deps.initialState ?? signedOutTrayState(now());
  let reported = false;
  let timer: unknown = null;
  let disposed = false;

  const handlers = {
    openWindow: () => deps.showWindow(),
    copyLink: () => {
      if (last.signedIn && last.link) deps.clipboard.writeText(last.link);
    },
    copyFreeTimes: () => {
      if (last.signedIn && last.freeTimesText && freeTimesTextCurrent(last, now())) deps.clipboard.writeText(last.freeTimesText);
    },
    // Stamped with the click: a block that waits for the device database still starts now.
    busy: (duration: Extract<DesktopCommand, { type: 'busy' }>['duration']) => {
      deps.send({ type: 'busy', duration, at: now() });
      refresh(); // the "waiting" count
    },
    syncNow: () => deps.send({ type: 'sync-now' }),
    // Only a proposal the tray lists (the menu may be a minute old; the renderer checks again).
    proposal: (id: string, action: 'confirm' | 'decline') => {
      if (last.signedIn && last.proposals?.some((p) => p.id === id)) {
        deps.send({ type: 'proposal', id, action });
        refresh();
      }
    },
    openProposal: (id: string) => {
      deps.showWindow();
      deps.send({ type: 'navigate', route: proposalRoute(id) });
    },
    setOpenAtLogin: (openAtLogin: boolean) => {
      deps.loginItem.set(openAtLogin);
      refresh();
    },
    quit: () => deps.quit(),
    checkForUpdates: () => deps.updates?.checkNow(),
    restartToUpdate: () => deps.updates?.restartToUpdate(),
    setShowInMenuBar: (on: boolean) => {
      deps.menuBarText?.set(on);
      refresh();
    },
  };
  const menuBarText = (deps.platform ?? process.platform) === 'darwin' ? deps.menuBarText : undefined;
  let shownTitle: string | null = null;

  function refresh(): void {
    const t = now();
    deps.tray.setToolTip(trayStatusText(last, t));
    const options = { update: deps.updates?.state() ?? null, showInMenuBar: menuBarText ? menuBarText.get() : null };
    deps.tray.setContextMenu(deps.buildMenu(trayMenuTemplate(last, t, deps.loginItem.get(), handlers, deps.waitingCount?.() ?? 0, options)));
    if (menuBarText) {
      // Only on a change: macOS re-lays out the menu bar for each title.
      const title = menuBarText.get() ? trayTitleText(last, t) : '';
      if (title !== shownTitle) {
        shownTitle = title;
        deps.tray.setTitle?.(title, { fontType: 'monospacedDigit' });
      }
    }
  }

  function schedule(): void {
    if (disposed) return;
    const t = now();
    const wait = MINUTE_MS - (((t % MINUTE_MS) + MINUTE_MS) % MINUTE_MS);
    timer = timers.setTimeout(() => {
      timer = null;
      refresh();
      schedule();
    }, wait);
  }

  refresh();
  schedule();

  return {
    setState(state) {
      last = mergeTrayState(last, state);
      reported = true;
      deps.onState?.(last);
      refresh();
    },
    state: () => (reported ? last : null),
    refresh,
    dispose() {
      disposed = true;
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
    },
  };
}
