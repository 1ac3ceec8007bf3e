/**
 * The one contract between the React app and the platform it runs on (issue 10).
 *
 * - In the Electron tray app the preload script exposes an object as `window.availDesktop`
 *   (`desktop/src/preload/preload.ts`, checked with `satisfies DesktopBridge`).
 * - In a browser the web app supplies its own implementation (`web/src/platform/browser-bridge.ts`:
 *   localStorage token, same-origin server, no tray).
 *
 * React code talks only to this interface; it never asks "is this Electron?". Where a screen must
 * differ it reads a capability (`serverSetting().editable`, `tokenPersistence`), never the platform.
 *
 * Units: instants are UTC epoch milliseconds; zones are IANA names.
 */

/**
 * Where the sign-in token is kept:
 * - `'os'`: encrypted with the operating system's keychain (Electron `safeStorage`: Keychain,
 *   DPAPI, libsecret) in the app's data folder — kept across restarts;
 * - `'session'`: in memory only, because no OS keyring is available (Linux without a secret
 *   service): the owner signs in again after a restart, and the UI says so;
 * - `'browser'`: the browser's localStorage (the web app, spec §9 `auth_token`).
 */
export type TokenPersistence = 'os' | 'session' | 'browser';

/** Which Avail server the app talks to. */
export interface ServerSetting {
  /** Origin of the server, e.g. `http://localhost:3000`; `''` = the page's own origin (browser). */
  origin: string;
  /** true when the owner may change it (desktop: first-run field and Settings). */
  editable: boolean;
  /** false until the owner has confirmed a server once (desktop first run). Always true in a browser. */
  confirmed: boolean;
}

/** One free window, `[start, end)` in UTC epoch ms. */
export interface TrayWindow {
  start: number;
  end: number;
}

/** A visitor's pending proposal as the tray lists it (issue 24): `[start, end)` UTC epoch ms. */
export interface TrayProposal {
  id: string;
  /** The visitor's name. */
  name: string;
  start: number;
  end: number;
}

/** At most this many pending proposals are listed in the tray (soonest first). */
export const TRAY_PROPOSALS_MAX = 10;

/**
 * What the tray shows, computed by the renderer from the device's local data (rules, date
 * overrides, busy calendar events, manual busy blocks) with the shared free-window engine — no
 * network needed. The main process formats the label from it each minute.
 */
export interface TrayState {
  /** false: signed out (the menu offers only Open Avail and Quit). */
  signedIn: boolean;
  /** Replication status of the device ('online' | 'syncing' | 'offline' | 'outdated' | 'unauthorized'). */
  connection: 'online' | 'syncing' | 'offline' | 'outdated' | 'unauthorized';
  /** Local writes the server has not acknowledged yet. */
  pendingCount: number;
  /** The owner's IANA zone: the label's times are written in it. */
  timezone: string;
  /** Upcoming free windows from `computedAt`, sorted, disjoint, merged where they touch (≤ 14 days ahead). */
  windows: TrayWindow[];
  /** The owner's public link (absolute URL), or null without a username. */
  link: string | null;
  /** "Copy my next free times": the same text as Links → Generate New Text, in the owner's zone, with the link. */
  freeTimesText: string | null;
  /** When the windows were computed (UTC ms). */
  computedAt: number;
  /**
   * Pending proposals, soonest first, at most {@link TRAY_PROPOSALS_MAX} (issue 24): each with
   * Confirm / Decline / Open in the menu. Absent (an older renderer) = none.
   */
  proposals?: TrayProposal[];
  /**
   * true while the device has not finished its first pull (issue 25): the renderer knows the
   * owner is signed in but its local data is not read yet, so `windows` may be empty. The tray then
   * keeps the last known windows (its own stored copy) and says "Syncing…". Absent (an older
   * renderer, which reports only after the pull) = false.
   */
  syncing?: boolean;
  /**
   * With `signedIn: false` (issue 25): an owner is signed in but has not verified their e-mail
   * address yet, so the app cannot be used — the tray says "Verify your e-mail in Avail" and tray
   * actions that waited are reported as failed for that reason. Absent = false.
   */
  unverified?: boolean;
}

