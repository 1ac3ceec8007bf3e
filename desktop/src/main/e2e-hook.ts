/**
 * The real-Electron suite's window into the main process (desktop/e2e, docs/desktop-release.md
 * "Real-Electron suite"). Active only in an unpackaged app (`app.isPackaged` false: `electron
 * desktop/`) started with `AVAIL_E2E=1` — an installed app ignores both variables, so nobody can
 * point it at another data folder or get the probe by setting them; main.ts then
 * takes the data folder from `AVAIL_USER_DATA_DIR` and sets `globalThis.__availE2E` to the probe
 * made here, which the specs read with `electronApp.evaluate(() => globalThis.__availE2E…)`.
 *
 * The probe records what the tray was last told (tooltip, title, context menu) by standing
 * between the tray controller and Electron's `Tray` (a Proxy: every other property and method
 * goes to the real tray unchanged). It never writes to disk or logs.
 *
 * Electron pages followed: https://www.electronjs.org/docs/latest/api/tray (setToolTip,
 * setContextMenu, setTitle) and https://www.electronjs.org/docs/latest/api/menu-item (`click`).
 */

/** The part of an Electron `Menu` the probe reads. */
export interface ProbedMenu {
  items: ProbedMenuItem[];
}

/** The part of an Electron `MenuItem` the probe reads (`click` as Electron types it). */
interface ProbedMenuItem {
  label: string;
  type: string;
  enabled: boolean;
  submenu?: ProbedMenu | null;
  /** Electron's own type of `MenuItem.click` (it takes the event, window and webContents, all optional). */
  click: Function;
}

/** What `globalThis.__availE2E` offers the specs. */
export interface E2eTrayProbe {
  /** The last tooltip set (`tray.setToolTip`), '' before any. */
  tooltip(): string;
  /** The last title set (`tray.setTitle`, macOS), '' before any. */
  title(): string;
  /** The labels of the last context menu, depth first (a submenu's items after its own label), separators left out. */
  menuLabels(): string[];
  /**
   * Clicks the enabled item of the last context menu whose label is `label` (exact), as a user
   * would. @throws Error when there is no such item or it is disabled.
   */
  clickMenuItem(label: string): void;
}

/**
 * The data folder the suite chose: `env.AVAIL_USER_DATA_DIR` when {@link e2eEnabled} and it is an
 * absolute path, else null (the normal `<appData>/Avail`). `isPackaged`: Electron's `app.isPackaged`.
 */
export function e2eUserDataDir(env: Record<string, string | undefined>, isPackaged: boolean): string | null {
  if (!e2eEnabled(env, isPackaged)) return null;
  const dir = env.AVAIL_USER_DATA_DIR;
  return dir && (dir.startsWith('/') || /^[A-Za-z]:[\\/]/.test(dir)) ? dir : null;
}

/**
 * True when the app runs under the real-Electron suite: `AVAIL_E2E=1` and not packaged
 * (`isPackaged`: Electron's `app.isPackaged`; a packaged app is never under test).
 */
export function e2eEnabled(env: Record<string, string | undefined>, isPackaged: boolean): boolean {
  return !isPackaged && env.AVAIL_E2E === '1';
}

/**
 * Wraps `tray` so that `setToolTip`, `setTitle` and `setContextMenu` are recorded before they
 * reach it; returns the wrapper (hand it to the tray controller instead of the tray) and the probe.
 */
export function probeTray<T extends object>(tray: T): { tray: T; probe: E2eTrayProbe } {
  let tooltip = '';
  let title = '';
  let menu: ProbedMenu | null = null;
  const recorders: Record<string, (...args: unknown[]) => unknown> = {
    setToolTip: (text) => {
      tooltip = String(text);
      return call('setToolTip', text);
    },
    setTitle: (text, ...rest) => {
      title = String(text);
      return call('setTitle', text, ...rest);
    },
    setContextMenu: (m) => {
      menu = (m as ProbedMenu | null) ?? null;
      return call('setContextMenu', m);
    },
  };
  function call(name: string, ...args: unknown[]): unknown {
    const fn = Reflect.get(tray, name, tray) as ((...a: unknown[]) => unknown) | undefined;
    return typeof fn === 'function' ? fn.apply(tray, args) : undefined;
  }
  const wrapped = new Proxy(tray, {
    get(target, prop) {
      if (typeof prop === 'string' && Object.hasOwn(recorders, prop)) return recorders[prop];
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });

  function items(m: ProbedMenu | null): ProbedMenuItem[] {
    return (m?.items ?? []).flatMap((item) => (item.type === 'separator' ? [] : [item, ...items(item.submenu ?? null)]));
  }

  return {
    tray: wrapped,
    probe: {
      tooltip: () => tooltip,
      title: () => title,
      menuLabels: () => items(menu).map((item) => item.label),
      clickMenuItem(label) {
        const item = items(menu).find((i) => i.label === label);
        if (!item) throw new Error(`no tray menu item "${label}"`);
        if (!item.enabled) throw new Error(`tray menu item "${label}" is disabled`);
        (item.click as () => void)();
      },
    },
  };
}
