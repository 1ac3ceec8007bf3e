import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import type { DesktopCommand, TrayState } from '@avail/shared/desktop/desktop-bridge.ts';
import { createTrayController, type TrayUpdates } from './tray-controller.ts';
import type { UpdateState } from './update-cycle.ts';
import { createServerSettingStore } from './server-setting-store.ts';

type Template = MenuItemConstructorOptions[];

function setup(
  startIso: string,
  extra: { initialState?: TrayState | null; waitingCount?: () => number; platform?: NodeJS.Platform; menuBarText?: { get(): boolean; set(on: boolean): void }; updates?: TrayUpdates } = {},
) {
  vi.setSystemTime(new Date(startIso));
  const tray = {
    menu: null as Template | null,
    tooltip: '',
    title: '',
    setContextMenu: vi.fn((m: Template | null) => void (tray.menu = m)),
    setToolTip: vi.fn((t: string) => void (tray.tooltip = t)),
    setTitle: vi.fn((t: string) => void (tray.title = t)),
  };
  const sent: DesktopCommand[] = [];
  const copied: string[] = [];
  let openAtLogin = false;
  const deps = {
    tray,
    buildMenu: (t: Template) => t,
    clipboard: { writeText: (s: string) => void copied.push(s) },
    send: (c: DesktopCommand) => void sent.push(c),
    showWindow: vi.fn(),
    quit: vi.fn(),
    loginItem: { get: () => ({ openAtLogin, loginItemSupported: true }), set: vi.fn((v: boolean) => void (openAtLogin = v)) },
    onState: vi.fn((_s: TrayState) => undefined),
    ...extra,
  };
  const controller = createTrayController(deps);
  const item = (label: string) => {
    const found = tray.menu?.find((i) => i.label === label);
    if (!found) throw new Error(`no item ${label} in ${JSON.stringify(tray.menu?.map((i) => i.label))}`);
    return found;
  };
  const click = (label: string, patch: object = {}) =>
    item(label).click?.({ ...item(label), ...patch } as unknown as Electron.MenuItem, undefined, {} as Electron.KeyboardEvent);
  return { controller, tray, sent, copied, deps, item, click };
}