/** The tray state of a signed-out app (also the main process's state before the renderer reports). */
export function signedOutTrayState(now: number): TrayState {
  return { signedIn: false, connection: 'online', pendingCount: 0, timezone: 'UTC', windows: [], link: null, freeTimesText: null, computedAt: now };
}

/** The tray state of an owner signed in with an e-mail address not yet verified (see {@link TrayState.unverified}). */
export function unverifiedTrayState(now: number): TrayState {
  return { ...signedOutTrayState(now), unverified: true };
}

/** How long a tray "Busy for …" block lasts. */
export type BusyDuration = { minutes: 30 | 60 | 120 } | { restOfToday: true };

/**
 * Commands the tray (or a notification click) sends to the renderer.
 *
 * Busy blocks and proposal decisions are never dropped (issue 25): the desktop's main process
 * keeps them (on disk) until the renderer says its device database is open
 * ({@link DesktopBridge.commandsReady}), and the renderer keeps any that reach it before then.
 * `queued: true` marks one that had to wait: the renderer then announces its outcome ("done" or
 * "failed") as a system notification, since the owner may no longer be looking at the tray.
 * `commandId` (set by the desktop's main process): the renderer acknowledges the command with
 * {@link DesktopBridge.commandDone} once carried out or failed, and carries out an id only once
 * (the platform delivers an unacknowledged one again after a reload).
 */
export type DesktopCommand =
  /**
   * `at`: the instant the owner clicked (UTC epoch ms), so a block that waited still starts then
   * ("busy for 30 min" queued for a minute ends 30 min after the click). Absent (an older main
   * process) = the instant the renderer carries it out.
   */
  | { type: 'busy'; duration: BusyDuration; at?: number; queued?: boolean; commandId?: string }
  | { type: 'sync-now' }
  /** Confirm or decline a pending proposal (issue 24; the renderer carries it out, offline too). */
  | { type: 'proposal'; id: string; action: 'confirm' | 'decline'; queued?: boolean; commandId?: string }
  /** Show an in-app route, e.g. `/app/dashboard#proposals` or one proposal, `/app/dashboard#proposal-<id>`. */
  | { type: 'navigate'; route: string };

/** A system notification; a click opens the app window at `route`. */
export interface DesktopNotification {
  title: string;
  body: string;
  route: string;
}

/** What a platform can do, for the few screens that differ (never "which platform is this"). */
interface PlatformCapabilities {
  /** System notifications reach the owner (desktop: yes; browser: no, so nothing polls for them). */
  notifications: boolean;
  /**
   * Provider consent pages (Google, Microsoft) open in the system browser instead of a popup:
   * Google refuses sign-in inside embedded browser frameworks, and the owner's browser already
   * holds their provider session and single sign-on. The connection appears when the server's
   * callback completes it.
   */
  consentInSystemBrowser: boolean;
}

export interface DesktopBridge {
  /** What this platform offers (see {@link PlatformCapabilities}). */
  capabilities(): PlatformCapabilities;
  /**
   * Opens an `https:` (or loopback `http:`) page in the system browser.
   * @throws Error for any other URL.
   */
  openExternal(url: string): Promise<void>;

  /** Where `saveToken` keeps the token (see {@link TokenPersistence}). */
  tokenPersistence(): Promise<TokenPersistence>;
  /** The stored sign-in token, or null. */
  loadToken(): Promise<string | null>;
  /** Stores the token; resolves to where it was kept. */
  saveToken(token: string): Promise<TokenPersistence>;
  /** Forgets the token (sign out). */
  clearToken(): Promise<void>;

  /** Which server the app talks to. */
  serverSetting(): Promise<ServerSetting>;
  /**
   * Sets (and confirms) the server origin. Resolves to the normalised origin.
   * @throws Error with a user-facing message when `url` is not an http(s) URL.
   */
  setServerOrigin(url: string): Promise<string>;

