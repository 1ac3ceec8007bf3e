/**
 * The tray's context menu as an Electron menu template: pure (no Electron at runtime, only its
 * types), so every state's menu is unit-tested. The controller turns it into a `Menu` with
 * `Menu.buildFromTemplate` (https://www.electronjs.org/docs/latest/api/menu#menubuildfromtemplatetemplate).
 */
import type { MenuItemConstructorOptions } from 'electron';
import type { BusyDuration, TrayState } from '@avail/shared/desktop/desktop-bridge.ts';
import { trayStatusText } from './tray-label.ts';

/** What the menu's items do; the controller wires them to the window, clipboard and renderer. */
export interface TrayMenuHandlers {
  openWindow(): void;
  copyLink(): void;
  copyFreeTimes(): void;
  busy(duration: BusyDuration): void;
  syncNow(): void;
  setOpenAtLogin(openAtLogin: boolean): void;
  quit(): void;
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
export const CONNECTION_LABEL: Record<TrayState['connection'], string> = {
  online: 'Online',
  syncing: 'Syncing…',
  offline: 'Offline',
  outdated: 'Update required',
  unauthorized: 'Signed out',
};

/** `Online`, `Offline · 1 change pending`, `Syncing… · 2 changes pending`. */
export function connectionText(state: Pick<TrayState, 'connection' | 'pendingCount'>): string {
  const base = CONNECTION_LABEL[state.connection] ?? 'Offline';
  const n = state.pendingCount;
  if (!(n > 0)) return base;
  return `${base} · ${n} ${n === 1 ? 'change' : 'changes'} pending`;
}

/**
 * The menu for `state` at instant `now` (UTC epoch ms):
 * status line (disabled, same text as the tooltip) · Open Avail · ─ · Copy my link (disabled
 * without a link) · Copy my next free times (disabled without text) · ─ · Busy for the next
 * 30 min / 1 h / 2 h / the rest of today · ─ · Sync now · connection line (disabled) · Start at
 * login (checkbox, disabled where unsupported) · ─ · Quit.
 * Signed out: status line · Open Avail · ─ · Quit.
 */
export function trayMenuTemplate(state: TrayState, now: number, login: LoginItemState, handlers: TrayMenuHandlers): MenuItemConstructorOptions[] {
  const status: MenuItemConstructorOptions = { id: 'status', label: trayStatusText(state, now), enabled: false };
  const open: MenuItemConstructorOptions = { id: 'open', label: 'Open Avail', click: () => handlers.openWindow() };
  const quit: MenuItemConstructorOptions = { id: 'quit', label: 'Quit', click: () => handlers.quit() };
  if (!state.signedIn) return [status, open, { type: 'separator' }, quit];
  return [
    status,
    open,
    { type: 'separator' },
    { id: 'copy-link', label: 'Copy my link', enabled: Boolean(state.link), click: () => handlers.copyLink() },
    { id: 'copy-free-times', label: 'Copy my next free times', enabled: Boolean(state.freeTimesText), click: () => handlers.copyFreeTimes() },
    { type: 'separator' },
    ...BUSY_ITEMS.map(
      (item, i): MenuItemConstructorOptions => ({ id: `busy-${i}`, label: item.label, click: () => handlers.busy(item.duration) }),
    ),
    { type: 'separator' },
    { id: 'sync-now', label: 'Sync now', click: () => handlers.syncNow() },
    { id: 'connection', label: connectionText(state), enabled: false },
    {
      id: 'open-at-login',
      label: 'Start at login',
      type: 'checkbox',
      checked: login.loginItemSupported && login.openAtLogin,
      enabled: login.loginItemSupported,
      click: (item) => handlers.setOpenAtLogin(Boolean(item.checked)),
    },
    { type: 'separator' },
    quit,
  ];
}