function state(extra: Partial<TrayState> = {}): TrayState {
  return {
    signedIn: true,
    connection: 'online',
    pendingCount: 0,
    timezone: 'Europe/Brussels',
    // Mon 15 June 2026 15:00–15:30 local, then 16:00–17:00 local.
    windows: [
      { start: Date.parse('2026-06-15T13:00:00Z'), end: Date.parse('2026-06-15T13:30:00Z') },
      { start: Date.parse('2026-06-15T14:00:00Z'), end: Date.parse('2026-06-15T15:00:00Z') },
    ],
    link: 'https://avail.example.com/ana',
    freeTimesText: 'Mon 15 Jun 15:00–15:30',
    computedAt: Date.parse('2026-06-15T13:00:00Z'),
    ...extra,
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('createTrayController', () => {
  it('starts signed out until the renderer reports', () => {
    const { tray, controller } = setup('2026-06-15T13:10:20Z');
    expect(tray.tooltip).toBe('Not signed in');
    expect(tray.menu?.map((i) => i.label).filter(Boolean)).toEqual(['Not signed in', 'Open Avail', 'Quit']);
    expect(controller.state()).toBeNull();
  });

  it('redraws tooltip and menu on a new state, status line = tooltip', () => {
    const { tray, controller } = setup('2026-06-15T13:10:20Z');
    controller.setState(state());
    expect(tray.tooltip).toBe('Free now until 15:30');
    expect(tray.menu?.[0].label).toBe('Free now until 15:30');
    expect(controller.state()?.link).toBe('https://avail.example.com/ana');
  });

  it('redraws at every minute boundary, aligned to the minute, without a new state', () => {
    const { tray, controller } = setup('2026-06-15T13:29:40Z'); // 15:29:40 local
    controller.setState(state());
    expect(tray.tooltip).toBe('Free now until 15:30');
    const draws = tray.setToolTip.mock.calls.length;
    vi.advanceTimersByTime(19_999); // 15:29:59.999: nothing yet
    expect(tray.setToolTip.mock.calls.length).toBe(draws);
    vi.advanceTimersByTime(1); // 15:30:00.000
    expect(tray.setToolTip.mock.calls.length).toBe(draws + 1);
    expect(tray.tooltip).toBe('Busy — next free today 16:00–17:00');
    vi.advanceTimersByTime(60_000 * 30); // 16:00
    expect(tray.tooltip).toBe('Free now until 17:00');
    expect(tray.setToolTip.mock.calls.length).toBe(draws + 31);
    vi.advanceTimersByTime(60_000 * 60); // 17:00: nothing left
    expect(tray.tooltip).toBe('Busy — no free time in the next 14 days');
  });

  it('copies the link and the free times; busy and sync send commands; open and quit', () => {
    const { controller, click, copied, sent, deps } = setup('2026-06-15T13:10:00Z');
    controller.setState(state());
    click('Copy my link');
    click('Copy my next free times');
    click('Busy for the next 2 h');
    click('Busy for the rest of today');
    click('Sync now');
    click('Open Avail');
    click('Quit');
    expect(copied).toEqual(['https://avail.example.com/ana', 'Mon 15 Jun 15:00–15:30']);
    // Busy blocks carry the click instant (issue 25: they may wait for the device database).
    const at = Date.parse('2026-06-15T13:10:00Z');
    expect(sent).toEqual([{ type: 'busy', duration: { minutes: 120 }, at }, { type: 'busy', duration: { restOfToday: true }, at }, { type: 'sync-now' }]);
    expect(deps.showWindow).toHaveBeenCalledOnce();
    expect(deps.quit).toHaveBeenCalledOnce();
  });

  it('a pending proposal: Confirm / Decline send the command, Open in Avail shows its route; a proposal no longer listed sends nothing', () => {
    const { controller, item, sent, deps } = setup('2026-06-15T13:10:00Z');
    const p = { id: 'p 1', name: 'Vera', start: Date.parse('2026-06-16T08:00:00Z'), end: Date.parse('2026-06-16T08:30:00Z') };
    controller.setState(state({ proposals: [p] }));
    const sub = item('Proposed times (1)').submenu as Template;
    const actions = sub[0].submenu as Template;
    const press = (i: MenuItemConstructorOptions) => i.click?.(i as unknown as Electron.MenuItem, undefined, {} as Electron.KeyboardEvent);
    press(actions[0]);
    press(actions[1]);
    press(actions[2]);
    expect(sent).toEqual([
      { type: 'proposal', id: 'p 1', action: 'confirm' },
      { type: 'proposal', id: 'p 1', action: 'decline' },
      { type: 'navigate', route: '/app/dashboard#proposal-p%201' },
    ]);
    expect(deps.showWindow).toHaveBeenCalledOnce();
    // A stale menu after the proposal was decided elsewhere: nothing is sent.
    controller.setState(state({ proposals: [] }));
    press(actions[0]);
    expect(sent).toHaveLength(3);
  });

  it('"Start at login" sets the login item and redraws the checkbox', () => {
    const { controller, click, item, deps } = setup('2026-06-15T13:10:00Z');
    controller.setState(state());
    expect(item('Start at login').checked).toBe(false);
    click('Start at login', { checked: true });
    expect(deps.loginItem.set).toHaveBeenCalledWith(true);
    expect(item('Start at login').checked).toBe(true);
  });

  it('dispose stops the minute redraws', () => {
    const { tray, controller } = setup('2026-06-15T13:10:00Z');
    controller.setState(state());
    const draws = tray.setToolTip.mock.calls.length;
    controller.dispose();
    vi.advanceTimersByTime(10 * 60_000);
    expect(tray.setToolTip.mock.calls.length).toBe(draws);
  });
});

describe('the tray on its own (issue 25)', () => {
  /** The last known state as tray-state-store.ts restores it (computed Mon 15 June 15:00 local). */
  const restored = () => state({ connection: 'syncing', syncing: true, pendingCount: 0 });

  it('on start shows the last known state at once, "Syncing…" with its age, never "Not signed in"', () => {
    const { tray, controller, item } = setup('2026-06-15T13:10:20Z', { initialState: restored() });
    expect(tray.tooltip).toBe('Free now until 15:30');
    expect(item('Syncing… · as of 15:00').enabled).toBe(false);
    expect(item('Copy my link').enabled).toBe(true);
    expect(item('Busy for the next 30 min')).toBeTruthy();
    expect(controller.state()).toBeNull(); // the renderer has not reported yet
  });

  it('a stored state whose windows have aged: the label comes from the windows after now; stale free times are not copied', () => {
    // Next day: every stored window has passed.
    const { tray, item, click, copied } = setup('2026-06-16T07:00:00Z', { initialState: restored() });
    expect(tray.tooltip).toBe('Syncing…');
    expect(item('Syncing… · as of Mon 15:00')).toBeTruthy();
    expect(item('Copy my next free times').enabled).toBe(false);
    click('Copy my next free times');
    expect(copied).toEqual([]);
    // 15:40 local on the day itself: the first window ended, the second is ahead.
    const later = setup('2026-06-15T13:40:00Z', { initialState: restored() });
    expect(later.tray.tooltip).toBe('Busy — next free today 16:00–17:00');
    expect(later.item('Copy my next free times').enabled).toBe(false);
  });

  it('the renderer\'s "signed in, syncing" report keeps the known windows; its full state replaces them; only a signed-out report says "Not signed in"', () => {
    const { tray, controller, item, deps } = setup('2026-06-15T13:10:20Z', { initialState: restored() });
    controller.setState(state({ connection: 'offline', syncing: true, windows: [], freeTimesText: null, computedAt: Date.parse('2026-06-15T13:10:00Z'), timezone: 'Europe/Brussels' }));
    expect(tray.tooltip).toBe('Free now until 15:30');
    expect(item('Offline · as of 15:00')).toBeTruthy();
    expect(controller.state()?.windows).toHaveLength(2);
    expect(deps.onState).toHaveBeenLastCalledWith(expect.objectContaining({ syncing: true, computedAt: Date.parse('2026-06-15T13:00:00Z') }));

    controller.setState(state({ windows: [{ start: Date.parse('2026-06-15T14:00:00Z'), end: Date.parse('2026-06-15T15:00:00Z') }], computedAt: Date.parse('2026-06-15T13:10:00Z') }));
    expect(tray.tooltip).toBe('Busy — next free today 16:00–17:00');
    expect(item('Online')).toBeTruthy();

    controller.setState({ signedIn: false, connection: 'online', pendingCount: 0, timezone: 'UTC', windows: [], link: null, freeTimesText: null, computedAt: Date.now() });
    expect(tray.tooltip).toBe('Not signed in');
  });

  it('first run ever (nothing stored), signed-in owner whose device has not pulled: "Syncing…", not "Not signed in" nor "no free time"', () => {
    const { tray, controller, item } = setup('2026-06-15T13:10:20Z');
    controller.setState(state({ connection: 'syncing', syncing: true, windows: [], freeTimesText: null, computedAt: Date.parse('2026-06-15T13:10:00Z') }));
    expect(tray.tooltip).toBe('Syncing…');
    expect(item('Syncing…').enabled).toBe(false);
  });

  it('shows how many tray actions wait for the device database', () => {
    let waiting = 0;
    const { controller, click, item } = setup('2026-06-15T13:10:20Z', { waitingCount: () => waiting });
    controller.setState(state());
    expect(item('Online')).toBeTruthy();
    waiting = 1; // what the queue holds once the click below is kept
    click('Busy for the next 30 min');
    expect(item('Online · 1 tray action waiting')).toBeTruthy();
  });
});

describe('the macOS menu-bar text and the update items (issue 27)', () => {
  function preference(initial = false) {
    let on = initial;
    return { get: () => on, set: vi.fn((v: boolean) => void (on = v)) };
  }

  it('macOS: off by default (no text); the checkbox turns it on, and the text follows the minute', () => {
    const pref = preference();
    const { controller, tray, click, item } = setup('2026-06-15T13:29:40Z', { platform: 'darwin', menuBarText: pref }); // 15:29:40 local
    controller.setState(state());
    expect(tray.title).toBe('');
    expect(item('Show next free time in the menu bar').checked).toBe(false);
    click('Show next free time in the menu bar', { checked: true });
    expect(pref.set).toHaveBeenCalledWith(true);
    expect(tray.title).toBe('Free until 15:30');
    expect(item('Show next free time in the menu bar').checked).toBe(true);
    vi.advanceTimersByTime(20_000); // 15:30
    expect(tray.title).toBe('Next free 16:00');
    click('Show next free time in the menu bar', { checked: false });
    expect(tray.title).toBe('');
  });

  it('macOS, with the real option store (desktop-config.json): ticked and titled right after the click, not a minute later', async () => {
    const files = new Map<string, string>();
    const store = createServerSettingStore({
      readFile: async (f) => {
        const text = files.get(f);
        if (text === undefined) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
        return text;
      },
      writeFile: async (f, d) => void files.set(f, d),
      file: '/data/desktop-config.json',
      defaultOrigin: 'https://avail.example.com',
    });
    await store.get(); // main.ts reads the config before the tray exists
    const menuBarText = { get: () => store.showNextFreeInMenuBar(), set: (on: boolean) => void store.setShowNextFreeInMenuBar(on) };
    const { controller, tray, click, item } = setup('2026-06-15T13:10:00Z', { platform: 'darwin', menuBarText });
    controller.setState(state());
    click('Show next free time in the menu bar', { checked: true });
    expect(item('Show next free time in the menu bar').checked).toBe(true);
    expect(tray.setTitle).toHaveBeenLastCalledWith('Free until 15:30', { fontType: 'monospacedDigit' });
    click('Show next free time in the menu bar', { checked: false });
    expect(item('Show next free time in the menu bar').checked).toBe(false);
    expect(tray.title).toBe('');
    await vi.advanceTimersByTimeAsync(0);
    expect(JSON.parse(files.get('/data/desktop-config.json') ?? '{}')).toEqual({});
  });

  it('macOS: the option kept as on shows the text from the start', () => {
    const { tray } = setup('2026-06-15T13:10:00Z', { platform: 'darwin', menuBarText: preference(true), initialState: state() });
    expect(tray.title).toBe('Free until 15:30');
  });

  for (const platform of ['linux', 'win32'] as const) {
    it(`${platform}: never a title, no checkbox`, () => {
      const { controller, tray } = setup('2026-06-15T13:10:00Z', { platform, menuBarText: preference(true) });
      controller.setState(state());
      vi.advanceTimersByTime(5 * 60_000);
      expect(tray.setTitle).not.toHaveBeenCalled();
      expect(tray.menu?.some((i) => i.label === 'Show next free time in the menu bar')).toBe(false);
    });
  }

  it('update items follow the updater; clicks reach it; no item when updates are off', () => {
    let update: UpdateState | null = { kind: 'idle' };
    const updates = { state: () => update, checkNow: vi.fn(), restartToUpdate: vi.fn() };
    const { controller, click, item, tray } = setup('2026-06-15T13:10:00Z', { updates });
    controller.setState(state());
    click('Check for updates…');
    expect(updates.checkNow).toHaveBeenCalledOnce();
    update = { kind: 'ready', version: '1.2.3' };
    controller.refresh();
    click('Restart to update (v1.2.3)');
    expect(updates.restartToUpdate).toHaveBeenCalledOnce();
    update = null;
    controller.refresh();
    expect(tray.menu?.some((i) => i.id === 'update')).toBe(false);
    expect(item('Quit')).toBeTruthy();
  });
});
