/**
 * The main window's size, position and maximized state, remembered across starts
 * (docs/desktop-release.md, "Comfort"): kept in `<data folder>/window-state.json` (0600, written
 * through private-file.ts), saved {@link WINDOW_STATE_SAVE_DELAY_MS} after the last move or resize
 * and at once on close (which also hides the window to the tray). On start the stored rectangle is
 * used only if it still intersects the work area of some display by at least
 * {@link MIN_VISIBLE_WIDTH}×{@link MIN_VISIBLE_HEIGHT} px (a monitor unplugged since, a resolution
 * changed); otherwise the window opens at the default size, centred by Electron (no x/y given).
 *
 * File shape: `{ "version": 1, "bounds": { "x", "y", "width", "height" }, "maximized": boolean }`,
 * integers in DIPs (Electron's `getNormalBounds()`, so a maximized window restores to its normal
 * size when unmaximized). Anything else is ignored once, with one log line.
 * Electron is injected (timers, files, the window), so this runs in unit tests with fakes.
 */
import { readJsonFile } from './private-file.ts';

/** Debounce between the last move/resize and the write (ms). */
export const WINDOW_STATE_SAVE_DELAY_MS = 500;
/** How much of the window must lie on a display's work area to restore it there (px). */
const MIN_VISIBLE_WIDTH = 100;
const MIN_VISIBLE_HEIGHT = 50;
/** The window's size on a first start or when the stored place is off every display. */
export const DEFAULT_WINDOW_SIZE = { width: 1200, height: 800 } as const;
/** The window's minimum size (mainWindowOptions' minWidth / minHeight). */
const MIN_WINDOW_SIZE = { width: 380, height: 480 } as const;
/** Larger than any display: a stored size above it is garbage. */
const MAX_DIMENSION = 100_000;

/** A rectangle in DIPs (Electron's `Rectangle`). */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What is remembered. */
export interface WindowState {
  bounds: Rect;
  maximized: boolean;
}

/** What the window is created with: a rectangle, or only a size (Electron centres the window). */
export interface RestoredWindowPlacement {
  bounds: Rect | { width: number; height: number };
  maximized: boolean;
}

const isInt = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/**
 * Validates a value read from window-state.json: the shape above, integers, width and height
 * between the minimum window size and 100,000, x and y within ±100,000. Returns a clean copy or null.
 */
export function parseWindowState(value: unknown): WindowState | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const v = value as { version?: unknown; bounds?: unknown; maximized?: unknown };
  if (v.version !== 1 || typeof v.maximized !== 'boolean') return null;
  const b = v.bounds as Partial<Rect> | null | undefined;
  if (typeof b !== 'object' || b === null) return null;
  if (!isInt(b.x, -MAX_DIMENSION, MAX_DIMENSION) || !isInt(b.y, -MAX_DIMENSION, MAX_DIMENSION)) return null;
  if (!isInt(b.width, MIN_WINDOW_SIZE.width, MAX_DIMENSION) || !isInt(b.height, MIN_WINDOW_SIZE.height, MAX_DIMENSION)) return null;
  return { bounds: { x: b.x, y: b.y, width: b.width, height: b.height }, maximized: v.maximized };
}

/**
 * true when `bounds` overlaps at least one of `workAreas` (Electron's `screen.getAllDisplays()[i].workArea`)
 * by at least {@link MIN_VISIBLE_WIDTH} wide and {@link MIN_VISIBLE_HEIGHT} high — enough to grab
 * the title bar.
 */
export function isVisibleOnSomeDisplay(bounds: Rect, workAreas: readonly Rect[]): boolean {
  return workAreas.some((area) => {
    const w = Math.min(bounds.x + bounds.width, area.x + area.width) - Math.max(bounds.x, area.x);
    const h = Math.min(bounds.y + bounds.height, area.y + area.height) - Math.max(bounds.y, area.y);
    return w >= MIN_VISIBLE_WIDTH && h >= MIN_VISIBLE_HEIGHT;
  });
}

/**
 * Where the window opens: the stored rectangle when {@link isVisibleOnSomeDisplay}, else the
 * default size without x/y (Electron centres it on the primary display). `maximized` is kept
 * either way (a maximized window fills whichever display it opens on).
 */
export function restoredWindowPlacement(state: WindowState | null, workAreas: readonly Rect[]): RestoredWindowPlacement {
  if (state && isVisibleOnSomeDisplay(state.bounds, workAreas)) return { bounds: { ...state.bounds }, maximized: state.maximized };
  return { bounds: { ...DEFAULT_WINDOW_SIZE }, maximized: state?.maximized ?? false };
}

/** The part of `BrowserWindow` the store watches (https://www.electronjs.org/docs/latest/api/browser-window). */
interface TrackedWindow {
  on(event: 'move' | 'resize' | 'maximize' | 'unmaximize' | 'close', listener: () => void): unknown;
  getNormalBounds(): Rect;
  isMaximized(): boolean;
  isDestroyed(): boolean;
}

export interface WindowStateStoreDeps {
  readFile(file: string): Promise<Uint8Array | string>;
  /** An atomic 0600 write (private-file.ts `writePrivateFile`). */
  writeFile(file: string, data: string): Promise<void>;
  /** `<data folder>/window-state.json`. */
  file: string;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
  log(message: string): void;
}

