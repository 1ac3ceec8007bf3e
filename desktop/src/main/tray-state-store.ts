/**
 * The tray's last known state, kept by the main process in `<userData>/tray-state.json` (mode
 * 0600, written with `writePrivateFile`) so that the tray shows it at once when the app starts —
 * before the window has loaded and the device database has opened — instead of "Not signed in"
 * (issue 25).
 *
 * What is kept: that the owner is signed in, the next free windows (UTC ms), the owner's zone,
 * the public link, the "Copy my next free times" text and when the windows were computed. The
 * owner's link and free times are what they hand out to others anyway.
 *
 * What is not kept: visitors' proposals. Their names are other people's personal data, and this
 * file is plain JSON (the sign-in token is encrypted by the keychain, this is not); a restored
 * menu would also offer Confirm / Decline on a list that may have been decided on another device
 * since. The renderer lists them again within seconds of opening its database (local, no
 * network). Nor the connection status and pending count of the last run: they describe that run.
 *
 * A signed-out report removes the file, so the next start says "Not signed in".
 */
import type { TrayState } from '@avail/shared/desktop/desktop-bridge.ts';
import { parseTrayState } from './ipc-payloads.ts';
import { readJsonFile } from './private-file.ts';

/** The file's JSON: the fields of {@link TrayState} worth keeping across a restart. */
interface StoredTrayState {
  version: 1;
  signedIn: true;
  timezone: string;
  windows: TrayState['windows'];
  link: string | null;
  freeTimesText: string | null;
  computedAt: number;
}

export interface TrayStateStoreDeps {
  /** @throws an error with code ENOENT when the file does not exist. */
  readFile(file: string): Promise<Buffer | string>;
  /** An atomic 0600 write (`writePrivateFile`). */
  writeFile(file: string, data: string): Promise<void>;
  /** Removes the file; a missing one is not an error (`removeFile`). */
  removeFile(file: string): Promise<void>;
  /** Absolute path of the file (`<userData>/tray-state.json`). */
  file: string;
  log?: (message: string) => void;
}

export interface TrayStateStore {
  /**
   * The stored state as the tray shows it on start ({@link restoredTrayState}), or null when there
   * is none (first run, signed out) or the file is unreadable or invalid (logged, never thrown).
   */
  load(): Promise<TrayState | null>;
  /**
   * Keeps `state` (already validated): a signed-in state computed from the device's data is
   * written (only when the kept fields changed); a signed-out one removes the file; a `syncing`
   * one (no data read yet) is not written. Writes happen one at a time, in order; a failed write
   * is logged and the next state tries again.
   */
  remember(state: TrayState): void;
  /** Resolves when every write or removal asked for so far has finished (tests, quit). */
  settled(): Promise<void>;
}

/**
 * The tray state restored from `stored`: signed in, `connection: 'syncing'`, `syncing: true`
 * (the menu says "Syncing…" and how old the windows are), no pending count, no proposals.
 */
function restoredTrayState(stored: Pick<TrayState, 'timezone' | 'windows' | 'link' | 'freeTimesText' | 'computedAt'>): TrayState {
  return {
    signedIn: true,
    connection: 'syncing',
    pendingCount: 0,
    timezone: stored.timezone,
    windows: stored.windows.map((w) => ({ start: w.start, end: w.end })),
    link: stored.link,
    freeTimesText: stored.freeTimesText,
    computedAt: stored.computedAt,
    syncing: true,
  };
}

/**
 * The tray state of an owner whose token is stored but whose last state is not (the first start
 * after an update, or the file was lost): signed in and syncing, nothing known yet — never "Not
 * signed in" to a signed-in owner.
 */
export function signedInUnknownTrayState(now: number): TrayState {
  return restoredTrayState({ timezone: 'UTC', windows: [], link: null, freeTimesText: null, computedAt: now });
}

/** The part of a signed-in state that is written to disk (see the module doc). */
function storedFields(state: TrayState): StoredTrayState {
  return {
    version: 1,
    signedIn: true,
    timezone: state.timezone,
    windows: state.windows.map((w) => ({ start: w.start, end: w.end })),
    link: state.link,
    freeTimesText: state.freeTimesText,
    computedAt: state.computedAt,
  };
}

/** true when two stored JSON texts differ at most in `computedAt`. */
function sameButComputedAt(a: string, b: string): boolean {
  try {
    const x = { ...(JSON.parse(a) as Record<string, unknown>), computedAt: 0 };
    const y = { ...(JSON.parse(b) as Record<string, unknown>), computedAt: 0 };
    return JSON.stringify(x) === JSON.stringify(y);
  } catch {
    return false;
  }
}

/** Creates the store; nothing is read until `load`. */
export function createTrayStateStore(deps: TrayStateStoreDeps): TrayStateStore {
  const log = deps.log ?? (() => undefined);
  let chain: Promise<void> = Promise.resolve();
  /** What the file holds as far as this process knows: its JSON text, `null` = no file, `undefined` = unknown. */
  let onDisk: string | null | undefined;

  const enqueue = (op: () => Promise<void>, what: string) => {
    chain = chain.then(op).catch((e: unknown) => {
      onDisk = undefined;
      log(`tray state: could not ${what} ${deps.file} (${(e as { code?: string })?.code ?? 'error'})`);
    });
  };

  return {
    async load() {
      const file = await readJsonFile(deps.readFile, deps.file);
      if (file.kind !== 'read') {
        if (file.kind === 'unreadable') log(`tray state: ${deps.file} could not be read; starting signed out`);
        onDisk = file.kind === 'missing' ? null : undefined;
        return null;
      }
      const { text, value: raw } = file;
      const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
      // Validated as the renderer's states are: the file is data, like an IPC payload.
      const state =
        r.version === 1 && r.signedIn === true
          ? parseTrayState({ signedIn: true, connection: 'syncing', pendingCount: 0, timezone: r.timezone, windows: r.windows, link: r.link, freeTimesText: r.freeTimesText, computedAt: r.computedAt })
          : null;
      if (!state) {
        log(`tray state: ${deps.file} is not a valid tray state; starting signed out`);
        return null;
      }
      onDisk = text;
      return restoredTrayState(state);
    },
    remember(state) {
      if (!state.signedIn) {
        if (onDisk === null) return;
        onDisk = null;
        enqueue(() => deps.removeFile(deps.file), 'remove');
        return;
      }
      if (state.syncing) return;
      const text = `${JSON.stringify(storedFields(state))}\n`;
      // Only the instant of the computation changed (the renderer recomputes each minute): the file
      // keeps the earlier one — its windows were already known then — and is not written again.
      if (onDisk != null && sameButComputedAt(text, onDisk)) return;
      onDisk = text;
      enqueue(() => deps.writeFile(deps.file, text), 'write');
    },
    settled: () => chain,
  };
}
