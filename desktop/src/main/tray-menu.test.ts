import { describe, expect, it, vi } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { signedOutTrayState, type TrayState } from '@avail/shared/desktop/desktop-bridge.ts';
import { connectionText, proposalLabel, trayMenuTemplate, type TrayMenuHandlers } from './tray-menu.ts';

const NOW = Date.parse('2026-06-15T10:00:00Z'); // Mon 12:00 in Brussels

function state(extra: Partial<TrayState> = {}): TrayState {
  return {
    signedIn: true,
    connection: 'online',
    pendingCount: 0,
    timezone: 'Europe/Brussels',
    windows: [{ start: Date.parse('2026-06-15T09:00:00Z'), end: Date.parse('2026-06-15T13:30:00Z') }],
    link: 'https://avail.example.com/ana',
    freeTimesText: 'Mon 15 Jun: 11:00–15:30\nhttps://avail.example.com/ana',
    computedAt: NOW,
    ...extra,
  };
}

function handlers() {
  return {
    openWindow: vi.fn<() => void>(),
    copyLink: vi.fn<() => void>(),
    copyFreeTimes: vi.fn<() => void>(),
    busy: vi.fn<TrayMenuHandlers['busy']>(),
    syncNow: vi.fn<() => void>(),
    proposal: vi.fn<TrayMenuHandlers['proposal']>(),
    openProposal: vi.fn<(id: string) => void>(),
    setOpenAtLogin: vi.fn<(openAtLogin: boolean) => void>(),
    quit: vi.fn<() => void>(),
  } satisfies TrayMenuHandlers;
}

const SUPPORTED = { openAtLogin: false, loginItemSupported: true };

/** Labels, with separators as '---'. */
const labels = (items: MenuItemConstructorOptions[]) => items.map((i) => (i.type === 'separator' ? '---' : i.label));
const byLabel = (items: MenuItemConstructorOptions[], label: string) => {
  const item = items.find((i) => i.label === label);
  if (!item) throw new Error(`no item ${label}`);
  return item;
};
const click = (item: MenuItemConstructorOptions, patch: Partial<Electron.MenuItem> = {}) =>
  item.click?.({ ...item, ...patch } as unknown as Electron.MenuItem, undefined, {} as Electron.KeyboardEvent);

