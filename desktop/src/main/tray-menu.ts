/**
 * The tray's context menu as an Electron menu template: pure (no Electron at runtime, only its
 * types), so every state's menu is unit-tested. The controller turns it into a `Menu` with
 * `Menu.buildFromTemplate` (https://www.electronjs.org/docs/latest/api/menu#menubuildfromtemplatetemplate).
 */
import type { MenuItemConstructorOptions } from 'electron';
import type { BusyDuration, TrayProposal, TrayState } from '@avail/shared/desktop/desktop-bridge.ts';
import { MINUTE_MS } from '@avail/shared/domain/zone-time.ts';
import { computedAtText, freeTimesTextCurrent, proposalTimeText, trayStatusText } from './tray-label.ts';
import type { UpdateState } from './update-cycle.ts';

/** What the menu's items do; the controller wires them to the window, clipboard and renderer. */
export interface TrayMenuHandlers {
  openWindow(): void;
  copyLink(): void;
  copyFreeTimes(): void;
  busy(duration: BusyDuration): void;
  syncNow(): void;
  /** Confirm or decline a pending proposal (issue 24). */
  proposal(id: string, action: 'confirm' | 'decline'): void;
  /** Opens the app at one proposal. */
  openProposal(id: string): void;
  setOpenAtLogin(openAtLogin: boolean): void;
  quit(): void;
  /** "Check for updates…" (update-controller.ts). */
  checkForUpdates?(): void;
  /** "Restart to update (v1.2.3)". */
  restartToUpdate?(): void;
  /** The macOS checkbox "Show next free time in the menu bar"; called with the new checked state. */
  setShowInMenuBar?(on: boolean): void;
}

/** What the menu shows beyond the tray state (docs/desktop-release.md, "Publishing and updates"). */
export interface TrayMenuOptions {
  /** The updater's state; null or absent: updates are off here, no item at all. */
  update?: UpdateState | null;
  /** The menu-bar text option's checked state; null or absent: not offered (not macOS). */
  showInMenuBar?: boolean | null;
}

/** Labels of the update item. */
const UPDATE_LABEL = {
  check: 'Check for updates…',
  checking: 'Checking for updates…',
  downloading: (version: string) => `Downloading update${version ? ` (v${version})` : ''}…`,
  restart: (version: string) => `Restart to update${version ? ` (v${version})` : ''}`,
  restarting: 'Restarting to update…',
} as const;

/** The label of the macOS menu-bar text checkbox. */
const SHOW_IN_MENU_BAR_LABEL = 'Show next free time in the menu bar';

/**
 * The update item for `update` (none when null): "Check for updates…" (idle, or after an error);
 * "Checking for updates…", "Downloading update (v1.2.3)…" and "Restarting to update…" disabled; "Restart to update (v1.2.3)".
 */
function updateItems(update: UpdateState | null | undefined, handlers: TrayMenuHandlers): MenuItemConstructorOptions[] {
  if (!update) return [];
  switch (update.kind) {
    case 'checking':
      return [{ id: 'update', label: UPDATE_LABEL.checking, enabled: false }];
    case 'downloading':
      return [{ id: 'update', label: UPDATE_LABEL.downloading(update.version), enabled: false }];
    case 'ready':
      return [{ id: 'update', label: UPDATE_LABEL.restart(update.version), click: () => handlers.restartToUpdate?.() }];
    case 'installing':
      return [{ id: 'update', label: UPDATE_LABEL.restarting, enabled: false }];
    default:
      return [{ id: 'update', label: UPDATE_LABEL.check, click: () => handlers.checkForUpdates?.() }];
  }
}

/** The "Start at login" item's state (see `login-item.ts`). */
export interface LoginItemState {
  openAtLogin: boolean;
  /** false on Linux: the item is shown but disabled. */
  loginItemSupported: boolean;
}

/** The four "Busy for …" items, in menu order. */
export const BUSY_ITEMS: ReadonlyArray<{ label: string; duration: BusyDuration }> = [
  { label: 'Busy for the next 30 min', duration: { minutes: 30 } },
  { label: 'Busy for the next 1 h', duration: { minutes: 60 } },
  { label: 'Busy for the next 2 h', duration: { minutes: 120 } },
  { label: 'Busy for the rest of today', duration: { restOfToday: true } },
];

/** Same words as the web app's header (`SYNC_STATUS_LABEL` in web/src/app/local-data.tsx). */
const CONNECTION_LABEL: Record<TrayState['connection'], string> = {
  online: 'Online',
  syncing: 'Syncing…',
  offline: 'Offline',
  outdated: 'Update required',
  unauthorized: 'Signed out',
};

/**
 * `Online`, `Offline · 1 change pending`, `Syncing… · 2 changes pending`; before the device's
 * pull (`state.syncing`, issue 25) with the age of the windows shown, `Syncing… · as of 09:12`
 * (when they were computed a minute or more before `now`); and the tray commands waiting for the
 * device database, `Syncing… · 1 tray action waiting`.
 * @param now UTC ms (needed only for the "as of" part).
 * @param waiting how many tray commands wait (`tray-command-queue.ts`).
 */
