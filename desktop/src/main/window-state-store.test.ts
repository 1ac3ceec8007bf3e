import { EventEmitter } from 'node:events';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writePrivateFile } from './private-file.ts';
import {
  DEFAULT_WINDOW_SIZE,
  QUIT_FLUSH_TIMEOUT_MS,
  WINDOW_STATE_SAVE_DELAY_MS,
  createWindowStateStore,
  holdQuitForWindowState,
  isVisibleOnSomeDisplay,
  parseWindowState,
  restoredWindowPlacement,
  type Rect,
} from './window-state-store.ts';

const LAPTOP: Rect = { x: 0, y: 0, width: 1440, height: 875 }; // work area below a 25 px menu bar
const RIGHT_MONITOR: Rect = { x: 1440, y: 0, width: 2560, height: 1400 };

class FakeWindow extends EventEmitter {
  bounds: Rect = { x: 100, y: 80, width: 1000, height: 700 };
  maximized = false;
  destroyed = false;
  getNormalBounds = () => ({ ...this.bounds });
  isMaximized = () => this.maximized;
  isDestroyed = () => this.destroyed;
}

/** Timers run by hand: `advance(ms)` fires what is due. */
function fakeTimers() {
  let now = 0;
  let next = 1;
  const pending = new Map<number, { at: number; fn: () => void }>();
  return {
    setTimeout: (fn: () => void, ms: number) => {
      const id = next++;
      pending.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout: (id: unknown) => void pending.delete(id as number),
    advance(ms: number) {
      now += ms;
      for (const [id, t] of [...pending]) {
        if (t.at <= now) {
          pending.delete(id);
          t.fn();
        }
      }
    },
  };
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'avail-window-state-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function setup() {
  const timers = fakeTimers();
  const log = vi.fn();
  const file = join(dir, 'window-state.json');
  const writes: string[] = [];
  const store = createWindowStateStore({
    readFile: (f) => readFile(f),
    writeFile: async (f, data) => {
      writes.push(data);
      await writePrivateFile(f, data);
    },
    file,
    setTimeout: timers.setTimeout,
    clearTimeout: timers.clearTimeout,
    log,
  });
  return { store, timers, log, file, writes };
}

describe('window placement on start', () => {
  it('a window still on a display opens where it was; one on an unplugged monitor opens centred at the default size', () => {
    const onRight = { bounds: { x: 2000, y: 200, width: 1200, height: 900 }, maximized: false };
    expect(restoredWindowPlacement(onRight, [LAPTOP, RIGHT_MONITOR])).toEqual(onRight);
    // The right monitor is gone: no x/y, Electron centres the default size.
    expect(restoredWindowPlacement(onRight, [LAPTOP])).toEqual({ bounds: { ...DEFAULT_WINDOW_SIZE }, maximized: false });
    expect(restoredWindowPlacement(null, [LAPTOP])).toEqual({ bounds: { ...DEFAULT_WINDOW_SIZE }, maximized: false });
    // Maximized is kept: it fills whichever display it opens on.
    expect(restoredWindowPlacement({ bounds: { x: 5000, y: 0, width: 800, height: 600 }, maximized: true }, [LAPTOP]).maximized).toBe(true);
  });

  it('needs at least 100×50 px on one work area', () => {
    // Hanging off the right edge: 100 px visible is enough, 99 px is not.
    expect(isVisibleOnSomeDisplay({ x: 1340, y: 100, width: 800, height: 600 }, [LAPTOP])).toBe(true);
    expect(isVisibleOnSomeDisplay({ x: 1341, y: 100, width: 800, height: 600 }, [LAPTOP])).toBe(false);
    // Above the top: 50 px of height visible is enough, 49 px is not.
    expect(isVisibleOnSomeDisplay({ x: 100, y: -550, width: 800, height: 600 }, [LAPTOP])).toBe(true);
    expect(isVisibleOnSomeDisplay({ x: 100, y: -551, width: 800, height: 600 }, [LAPTOP])).toBe(false);
    // Straddling two displays counts per display.
    expect(isVisibleOnSomeDisplay({ x: 1390, y: 0, width: 200, height: 600 }, [LAPTOP, RIGHT_MONITOR])).toBe(true);
    expect(isVisibleOnSomeDisplay({ x: 100, y: 100, width: 800, height: 600 }, [])).toBe(false);
  });

  it('reads back only the expected shape', () => {
    const good = { version: 1, bounds: { x: -20, y: 30, width: 1000, height: 700 }, maximized: true };
    expect(parseWindowState({ ...good, extra: 1 })).toEqual({ bounds: good.bounds, maximized: true });
    for (const bad of [
      null,
      'x',
      [],
      { ...good, version: 2 },
      { ...good, maximized: 'yes' },
      { ...good, bounds: null },
      { ...good, bounds: { ...good.bounds, width: 1000.5 } },
      { ...good, bounds: { ...good.bounds, width: 10 } }, // below the minimum window size
      { ...good, bounds: { ...good.bounds, height: 1e9 } },
      { ...good, bounds: { ...good.bounds, x: Number.NaN } },
      { ...good, bounds: { x: 0, y: 0, width: 1000 } },
    ]) expect(parseWindowState(bad), JSON.stringify(bad)).toBeNull();
  });
});

describe('the window state file', () => {
  it('is written 500 ms after the last move/resize (one write for a drag), owner-only, and read back', async () => {
    const { store, timers, file, writes } = setup();
    expect(await store.load()).toBeNull();
    const win = new FakeWindow();
    store.track(win);
    for (let i = 0; i < 10; i += 1) {
      win.bounds = { ...win.bounds, x: 100 + i * 10 };
      win.emit('move');
      timers.advance(100); // still dragging: never 500 ms quiet
    }
    await store.settled();
    expect(writes).toEqual([]);
    timers.advance(WINDOW_STATE_SAVE_DELAY_MS);
    await store.settled();
    expect(writes).toHaveLength(1);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ version: 1, bounds: { x: 190, y: 80, width: 1000, height: 700 }, maximized: false });
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);

    expect(store.latest()).toEqual({ bounds: { x: 190, y: 80, width: 1000, height: 700 }, maximized: false });
    const again = setup();
    expect(again.store.latest()).toBeNull();
    expect(await again.store.load()).toEqual({ bounds: { x: 190, y: 80, width: 1000, height: 700 }, maximized: false });
    expect(again.store.latest()).toEqual({ bounds: { x: 190, y: 80, width: 1000, height: 700 }, maximized: false });
  });

  it('is written at once on close (hide to tray), with the maximized flag and the normal bounds', async () => {
    const { store, timers, file, writes } = setup();
    const win = new FakeWindow();
    store.track(win);
    win.maximized = true;
    win.emit('maximize');
    win.emit('close');
    await store.settled();
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ version: 1, bounds: { x: 100, y: 80, width: 1000, height: 700 }, maximized: true });
    // The pending debounce was replaced by the close write; nothing more comes.
    timers.advance(WINDOW_STATE_SAVE_DELAY_MS);
    await store.settled();
    expect(writes).toHaveLength(1);
  });

  it('a garbage file gives the default placement and one log line', async () => {
    const { store, log, file } = setup();
    await writeFile(file, '{"version":1,"bounds":"everywhere"}');
    expect(await store.load()).toBeNull();
    await writeFile(file, 'not json at all');
    expect(await store.load()).toBeNull();
    expect(log).toHaveBeenCalledWith('window state: ignored a file of an unexpected shape; default size');
    expect(log).toHaveBeenCalledTimes(2); // once per start (load runs once per start)
  });

  it('a failing write is logged once and never thrown', async () => {
    const timers = fakeTimers();
    const log = vi.fn();
    const store = createWindowStateStore({
      readFile: (f) => readFile(f),
      writeFile: async () => {
        throw Object.assign(new Error('ENOSPC: no space left'), { code: 'ENOSPC' });
      },
      file: join(dir, 'window-state.json'),
      setTimeout: timers.setTimeout,
      clearTimeout: timers.clearTimeout,
      log,
    });
    const win = new FakeWindow();
    store.track(win);
    win.emit('close');
    win.bounds = { ...win.bounds, width: 900 };
    win.emit('close');
    await store.settled();
    expect(log).toHaveBeenCalledExactlyOnceWith('window state: could not save (ENOSPC)');
  });

  it('a destroyed window is not read', async () => {
    const { store, writes } = setup();
    const win = new FakeWindow();
    store.track(win);
    win.destroyed = true;
    win.emit('close');
    await store.settled();
    expect(writes).toEqual([]);
  });
});

