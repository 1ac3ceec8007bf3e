/**
 * The platform the web app runs on, behind one interface (`DesktopBridge`): the desktop tray app's
 * preload object when it exposed one (`window.availDesktop`), else the browser's own
 * implementation. This is the only place that picks between them; everything else calls `bridge`.
 *
 * `startPlatform()` runs once before the first render: it points the API client at the right
 * server and token store, so the session bootstrap finds the token wherever the platform keeps it.
 */
import { clearToken, configureApiClient, getToken, localStorageTokenStore, type TokenStore } from '@avail/shared/api/api-client.ts';
import { DESKTOP_BRIDGE_GLOBAL, normaliseServerOrigin, type DesktopBridge, type ServerSetting, type TokenPersistence } from '@avail/shared/desktop/desktop-bridge.ts';
import { browserBridge } from './browser-bridge.ts';

function exposedBridge(): DesktopBridge | undefined {
  return (globalThis as unknown as Record<string, DesktopBridge | undefined>)[DESKTOP_BRIDGE_GLOBAL];
}

/** The platform bridge of this page. */
export const bridge: DesktopBridge = exposedBridge() ?? browserBridge;

export interface PlatformInfo {
  server: ServerSetting;
  tokenPersistence: TokenPersistence;
}

/** The bridged token store's writes still under way (see {@link tokenWritesSettled}). */
let pendingTokenWrites: Promise<void> = Promise.resolve();

/** Resolves once every token write handed to the bridge so far has finished (or failed, logged). */
function tokenWritesSettled(): Promise<void> {
  return pendingTokenWrites;
}

let info: PlatformInfo = { server: { origin: '', editable: false, confirmed: true }, tokenPersistence: 'browser' };
const listeners = new Set<() => void>();

/** What `startPlatform` learnt (server origin, where the token is kept). */
export function platformInfo(): PlatformInfo {
  return info;
}
/** Subscribes to changes of {@link platformInfo} (the server origin changed in Settings). */
export function subscribePlatform(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/**
 * A token store over an asynchronous bridge: reads are served from memory (the API client reads
 * the token synchronously on every request), writes go to memory at once and to the bridge
 * behind. A failed bridge write is logged without the token.
 */
export function bridgedTokenStore(target: Pick<DesktopBridge, 'saveToken' | 'clearToken'>, initial: string | null): TokenStore & { settled(): Promise<void> } {
  let token = initial;
  // Bridge writes go out in call order (a sign-out right after a sign-in must end signed out).
  let queue: Promise<unknown> = Promise.resolve();
  const enqueue = (write: () => Promise<unknown>, what: string) => {
    queue = queue.then(write).catch((e: unknown) => console.error(`${what} failed`, (e as Error)?.name));
    pendingTokenWrites = queue.then(() => undefined);
  };
  return {
    settled: () => queue.then(() => undefined),
    get: () => token,
    set: (t) => {
      token = t;
      enqueue(() => target.saveToken(t), 'Storing the sign-in token');
    },
    clear: () => {
      token = null;
      enqueue(() => target.clearToken(), 'Removing the sign-in token');
    },
  };
}

/**
 * Configures the API client from the bridge: the server origin ('' = this page's origin) and, when
 * the platform keeps the token itself (desktop: OS-encrypted or session-only), a bridged store
 * loaded with the stored token. In a browser the client keeps reading localStorage directly, so
 * tabs stay in step.
 */
export async function startPlatform(target: DesktopBridge = bridge): Promise<PlatformInfo> {
  let server: ServerSetting;
  let tokenPersistence: TokenPersistence;
  try {
    [server, tokenPersistence] = await Promise.all([target.serverSetting(), target.tokenPersistence()]);
  } catch (e) {
    if (target === browserBridge) throw e;
    // The desktop bridge failed: never fall back to localStorage for the token. Sign-in then lasts
    // for this session only, and the server is asked for again on the next start.
    configureApiClient({ tokenStore: bridgedTokenStore({ saveToken: async () => 'session', clearToken: async () => undefined }, null) });
    info = { server: { origin: '', editable: true, confirmed: false }, tokenPersistence: 'session' };
    for (const fn of listeners) fn();
    throw e;
  }
  if (tokenPersistence === 'browser') {
    configureApiClient({ origin: server.origin, tokenStore: localStorageTokenStore });
  } else {
    configureApiClient({ origin: server.origin, tokenStore: bridgedTokenStore(target, await target.loadToken()) });
  }
  info = { server, tokenPersistence };
  for (const fn of listeners) fn();
  return info;
}

/**
 * Changes the server (desktop first run and Settings): stores it through the bridge and points the
 * API client at it. Resolves to the normalised origin. When the origin changed, the token in memory
 * is dropped before the client points at the new server (main already removed the stored one
 * before answering): the old server's token is never sent to the new one.
 * @throws Error with a user-facing message for an address that is not an http(s) origin.
 */
export async function changeServerOrigin(url: string, target: DesktopBridge = bridge): Promise<string> {
  const before = info.server.origin;
  const origin = await target.setServerOrigin(normaliseServerOrigin(url));
  if (origin !== before && getToken() !== null) clearToken();
  configureApiClient({ origin });
  info = { ...info, server: { ...info.server, origin, confirmed: true } };
  for (const fn of listeners) fn();
  return origin;
}

/** What {@link switchServer} needs from the app (the session and the page). */
export interface ServerSwitchDeps {
  /** Ends the session on the current (old) server: `api.logout()`; a failure is ignored. */
  endRemoteSession(): Promise<unknown>;
  /** Signs out on this device and waits until it is done: the device database and the token. */
  logout(): Promise<void>;
  /** Reloads the page (the new server's Content-Security-Policy `connect-src` applies per page). */
  reload(): void;
}

/**
 * Settings' server switch (docs/desktop-release.md, "Hardening"), in an order that never lets the
 * old server's token reach the new one and never reloads before the sign-out is done:
 * end the session on the old server → store the new server (main clears the stored token before
 * answering; {@link changeServerOrigin} drops the one in memory) → `logout()` fully (device
 * database, token) and every token write settled → reload.
 * Resolves to a user-facing error (nothing changed: an invalid address, the setting not stored), or
 * null once the reload was asked for.
 */
export async function switchServer(value: string, deps: ServerSwitchDeps, target: DesktopBridge = bridge): Promise<string | null> {
  try {
    normaliseServerOrigin(value);
  } catch (e) {
    return (e as Error).message;
  }
  await deps.endRemoteSession().catch(() => undefined);
  try {
    await changeServerOrigin(value, target);
  } catch (e) {
    return (e as Error).message;
  }
  await deps.logout();
  await tokenWritesSettled();
  deps.reload();
  return null;
}