export function connectionText(
  state: Pick<TrayState, 'connection' | 'pendingCount'> & Partial<Pick<TrayState, 'syncing' | 'computedAt' | 'timezone'>>,
  now = 0,
  waiting = 0,
): string {
  const parts = [CONNECTION_LABEL[state.connection] ?? 'Offline'];
  const n = state.pendingCount;
  if (n > 0) parts.push(`${n} ${n === 1 ? 'change' : 'changes'} pending`);
  if (state.syncing && state.computedAt !== undefined && now - state.computedAt >= MINUTE_MS) parts.push(`as of ${computedAtText(state.timezone ?? 'UTC', state.computedAt, now)}`);
  if (waiting > 0) parts.push(`${waiting} tray ${waiting === 1 ? 'action' : 'actions'} waiting`);
  return parts.join(' · ');
}

/** `Proposed times (2)`: the heading of the pending proposals' submenu. */
function proposalsHeading(count: number): string {
  return `Proposed times (${count})`;
}

/** `Vera Visitor — Tue 10:00–10:45`: one pending proposal in the tray (the owner's zone). */
export function proposalLabel(p: TrayProposal, timezone: string, now: number): string {
  const name = p.name.length > 40 ? `${p.name.slice(0, 39)}…` : p.name;
  return `${name} — ${proposalTimeText(timezone, p.start, p.end, now)}`;
}

/** The pending proposals' items: one submenu each with Confirm, Decline and Open in Avail. */
function proposalItems(state: TrayState, now: number, handlers: TrayMenuHandlers): MenuItemConstructorOptions[] {
  const list = state.proposals ?? [];
  if (list.length === 0) return [];
  return [
    {
      id: 'proposals',
      label: proposalsHeading(list.length),
      submenu: list.map(
        (p): MenuItemConstructorOptions => ({
          id: `proposal-${p.id}`,
          label: proposalLabel(p, state.timezone, now),
          submenu: [
            { id: `proposal-${p.id}-confirm`, label: 'Confirm', click: () => handlers.proposal(p.id, 'confirm') },
            { id: `proposal-${p.id}-decline`, label: 'Decline', click: () => handlers.proposal(p.id, 'decline') },
            { id: `proposal-${p.id}-open`, label: 'Open in Avail', click: () => handlers.openProposal(p.id) },
          ],
        }),
      ),
    },
    { type: 'separator' },
  ];
}

/**
 * The menu for `state` at instant `now` (UTC epoch ms):
 * status line (disabled, same text as the tooltip) · Open Avail · ─ · with pending proposals
 * "Proposed times (n)" (a submenu: each proposal → Confirm / Decline / Open in Avail) · ─ · Copy my link (disabled
 * without a link) · Copy my next free times (disabled without text) · ─ · Busy for the next
 * 30 min / 1 h / 2 h / the rest of today · ─ · Sync now · connection line (disabled) · Start at
 * login (checkbox, disabled where unsupported) · [macOS: Show next free time in the menu bar
 * (checkbox)] · ─ · [the update item] · Quit.
 * Signed out: status line · Open Avail · ─ · [the update item] · Quit.
 * `options` (issue 27): the update item where updates are on ({@link updateItems}), the menu-bar
 * text checkbox where offered (macOS); without them the menu is as before.
 * Before the device's pull (`state.syncing`, issue 25) the same signed-in menu over the last known
 * state: the connection line says how old it is; "Copy my next free times" only while its text is
 * still true ({@link freeTimesTextCurrent}). `waiting`: tray commands kept for the device database.
 */
export function trayMenuTemplate(
  state: TrayState,
  now: number,
  login: LoginItemState,
  handlers: TrayMenuHandlers,
  waiting = 0,
  options: TrayMenuOptions = {},
): MenuItemConstructorOptions[] {
  const status: MenuItemConstructorOptions = { id: 'status', label: trayStatusText(state, now), enabled: false };
  const open: MenuItemConstructorOptions = { id: 'open', label: 'Open Avail', click: () => handlers.openWindow() };
  const quit: MenuItemConstructorOptions = { id: 'quit', label: 'Quit', click: () => handlers.quit() };
  const update = updateItems(options.update, handlers);
  if (!state.signedIn) return [status, open, { type: 'separator' }, ...update, quit];
  const menuBar: MenuItemConstructorOptions[] =
    options.showInMenuBar === null || options.showInMenuBar === undefined
      ? []
      : [
          {
            id: 'show-in-menu-bar',
            label: SHOW_IN_MENU_BAR_LABEL,
            type: 'checkbox',
            checked: options.showInMenuBar,
            click: (item) => handlers.setShowInMenuBar?.(Boolean(item.checked)),
          },
        ];
  return [
    status,
    open,
    { type: 'separator' },
    ...proposalItems(state, now, handlers),
    { id: 'copy-link', label: 'Copy my link', enabled: Boolean(state.link), click: () => handlers.copyLink() },
    { id: 'copy-free-times', label: 'Copy my next free times', enabled: freeTimesTextCurrent(state, now), click: () => handlers.copyFreeTimes() },
    { type: 'separator' },
    ...BUSY_ITEMS.map(
      (item, i): MenuItemConstructorOptions => ({ id: `busy-${i}`, label: item.label, click: () => handlers.busy(item.duration) }),
    ),
    { type: 'separator' },
    { id: 'sync-now', label: 'Sync now', click: () => handlers.syncNow() },
    { id: 'connection', label: connectionText(state, now, waiting), enabled: false },
    {
      id: 'open-at-login',
      label: 'Start at login',
      type: 'checkbox',
      checked: login.loginItemSupported && login.openAtLogin,
      enabled: login.loginItemSupported,
      click: (item) => handlers.setOpenAtLogin(Boolean(item.checked)),
    },
    ...menuBar,
    { type: 'separator' },
    ...update,
    quit,
  ];
}