describe('trayMenuTemplate', () => {
  it('free now: the full menu in order, status line disabled and equal to the label', () => {
    const items = trayMenuTemplate(state(), NOW, SUPPORTED, handlers());
    expect(labels(items)).toEqual([
      'Free now until 15:30',
      'Open Avail',
      '---',
      'Copy my link',
      'Copy my next free times',
      '---',
      'Busy for the next 30 min',
      'Busy for the next 1 h',
      'Busy for the next 2 h',
      'Busy for the rest of today',
      '---',
      'Sync now',
      'Online',
      'Start at login',
      '---',
      'Quit',
    ]);
    expect(items[0].enabled).toBe(false);
    expect(byLabel(items, 'Online').enabled).toBe(false);
    expect(byLabel(items, 'Copy my link').enabled).toBe(true);
  });

  it('busy: the status line is the next free window', () => {
    const s = state({ windows: [{ start: Date.parse('2026-06-16T07:00:00Z'), end: Date.parse('2026-06-16T09:00:00Z') }] });
    expect(trayMenuTemplate(s, NOW, SUPPORTED, handlers())[0].label).toBe('Busy — next free Tue 09:00–11:00');
  });

  it('offline with pending changes, syncing with one', () => {
    const offline = trayMenuTemplate(state({ connection: 'offline', pendingCount: 2 }), NOW, SUPPORTED, handlers());
    expect(labels(offline)).toContain('Offline · 2 changes pending');
    const syncing = trayMenuTemplate(state({ connection: 'syncing', pendingCount: 1 }), NOW, SUPPORTED, handlers());
    expect(labels(syncing)).toContain('Syncing… · 1 change pending');
    expect(connectionText({ connection: 'online', pendingCount: 0 })).toBe('Online');
    expect(connectionText({ connection: 'outdated', pendingCount: 0 })).toBe('Update required');
  });

  it('before the device has pulled (issue 25): the age of the known state, and the tray actions waiting for the database', () => {
    const computedAt = Date.parse('2026-06-15T07:05:00Z');
    const now = Date.parse('2026-06-15T09:00:00Z');
    expect(connectionText({ connection: 'syncing', pendingCount: 0, syncing: true, computedAt, timezone: 'Europe/Brussels' }, now)).toBe('Syncing… · as of 09:05');
    expect(connectionText({ connection: 'syncing', pendingCount: 0, syncing: true, computedAt: now - 30_000, timezone: 'UTC' }, now)).toBe('Syncing…');
    expect(connectionText({ connection: 'offline', pendingCount: 1, syncing: true, computedAt, timezone: 'UTC' }, now, 2)).toBe('Offline · 1 change pending · as of 07:05 · 2 tray actions waiting');
    expect(connectionText({ connection: 'online', pendingCount: 0, computedAt, timezone: 'UTC' }, now, 1)).toBe('Online · 1 tray action waiting');
  });

  it('signed out: status, Open Avail and Quit only', () => {
    const h = handlers();
    const items = trayMenuTemplate(signedOutTrayState(NOW), NOW, SUPPORTED, h);
    expect(labels(items).filter((l) => l !== '---')).toEqual(['Not signed in', 'Open Avail', 'Quit']);
    click(byLabel(items, 'Quit'));
    expect(h.quit).toHaveBeenCalledOnce();
  });

  it('"Copy my link" is disabled without a link; free times without text', () => {
    const items = trayMenuTemplate(state({ link: null, freeTimesText: null }), NOW, SUPPORTED, handlers());
    expect(byLabel(items, 'Copy my link').enabled).toBe(false);
    expect(byLabel(items, 'Copy my next free times').enabled).toBe(false);
  });

  it('each item calls its handler; the busy items carry their durations', () => {
    const h = handlers();
    const items = trayMenuTemplate(state(), NOW, SUPPORTED, h);
    click(byLabel(items, 'Open Avail'));
    click(byLabel(items, 'Copy my link'));
    click(byLabel(items, 'Copy my next free times'));
    click(byLabel(items, 'Busy for the next 30 min'));
    click(byLabel(items, 'Busy for the next 1 h'));
    click(byLabel(items, 'Busy for the next 2 h'));
    click(byLabel(items, 'Busy for the rest of today'));
    click(byLabel(items, 'Sync now'));
    expect(h.openWindow).toHaveBeenCalledOnce();
    expect(h.copyLink).toHaveBeenCalledOnce();
    expect(h.copyFreeTimes).toHaveBeenCalledOnce();
    expect(h.busy.mock.calls).toEqual([[{ minutes: 30 }], [{ minutes: 60 }], [{ minutes: 120 }], [{ restOfToday: true }]]);
    expect(h.syncNow).toHaveBeenCalledOnce();
  });

  it('"Start at login" is a checkbox reflecting the setting; clicking passes the new checked state', () => {
    const h = handlers();
    const item = byLabel(trayMenuTemplate(state(), NOW, { openAtLogin: true, loginItemSupported: true }, h), 'Start at login');
    expect(item.type).toBe('checkbox');
    expect(item.checked).toBe(true);
    expect(item.enabled).toBe(true);
    click(item, { checked: false }); // Electron toggles `checked` before calling click
    expect(h.setOpenAtLogin).toHaveBeenCalledWith(false);
  });

  it('"Start at login" is disabled and unchecked where unsupported (Linux)', () => {
    const item = byLabel(trayMenuTemplate(state(), NOW, { openAtLogin: true, loginItemSupported: false }, handlers()), 'Start at login');
    expect(item.enabled).toBe(false);
    expect(item.checked).toBe(false);
  });
});

describe('pending proposals in the tray (issue 24)', () => {
  const vera = { id: 'p-1', name: 'Vera Visitor', start: Date.parse('2026-06-16T08:00:00Z'), end: Date.parse('2026-06-16T08:45:00Z') };
  const bo = { id: 'p-2', name: 'Bo', start: Date.parse('2026-06-15T12:00:00Z'), end: Date.parse('2026-06-15T12:30:00Z') };

  it('no proposals: the menu is unchanged', () => {
    expect(labels(trayMenuTemplate(state({ proposals: [] }), NOW, SUPPORTED, handlers()))).toEqual(labels(trayMenuTemplate(state(), NOW, SUPPORTED, handlers())));
  });

  it('lists them after Open Avail, each with Confirm / Decline / Open in Avail', () => {
    const h = handlers();
    const items = trayMenuTemplate(state({ proposals: [bo, vera] }), NOW, SUPPORTED, h);
    expect(labels(items).slice(0, 6)).toEqual(['Free now until 15:30', 'Open Avail', '---', 'Proposed times (2)', '---', 'Copy my link']);
    const sub = byLabel(items, 'Proposed times (2)').submenu as MenuItemConstructorOptions[];
    expect(labels(sub)).toEqual(['Bo — today 14:00–14:30', 'Vera Visitor — Tue 10:00–10:45']);
    const actions = sub[1].submenu as MenuItemConstructorOptions[];
    expect(labels(actions)).toEqual(['Confirm', 'Decline', 'Open in Avail']);
    click(actions[0]);
    click(actions[1]);
    click(actions[2]);
    expect(h.proposal.mock.calls).toEqual([['p-1', 'confirm'], ['p-1', 'decline']]);
    expect(h.openProposal).toHaveBeenCalledWith('p-1');
  });

  it('a long name is shortened', () => {
    expect(proposalLabel({ ...vera, name: 'N'.repeat(60) }, 'Europe/Brussels', NOW)).toBe(`${'N'.repeat(39)}… — Tue 10:00–10:45`);
  });
});

