/**
 * What the update phases share (update-controller.ts): where the updater stands for the tray menu
 * ({@link UpdateState}), whether the running cycle was asked for from the menu (its outcome is then
 * notified), and the notification texts. The check phase (update-checks.ts) and the install phase
 * (update-install.ts) both read and write it; every change redraws the tray menu.
 */

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

/** The state of one controller, shared by its phases. */
export interface UpdateCycle {
  /** The state now (`idle` at first). */
  state(): UpdateState;
  /** Sets the state, then calls `onChange` (main.ts: redraw the tray menu). */
  set(next: UpdateState): void;
  /** The current cycle was asked for from the menu: its outcome is notified. */
  manual: boolean;
}

/** A cycle in state `idle`, not manual; `onChange` runs after every {@link UpdateCycle.set}. */
export function createUpdateCycle(onChange: () => void): UpdateCycle {
  let state: UpdateState = { kind: 'idle' };
  return {
    state: () => state,
    set(next) {
      state = next;
      onChange();
    },
    manual: false,
  };
}