export interface WindowStateStore {
  /** The stored state, or null (none yet, unreadable, or not the expected shape: logged once). */
  load(): Promise<WindowState | null>;
  /**
   * Saves `win`'s state {@link WINDOW_STATE_SAVE_DELAY_MS} after its last move / resize /
   * (un)maximize, and at once when it closes (or hides to the tray). Writes go out one at a time,
   * in order; a failed write is logged (once) and otherwise ignored.
   */
  track(win: TrackedWindow): void;
  /** The state last loaded or saved (for a window created again later), or null. */
  latest(): WindowState | null;
  /** Resolves once every write asked for so far has finished (tests, quitting). */
  settled(): Promise<void>;
  /** true while a save waits for its debounce or a write is under way (quitting now would lose it). */
  busy(): boolean;
  /** Saves every window whose debounced save is pending now, then resolves like {@link settled}. Never rejects. */
  flush(): Promise<void>;
}

/** Creates the store (see the module comment). */
export function createWindowStateStore(deps: WindowStateStoreDeps): WindowStateStore {
  let writes: Promise<void> = Promise.resolve();
  let lastWritten: string | null = null;
  let writeFailureLogged = false;
  let latest: WindowState | null = null;
  let writesUnderWay = 0;
  /** The `saveNow` of each tracked window whose debounced save is pending. */
  const pendingSaves = new Set<() => void>();

  const write = (state: WindowState) => {
    latest = state;
    const text = JSON.stringify({ version: 1, bounds: state.bounds, maximized: state.maximized });
    writesUnderWay += 1;
    writes = writes.then(async () => {
      try {
        if (text !== lastWritten) {
          await deps.writeFile(deps.file, text);
          lastWritten = text;
        }
      } catch (e) {
        if (!writeFailureLogged) deps.log(`window state: could not save (${(e as { code?: string }).code ?? 'error'})`);
        writeFailureLogged = true;
      } finally {
        writesUnderWay -= 1;
      }
    });
  };

  return {
    async load() {
      const read = await readJsonFile(deps.readFile, deps.file);
      if (read.kind === 'missing') return null;
      if (read.kind === 'unreadable') {
        deps.log(`window state: could not read (${(read.error as { code?: string }).code ?? 'error'}); default size`);
        return null;
      }
      const state = parseWindowState(read.value);
      if (!state) {
        deps.log('window state: ignored a file of an unexpected shape; default size');
        return null;
      }
      lastWritten = read.text;
      latest = state;
      return state;
    },
    track(win) {
      let timer: unknown = null;
      const snapshot = (): WindowState | null => (win.isDestroyed() ? null : { bounds: win.getNormalBounds(), maximized: win.isMaximized() });
      const saveNow = () => {
        if (timer !== null) deps.clearTimeout(timer);
        timer = null;
        pendingSaves.delete(saveNow);
        const state = snapshot();
        if (state) write(state);
      };
      const saveLater = () => {
        if (timer !== null) deps.clearTimeout(timer);
        timer = deps.setTimeout(saveNow, WINDOW_STATE_SAVE_DELAY_MS);
        pendingSaves.add(saveNow);
      };
      for (const event of ['move', 'resize', 'maximize', 'unmaximize'] as const) win.on(event, saveLater);
      win.on('close', saveNow);
    },
    latest: () => latest,
    settled: () => writes,
    busy: () => pendingSaves.size > 0 || writesUnderWay > 0,
    flush() {
      for (const saveNow of [...pendingSaves]) {
        try {
          saveNow();
        } catch {
          pendingSaves.delete(saveNow); // a window Electron already tore down: nothing to read
        }
      }
      return writes;
    },
  };
}

/** How long quitting waits at most for the window state to reach the disk (ms). */
export const QUIT_FLUSH_TIMEOUT_MS = 1_000;

/** The part of `app` {@link holdQuitForWindowState} uses (https://www.electronjs.org/docs/latest/api/app#event-will-quit). */
export interface QuittingApp {
  on(event: 'will-quit', listener: (event: { preventDefault(): void }) => void): unknown;
  quit(): void;
}

/**
 * Quitting right after a move or resize (or with the close-time save still being written) would
 * lose the window's place: the writes are asynchronous and the process ends after `will-quit`.
 * On the first `will-quit` while `store.busy()`, the quit is held (`preventDefault`), the store is
 * flushed, and `app.quit()` is called again once the writes finished or after
 * {@link QUIT_FLUSH_TIMEOUT_MS} (then one log line) — whichever comes first. The quit is held at
 * most once: the second `will-quit` always goes through, so this cannot loop. Nothing pending:
 * nothing held.
 */
export function holdQuitForWindowState(
  app: QuittingApp,
  store: Pick<WindowStateStore, 'busy' | 'flush'>,
  deps: { setTimeout(fn: () => void, ms: number): unknown; clearTimeout(id: unknown): void; log(message: string): void },
): void {
  let held = false;
  app.on('will-quit', (event) => {
    if (held || !store.busy()) return;
    held = true;
    event.preventDefault();
    let finished = false;
    const finish = (timedOut: boolean) => {
      if (finished) return;
      finished = true;
      deps.clearTimeout(timer);
      if (timedOut) deps.log(`window state: not saved within ${QUIT_FLUSH_TIMEOUT_MS} ms; quitting anyway`);
      app.quit();
    };
    const timer = deps.setTimeout(() => finish(true), QUIT_FLUSH_TIMEOUT_MS);
    store.flush().then(
      () => finish(false),
      () => finish(false),
    );
  });
}