describe('quitting keeps the window where it was', () => {
  /** An app whose quit runs `will-quit` like Electron: the process ends unless a listener prevents it. */
  class FakeApp extends EventEmitter {
    exited = false;
    quit = vi.fn(() => {
      let prevented = false;
      this.emit('will-quit', { preventDefault: () => void (prevented = true) });
      if (!prevented) this.exited = true;
    });
  }

  function slowStore() {
    const timers = fakeTimers();
    const file = join(dir, 'window-state.json');
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const store = createWindowStateStore({
      readFile: (f) => readFile(f),
      writeFile: async (f, data) => {
        await gate; // a slow disk
        await writePrivateFile(f, data);
      },
      file,
      setTimeout: timers.setTimeout,
      clearTimeout: timers.clearTimeout,
      log: vi.fn(),
    });
    return { store, timers, file, release };
  }

  it('a move followed at once by Quit: the quit waits for the new place to reach the disk, then goes through once', async () => {
    const { store, timers, file, release } = slowStore();
    const app = new FakeApp();
    const log = vi.fn();
    holdQuitForWindowState(app, store, { setTimeout: timers.setTimeout, clearTimeout: timers.clearTimeout, log });
    const win = new FakeWindow();
    store.track(win);
    win.bounds = { ...win.bounds, x: 640 };
    win.emit('move'); // Quit 100 ms later, before the debounced save
    timers.advance(100);
    app.quit();
    expect(app.exited).toBe(false);
    release();
    await store.settled();
    await Promise.resolve();
    expect(app.exited).toBe(true);
    expect(app.quit).toHaveBeenCalledTimes(2);
    expect(JSON.parse(await readFile(file, 'utf8')).bounds.x).toBe(640);
    expect(log).not.toHaveBeenCalled();
  });

  it('the close-time save still being written when will-quit comes is awaited too', async () => {
    const { store, timers, file, release } = slowStore();
    const app = new FakeApp();
    holdQuitForWindowState(app, store, { setTimeout: timers.setTimeout, clearTimeout: timers.clearTimeout, log: vi.fn() });
    const win = new FakeWindow();
    store.track(win);
    win.bounds = { ...win.bounds, y: 300 };
    win.emit('close'); // before-quit closed the window: its save is under way
    app.quit();
    expect(app.exited).toBe(false);
    release();
    await store.settled();
    await Promise.resolve();
    expect(app.exited).toBe(true);
    expect(JSON.parse(await readFile(file, 'utf8')).bounds.y).toBe(300);
  });

  it('a disk that never answers holds the quit only 1 s (one log line); nothing pending holds nothing', async () => {
    const { store, timers } = slowStore(); // never released
    const app = new FakeApp();
    const log = vi.fn();
    holdQuitForWindowState(app, store, { setTimeout: timers.setTimeout, clearTimeout: timers.clearTimeout, log });
    const win = new FakeWindow();
    store.track(win);
    win.emit('resize');
    app.quit();
    expect(app.exited).toBe(false);
    timers.advance(QUIT_FLUSH_TIMEOUT_MS);
    expect(app.exited).toBe(true);
    expect(log).toHaveBeenCalledExactlyOnceWith('window state: not saved within 1000 ms; quitting anyway');

    const idle = setup();
    const other = new FakeApp();
    holdQuitForWindowState(other, idle.store, { setTimeout: idle.timers.setTimeout, clearTimeout: idle.timers.clearTimeout, log });
    idle.store.track(new FakeWindow());
    other.quit();
    expect(other.exited).toBe(true);
    expect(other.quit).toHaveBeenCalledOnce();
  });
});
