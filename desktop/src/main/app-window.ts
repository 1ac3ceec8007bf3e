/**
 * The app window and everything that keeps it safe and singular, as small functions over the
 * parts of Electron they touch (so they run in unit tests with plain fakes):
 *
 * - {@link mainWindowOptions}: sandboxed, context-isolated renderer without Node, with the preload;
 *   background throttling off, because the app keeps replicating while its window is hidden
 *   (https://www.electronjs.org/docs/latest/api/structures/web-preferences);
 * - {@link attachHideOnClose} / {@link trackQuitting}: closing the window hides it to the tray;
 *   only Quit (or the OS quitting the app) closes it for real;
 * - {@link claimSingleInstance}: one running app; a second launch shows the first one's window
 *   (https://www.electronjs.org/docs/latest/api/app#apprequestsingleinstancelockadditionaldata);
 * - navigation and window-open rules, following the security checklist
 *   (https://www.electronjs.org/docs/latest/tutorial/security#13-disable-or-limit-navigation,
 *   #14-disable-or-limit-creation-of-new-windows): the window stays on `app://avail`
 *   (`will-navigate` and `will-redirect`), every `window.open` is denied, and web addresses go to
 *   the default browser through the external-link policy (external-link-policy.ts);
 * - {@link isAllowedPermission}: only notifications and clipboard writes, only for `app://avail`.
 */
import type { BrowserWindowConstructorOptions, HandlerDetails, WindowOpenHandlerResponse } from 'electron';
import { APP_HOST, APP_SCHEME } from './app-protocol.ts';

/**
 * The web preferences every window of the app shares: isolated, sandboxed, no Node, no webviews
 * (https://www.electronjs.org/docs/latest/tutorial/security).
 */
const LOCKED_DOWN_WEB_PREFERENCES = {
  contextIsolation: true,
  nodeIntegration: false,
  nodeIntegrationInSubFrames: false,
  sandbox: true,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  navigateOnDragDrop: false,
} as const;

/**
 * Options of the main window (hidden until `ready-to-show`, see main.ts). `bounds`: where it opens
 * (window-state-store.ts `restoredWindowPlacement`): x/y/width/height, or only a size (centred);
 * default 1200×800 centred.
 */