  /** Pushes the tray's state (a no-op without a tray). */
  setTrayState(state: TrayState): void;
  /** Subscribes to tray / notification commands; returns the unsubscribe function. */
  onCommand(listener: (command: DesktopCommand) => void): () => void;
  /** Shows a system notification (a no-op where there is none). */
  notify(notification: DesktopNotification): void;
  /**
   * The renderer's device database is open for the signed-in owner `userId` (issue 25): the
   * platform now delivers, through `onCommand`, the tray commands it kept while the app could not
   * carry them out (window closed, page loading, database opening) — dropping, with a
   * notification, those clicked for another account — then new ones at once until the page
   * unloads or {@link commandsNotReady}. Call it again after each (re)load once the database is
   * open; a no-op without a tray.
   */
  commandsReady(userId: string): void;
  /** The renderer can no longer carry commands out (the owner signed out, the app part unmounted): they wait again. A no-op without a tray. */
  commandsNotReady(): void;
  /** Command `commandId` was carried out or has failed (its outcome was shown): the platform forgets it. A no-op without a tray. */
  commandDone(commandId: string): void;

  /** Whether the app registers its offline service worker (browser: yes; desktop: no, its files are local). */
  usesServiceWorker(): boolean;
}

/** Every member of {@link DesktopBridge}, for the runtime contract test (both implementations have exactly these). */
export const DESKTOP_BRIDGE_MEMBERS = [
  'capabilities',
  'openExternal',
  'tokenPersistence',
  'loadToken',
  'saveToken',
  'clearToken',
  'serverSetting',
  'setServerOrigin',
  'setTrayState',
  'onCommand',
  'notify',
  'commandsReady',
  'commandsNotReady',
  'commandDone',
  'usesServiceWorker',
] as const satisfies ReadonlyArray<keyof DesktopBridge>;

/** The in-app route of one proposal: the dashboard scrolled to it, highlighted. */
export function proposalRoute(id: string): string {
  return `/app/dashboard#proposal-${encodeURIComponent(id)}`;
}

/** The global name the preload script exposes the bridge under (`window.availDesktop`). */
export const DESKTOP_BRIDGE_GLOBAL = 'availDesktop';

/** Default server of the desktop app when `AVAIL_SERVER_URL` was not set at build time. */
export const DEFAULT_DESKTOP_SERVER_ORIGIN = 'http://localhost:3000';

/**
 * Whether `url` may be opened in the system browser: `https:`, or `http:` on a loopback host
 * (a local server, tests). Pure.
 */
export function isExternalPageUrl(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.username || u.password) return false;
  if (u.protocol === 'https:') return true;
  return u.protocol === 'http:' && isLoopbackHost(u.hostname);
}

/** `localhost`, `127.x.x.x` or `[::1]`. */
function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** Origin of the desktop renderer (`app://avail`); the server allows it in CORS. */
export const DESKTOP_APP_ORIGIN = 'app://avail';

/** Why a plain-http server on another computer is refused. */
export const INSECURE_SERVER_MESSAGE = 'Use https:// for an Avail server on another computer (plain http works only for this computer).';

/**
 * Normalises a server address typed by the owner to an origin (`https://avail.example.com`).
 * Accepts a bare host (`avail.example.com` → https). Refuses other schemes, credentials, paths,
 * and plain `http:` except on this computer (loopback).
 * @throws Error('Enter the address of your Avail server, like https://avail.example.com'), or
 *   Error({@link INSECURE_SERVER_MESSAGE}) for `http:` to another host.
 */
export function normaliseServerOrigin(input: string): string {
  const message = 'Enter the address of your Avail server, like https://avail.example.com';
  const raw = input.trim();
  if (!raw || /\s/.test(raw)) throw new Error(message);
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`);
  } catch {
    throw new Error(message);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) throw new Error(message);
  // A host name (letters, digits, '-', dots between labels) or an IP address.
  if (!/^(\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*)$/i.test(url.hostname)) throw new Error(message);
  if (url.pathname !== '/' && url.pathname !== '') throw new Error(message);
  // app://avail is a secure context: Chromium blocks plain http to any host but the loopback.
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) throw new Error(INSECURE_SERVER_MESSAGE);
  if (url.search || url.hash) throw new Error(message);
  return url.origin;
}