describe('updates and the menu-bar text in the menu (issue 27)', () => {
  const fullHandlers = () => ({ ...handlers(), checkForUpdates: vi.fn<() => void>(), restartToUpdate: vi.fn<() => void>(), setShowInMenuBar: vi.fn<(on: boolean) => void>() });

  it('updates off (null): no update item; the menu is as before', () => {
    const items = trayMenuTemplate(state(), NOW, SUPPORTED, handlers(), 0, { update: null, showInMenuBar: null });
    expect(labels(items)).toEqual(labels(trayMenuTemplate(state(), NOW, SUPPORTED, handlers())));
    expect(labels(items).some((l) => /update/i.test(l ?? ''))).toBe(false);
  });

  it('idle: "Check for updates…" before Quit, signed in and signed out', () => {
    const h = fullHandlers();
    const items = trayMenuTemplate(state(), NOW, SUPPORTED, h, 0, { update: { kind: 'idle' } });
    expect(labels(items).slice(-3)).toEqual(['---', 'Check for updates…', 'Quit']);
    click(byLabel(items, 'Check for updates…'));
    expect(h.checkForUpdates).toHaveBeenCalledOnce();
    expect(labels(trayMenuTemplate(signedOutTrayState(NOW), NOW, SUPPORTED, h, 0, { update: { kind: 'error' } }))).toEqual(['Not signed in', 'Open Avail', '---', 'Check for updates…', 'Quit']);
  });

  it('checking and downloading: disabled lines; ready: "Restart to update (v1.2.3)"', () => {
    const h = fullHandlers();
    expect(byLabel(trayMenuTemplate(state(), NOW, SUPPORTED, h, 0, { update: { kind: 'checking' } }), 'Checking for updates…').enabled).toBe(false);
    expect(byLabel(trayMenuTemplate(state(), NOW, SUPPORTED, h, 0, { update: { kind: 'downloading', version: '1.2.3' } }), 'Downloading update (v1.2.3)…').enabled).toBe(false);
    expect(byLabel(trayMenuTemplate(state(), NOW, SUPPORTED, h, 0, { update: { kind: 'installing', version: '1.2.3' } }), 'Restarting to update…').enabled).toBe(false);
    const ready = byLabel(trayMenuTemplate(state(), NOW, SUPPORTED, h, 0, { update: { kind: 'ready', version: '1.2.3' } }), 'Restart to update (v1.2.3)');
    expect(ready.enabled).not.toBe(false);
    click(ready);
    expect(h.restartToUpdate).toHaveBeenCalledOnce();
    expect(h.checkForUpdates).not.toHaveBeenCalled();
  });

  it('"Show next free time in the menu bar": a checkbox after Start at login only where offered', () => {
    const h = fullHandlers();
    expect(labels(trayMenuTemplate(state(), NOW, SUPPORTED, h))).not.toContain('Show next free time in the menu bar');
    const items = trayMenuTemplate(state(), NOW, SUPPORTED, h, 0, { showInMenuBar: false });
    const names = labels(items);
    expect(names.indexOf('Show next free time in the menu bar')).toBe(names.indexOf('Start at login') + 1);
    const item = byLabel(items, 'Show next free time in the menu bar');
    expect(item.type).toBe('checkbox');
    expect(item.checked).toBe(false);
    click(item, { checked: true });
    expect(h.setShowInMenuBar).toHaveBeenCalledWith(true);
    expect(byLabel(trayMenuTemplate(state(), NOW, SUPPORTED, h, 0, { showInMenuBar: true }), 'Show next free time in the menu bar').checked).toBe(true);
  });
});
