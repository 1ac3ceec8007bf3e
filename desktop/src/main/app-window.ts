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
 *   #14-disable-or-limit-creation-of-new-windows): the window stays on `app://avail`; the OAuth
 *   connect popup (web/src/features/settings/oauth-popup.ts opens `about:blank`, then points it at
 *   the provider's consent page, which ends on the server's `/api/oauth/{provider}/callback` page
 *   that closes itself) is allowed as a sandboxed child without preload whose navigations stay on
 *   the server and the providers' sign-in hosts; other web links open in the default browser;
 * - {@link isAllowedPermission}: only notifications and clipboard writes, only for `app://avail`.
 */
import type { BrowserWindowConstructorOptions, HandlerDetails, WindowOpenHandlerResponse } from 'electron';
import { APP_HOST, APP_SCHEME } from './app-protocol.ts';

/**
 * The web preferences every window of the app shares: isolated, sandboxed, no Node, no webviews
 * (https://www.electronjs.org/docs/latest/tutorial/security).
 */
export const LOCKED_DOWN_WEB_PREFERENCES = {
  contextIsolation: true,
  nodeIntegration: false,
  nodeIntegrationInSubFrames: false,
  sandbox: true,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  navigateOnDragDrop: false,
} as const;

/** Options of the main window (hidden until `ready-to-show`, see main.ts). */
export function mainWindowOptions(input: { preload: string; icon?: string; title?: string }): BrowserWindowConstructorOptions {
  return {
    width: 1200,
    height: 800,
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

/** Hosts of the providers' consent and sign-in pages the OAuth popup may navigate to (https only). */
export const OAUTH_CONSENT_HOSTS: readonly string[] = ['accounts.google.com', 'login.microsoftonline.com', 'login.live.com'];

/** Options of the OAuth popup: a child window with no preload (no bridge), sandboxed, no Node. */
export const OAUTH_POPUP_OPTIONS: BrowserWindowConstructorOptions = {
  width: 500,
  height: 650,
  autoHideMenuBar: true,
  webPreferences: { ...LOCKED_DOWN_WEB_PREFERENCES },
};

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

/** true for an http: or https: URL (what may go to the default browser). */
export function isWebUrl(url: string): boolean {
  const u = parse(url);
  return u !== null && (u.protocol === 'http:' || u.protocol === 'https:');
}

/** What to do with a `window.open` / `target=_blank` of the main window. */
export type WindowOpenDecision = { action: 'oauth-popup' } | { action: 'open-external'; url: string } | { action: 'deny' };

/**
 * The main window's window-open rule: `about:blank` (the OAuth popup, opened blank before its
 * address is known) → a child window; any http(s) URL → the default browser; anything else
 * (`file:`, `app:`, `javascript:` …) → denied.
 */
export function decideWindowOpen(url: string): WindowOpenDecision {
  if (url === 'about:blank') return { action: 'oauth-popup' };
  if (isWebUrl(url)) return { action: 'open-external', url };
  return { action: 'deny' };
}

/**
 * Whether the OAuth popup may navigate to `url`: the Avail server's origin (its callback page),
 * or https on one of {@link OAUTH_CONSENT_HOSTS}.
 * @param serverOrigin the current server origin, e.g. `https://avail.example.com`.
 */
export function isAllowedPopupNavigation(url: string, serverOrigin: string): boolean {
  const u = parse(url);
  if (!u || u.username || u.password) return false;
  if ((u.protocol === 'http:' || u.protocol === 'https:') && u.origin === serverOrigin) return true;
  return u.protocol === 'https:' && OAUTH_CONSENT_HOSTS.includes(u.hostname);
}

/** The part of `shell` the rules use (https://www.electronjs.org/docs/latest/api/shell#shellopenexternalurl-options). */
export interface ExternalOpener {
  openExternal(url: string): Promise<void> | void;
}

/** A navigation event: `event.url` and `preventDefault()` (Electron's `will-navigate` details). */
export interface NavigationEvent {
  url: string;
  preventDefault(): void;
}

/** The part of `WebContents` the guards use. */
export interface GuardedContents {
  on(event: 'will-navigate', listener: (event: NavigationEvent) => void): unknown;
  setWindowOpenHandler(handler: (details: Pick<HandlerDetails, 'url'>) => WindowOpenHandlerResponse): void;
}

/** A created child window (Electron's `did-create-window` argument). */
export interface CreatedWindow {
  webContents: GuardedContents;
}

export interface MainWindowGuardDeps {
  shell: ExternalOpener;
  /** The current server origin (may change while the app runs). */
  serverOrigin(): string;
  log?: (message: string) => void;
}

function openOutside(shell: ExternalOpener, url: string, log: (m: string) => void): void {
  try {
    Promise.resolve(shell.openExternal(url)).catch(() => log('could not open a link in the default browser'));
  } catch {
    log('could not open a link in the default browser');
  }
}

/** The main window's `setWindowOpenHandler` handler (see {@link decideWindowOpen}). */
export function mainWindowOpenHandler(deps: Pick<MainWindowGuardDeps, 'shell' | 'log'>): (details: Pick<HandlerDetails, 'url'>) => WindowOpenHandlerResponse {
  const log = deps.log ?? (() => undefined);
  return ({ url }) => {
    const decision = decideWindowOpen(url);
    if (decision.action === 'oauth-popup') return { action: 'allow', overrideBrowserWindowOptions: OAUTH_POPUP_OPTIONS };
    if (decision.action === 'open-external') openOutside(deps.shell, decision.url, log);
    return { action: 'deny' };
  };
}

/**
 * Installs the main window's rules on its `webContents`: `will-navigate` stays on `app://avail`
 * (a web link opens in the default browser instead), `setWindowOpenHandler` as
 * {@link mainWindowOpenHandler}, and every popup it creates gets {@link attachPopupGuards}.
 */
export function attachMainWindowGuards(contents: GuardedContents & { on(event: 'did-create-window', listener: (win: CreatedWindow) => void): unknown }, deps: MainWindowGuardDeps): void {
  const log = deps.log ?? (() => undefined);
  contents.on('will-navigate', (event) => {
    if (isAppUrl(event.url)) return;
    event.preventDefault();
    if (isWebUrl(event.url)) openOutside(deps.shell, event.url, log);
  });
  contents.setWindowOpenHandler(mainWindowOpenHandler(deps));
  contents.on('did-create-window', (win) => attachPopupGuards(win.webContents, deps));
}

/**
 * Rules of the OAuth popup: navigations only to {@link isAllowedPopupNavigation} (anything else
 * is stopped; a web address opens in the default browser, and the host is logged so a provider's
 * new sign-in host can be added); its own `window.open`s (a "Learn more" link) go to the default
 * browser and never become windows.
 */
export function attachPopupGuards(contents: GuardedContents, deps: MainWindowGuardDeps): void {
  const log = deps.log ?? (() => undefined);
  contents.on('will-navigate', (event) => {
    if (isAllowedPopupNavigation(event.url, deps.serverOrigin())) return;
    event.preventDefault();
    if (isWebUrl(event.url)) {
      log(`oauth popup: navigation to ${new URL(event.url).host} opened in the default browser instead`);
      openOutside(deps.shell, event.url, log);
    }
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (isWebUrl(url)) openOutside(deps.shell, url, log);
    return { action: 'deny' };
  });
}

/** Permissions the renderer may get (https://www.electronjs.org/docs/latest/api/session#sessetpermissionrequesthandlerhandler). */
export const ALLOWED_PERMISSIONS: readonly string[] = ['notifications', 'clipboard-sanitized-write'];

/**
 * The permission rule for `setPermissionRequestHandler` and `setPermissionCheckHandler`: only
 * {@link ALLOWED_PERMISSIONS}, and only for a page of `app://avail` (never the OAuth popup's
 * pages). One more case: `openExternal` for a `mailto:` link of the app (the support address),
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
 * prevented and the window hidden, unless `flag.quitting` — then it closes for real.
 */
export function attachHideOnClose(win: HideableWindow, flag: QuitFlag): void {
  win.on('close', (event) => {
    if (flag.quitting) return;
    event.preventDefault();
    win.hide();
  });
}

/** The part of `BrowserWindow` {@link revealWindow} uses. */
export interface RevealableWindow {
  isMinimized(): boolean;
  restore(): void;
  show(): void;
  focus(): void;
}

/** Brings the window to the front: restores it when minimised, shows it, focuses it. */
export function revealWindow(win: RevealableWindow): void {
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
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