export function mainWindowOptions(input: {
  preload: string;
  icon?: string;
  title?: string;
  bounds?: { x?: number; y?: number; width: number; height: number };
}): BrowserWindowConstructorOptions {
  const b = input.bounds;
  return {
    width: b?.width ?? 1200,
    height: b?.height ?? 800,
    ...(b && typeof b.x === 'number' && typeof b.y === 'number' ? { x: b.x, y: b.y } : { center: true }),
    minWidth: 380,
    minHeight: 480,
    show: false,
    title: input.title ?? 'Avail',
    ...(input.icon ? { icon: input.icon } : {}),
    autoHideMenuBar: true,
    webPreferences: {
      ...LOCKED_DOWN_WEB_PREFERENCES,
      preload: input.preload,
      backgroundThrottling: false,
      spellcheck: true,
    },
  };
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** true for `app://avail/…` (Node's URL gives non-special schemes the origin "null", so compare parts). */
export function isAppUrl(url: string): boolean {
  const u = parse(url);
  return u !== null && u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST && !u.username && !u.password;
}

/** true for an http: or https: URL (what may go to the default browser, through the policy). */
function isWebUrl(url: string): boolean {
  const u = parse(url);
  return u !== null && (u.protocol === 'http:' || u.protocol === 'https:');
}

/** What to do with a `window.open` / `target=_blank` of the main window. */
export type WindowOpenDecision = { action: 'open-external'; url: string } | { action: 'deny' };

/**
 * The main window's window-open rule: never a window. An http(s) target goes to the system
 * browser through the external-link policy (external-link-policy.ts); anything else (`about:blank`,
 * `file:`, `app:`, `javascript:` …) is only denied. The desktop renderer connects Google and
 * Microsoft through the bridge's `openExternal`, so it has no popup of its own.
 */
export function decideWindowOpen(url: string): WindowOpenDecision {
  if (isWebUrl(url)) return { action: 'open-external', url };
  return { action: 'deny' };
}

/**
 * Hands a web address to the system browser. main.ts passes `openExternalWithPolicy` (allow-list,
 * else a question); it may return a promise, whose rejection is logged, never thrown.
 */
type ExternalOpener = (url: string) => unknown;

/** A navigation event: `event.url` and `preventDefault()` (Electron's `will-navigate` / `will-redirect` details). */
export interface NavigationEvent {
  url: string;
  preventDefault(): void;
}

/** The part of `WebContents` the guards use. */
export interface GuardedContents {
  on(event: 'will-navigate' | 'will-redirect', listener: (event: NavigationEvent) => void): unknown;
  setWindowOpenHandler(handler: (details: Pick<HandlerDetails, 'url'>) => WindowOpenHandlerResponse): void;
}

export interface MainWindowGuardDeps {
  /** Opens a web address outside the app, through the policy (see {@link ExternalOpener}). */
  openExternal: ExternalOpener;
  log?: (message: string) => void;
}

function openOutside(openExternal: ExternalOpener, url: string, log: (m: string) => void): void {
  try {
    Promise.resolve(openExternal(url)).catch(() => log('could not open a link in the default browser'));
  } catch {
    log('could not open a link in the default browser');
  }
}

/** The main window's `setWindowOpenHandler` handler: always `deny` (see {@link decideWindowOpen}). */
export function mainWindowOpenHandler(deps: MainWindowGuardDeps): (details: Pick<HandlerDetails, 'url'>) => WindowOpenHandlerResponse {
  const log = deps.log ?? (() => undefined);
  return ({ url }) => {
    const decision = decideWindowOpen(url);
    if (decision.action === 'open-external') openOutside(deps.openExternal, decision.url, log);
    return { action: 'deny' };
  };
}

/**
 * Installs the main window's rules on its `webContents`: `will-navigate` and `will-redirect` stay
 * on `app://avail` (a web address is stopped and handed to the policy instead, any other scheme is
 * only stopped), and `setWindowOpenHandler` as {@link mainWindowOpenHandler}.
 */
export function attachMainWindowGuards(contents: GuardedContents, deps: MainWindowGuardDeps): void {
  const log = deps.log ?? (() => undefined);
  const guard = (event: NavigationEvent) => {
    if (isAppUrl(event.url)) return;
    event.preventDefault();
    if (isWebUrl(event.url)) openOutside(deps.openExternal, event.url, log);
  };
  contents.on('will-navigate', guard);
  contents.on('will-redirect', guard);
  contents.setWindowOpenHandler(mainWindowOpenHandler(deps));
}

/** Permissions the renderer may get (https://www.electronjs.org/docs/latest/api/session#sessetpermissionrequesthandlerhandler). */
const ALLOWED_PERMISSIONS: readonly string[] = ['notifications', 'clipboard-sanitized-write'];

/**
 * The permission rule for `setPermissionRequestHandler` and `setPermissionCheckHandler`: only
 * {@link ALLOWED_PERMISSIONS}, and only for a page of `app://avail`. One more case: `openExternal` for a `mailto:` link of the app (the support address),
 * which Chromium hands to the OS mail client.
 * @param requestingUrl the requesting page's URL or origin.
 * @param externalUrl for `openExternal`, the URL to open (Electron's `details.externalURL`).
 */
export function isAllowedPermission(permission: string, requestingUrl: string | undefined, externalUrl?: string): boolean {
  if (typeof requestingUrl !== 'string' || !isAppUrl(requestingUrl)) return false;
  if (permission === 'openExternal') return typeof externalUrl === 'string' && /^mailto:[^\s]*$/i.test(externalUrl);
  return ALLOWED_PERMISSIONS.includes(permission);
}

/** Set when the app is really quitting (Quit item, OS shutdown, `app.quit()`). */
export interface QuitFlag {
  quitting: boolean;
}

/** Sets `flag.quitting` on the app's `before-quit` (https://www.electronjs.org/docs/latest/api/app#event-before-quit). */
export function trackQuitting(app: { on(event: 'before-quit', listener: () => void): unknown }, flag: QuitFlag): void {
  app.on('before-quit', () => {
    flag.quitting = true;
  });
}

/**
 * Windows ends a session (shutdown, restart, sign-out) without `before-quit`
 * (https://www.electronjs.org/docs/latest/api/app#event-before-quit): the window's `session-end`
 * and the power monitor's `shutdown` mark the app as quitting, so hide-on-close never holds the
 * OS up.
 */
export function trackSessionEnd(
  win: { on(event: 'session-end', listener: () => void): unknown },
  powerMonitor: { on(event: 'shutdown', listener: () => void): unknown } | null,
  flag: QuitFlag,
): void {
  win.on('session-end', () => {
    flag.quitting = true;
  });
  powerMonitor?.on('shutdown', () => {
    flag.quitting = true;
  });
}

/** How long after a renderer crash the window reloads (ms). */
export const RENDERER_RELOAD_DELAY_MS = 1_000;

/**
 * A renderer that crashed or was killed is reloaded after {@link RENDERER_RELOAD_DELAY_MS}, so
 * the tray state, replication and commands come back; a clean exit (the window closing) is left
 * alone. Logs only the reason and exit code
 * (https://www.electronjs.org/docs/latest/api/web-contents#event-render-process-gone).
 */
export function attachCrashRecovery(
  contents: {
    on(event: 'render-process-gone', listener: (event: unknown, details: { reason: string; exitCode: number }) => void): unknown;
    reload(): void;
    isDestroyed(): boolean;
  },
  deps: { setTimeout(fn: () => void, ms: number): unknown; log(message: string): void },
): void {
  contents.on('render-process-gone', (_event, details) => {
    if (details.reason === 'clean-exit') return;
    deps.log(`renderer gone (${details.reason}, exit ${details.exitCode}): reloading`);
    deps.setTimeout(() => {
      if (!contents.isDestroyed()) contents.reload();
    }, RENDERER_RELOAD_DELAY_MS);
  });
}

/** The part of `BrowserWindow` hide-on-close uses. */
export interface HideableWindow {
  on(event: 'close', listener: (event: { preventDefault(): void }) => void): unknown;
  hide(): void;
}

/**
 * Closing the window (its close button, Cmd+W, Alt+F4) hides it to the tray: the `close` event is
 * prevented and the window hidden, unless `flag.quitting` — then it closes for real. On macOS pass
 * `dock` ({@link createDockControl}): the Dock icon goes with the window, here only, because this
 * is a hide the app does on purpose (the window's own `hide` event also fires when it is covered,
 * on another Space, minimised or the screen locks, and must not remove the app from the Dock).
 */
export function attachHideOnClose(win: HideableWindow, flag: QuitFlag, dock?: DockControl | null): void {
  win.on('close', (event) => {
    if (flag.quitting) return;
    event.preventDefault();
    win.hide();
    dock?.hide();
  });
}

/** The part of `BrowserWindow` {@link revealWindow} uses. */
export interface RevealableWindow {
  isMinimized(): boolean;
  restore(): void;
  show(): void;
  focus(): void;
  isDestroyed?(): boolean;
}

/**
 * Brings the window to the front: restores it when minimised, shows it, focuses it. With `dock`
 * (macOS) the Dock icon is shown first and `win.show()` waits for it (Electron's `dock.show()`
 * resolves once the app is a regular app again; a window shown before that may open behind others).
 * `beforeShow` runs just before `win.show()` (main.ts: a restored maximized state, applied before
 * the first show so the window does not visibly jump). Without a Dock everything happens at once.
 * Resolves when the window was shown (or turned out destroyed meanwhile); never rejects.
 */
export function revealWindow(win: RevealableWindow, dock?: DockControl | null, beforeShow?: () => void): Promise<void> {
  const bringToFront = () => {
    if (win.isDestroyed?.()) return;
    if (win.isMinimized()) win.restore();
    beforeShow?.();
    win.show();
    win.focus();
  };
  if (!dock) {
    bringToFront();
    return Promise.resolve();
  }
  return dock.show().then(bringToFront);
}

/** The part of `app` the Dock rule uses: `app.dock` exists on macOS only (https://www.electronjs.org/docs/latest/api/dock). */
export interface DockApp {
  dock?: { show(): Promise<void> | void; hide(): void } | undefined;
}

/** The Dock icon, shown and hidden only where the app hides or shows its window on purpose. */
export interface DockControl {
  /** Hides the Dock icon (the app stays in the menu bar). Never throws. */
  hide(): void;
  /** Shows the Dock icon; resolves when macOS has done so (or it failed: never rejects). */
  show(): Promise<void>;
}

/**
 * macOS: the Dock icon follows the window where the app itself hides or shows it
 * (docs/desktop-release.md, "Comfort") — hidden by hide-on-close ({@link attachHideOnClose}) and
 * at a hidden start at login (main.ts), shown by {@link revealWindow} before the window (tray
 * "Open Avail", a notification, a second launch, the Dock icon). Never tied to the window's `hide`
 * / `show` events: macOS fires those for occlusion too (covered, another Space, minimised, screen
 * lock, Cmd+H), which would take the app out of the Dock and Cmd+Tab whenever it is covered.
 * Returns null on other platforms (no Dock) or without `app.dock`.
 */
export function createDockControl(app: DockApp, platform: NodeJS.Platform): DockControl | null {
  if (platform !== 'darwin' || !app.dock) return null;
  const dock = app.dock;
  return {
    hide() {
      try {
        dock.hide();
      } catch {
        /* no Dock: nothing to hide */
      }
    },
    async show() {
      try {
        await dock.show();
      } catch {
        /* no Dock: the window shows anyway */
      }
    },
  };
}

/** The part of `app` the single-instance rule uses. */
export interface SingleInstanceApp {
  requestSingleInstanceLock(): boolean;
  quit(): void;
  on(event: 'second-instance', listener: (...args: unknown[]) => void): unknown;
}

/**
 * Claims the single-instance lock. Without it (another instance runs) the app quits and this
 * returns false: the caller must not create windows. With it, a later launch's `second-instance`
 * event calls `showWindow` (the first instance comes to the front) and this returns true.
 */
export function claimSingleInstance(app: SingleInstanceApp, showWindow: () => void): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', () => showWindow());
  return true;
}
