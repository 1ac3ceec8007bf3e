/**
 * Google and Microsoft connect (spec §4 "Calendar connection status"): the server answers
 * `POST /me/calendar/{provider}/connect` with an `auth_url`, opened in a popup window that is
 * polled until closed; the connections are then refetched after 1 second. The callback page the
 * popup lands on (`/api/oauth/{provider}/callback`) closes itself.
 *
 * The window is opened synchronously in the click handler (a blank page saying "Connecting…") and
 * only pointed at `auth_url` once the POST resolves: popup blockers allow a window opened by the
 * user's gesture, not one opened after an await. Browser-only side effects go through `env`
 * so the flow is unit-tested without a DOM.
 */
import { ApiError, get, post } from '@avail/shared/api/api-client.ts';

export type OAuthProvider = 'google' | 'microsoft';
/** Providers the server reports on (`GET /me/calendar/providers`). */
export type ReportedProvider = OAuthProvider | 'apple';

export const OAUTH_WINDOW_NAME = 'avail-oauth';
export const OAUTH_WINDOW_FEATURES = 'width=500,height=650';
/** How often the popup's `closed` flag is polled. */
export const OAUTH_POLL_MS = 500;
/** Delay between the popup closing and the connections refetch (spec §4). */
export const OAUTH_REFETCH_DELAY_MS = 1_000;

export const OAUTH_LABEL: Record<OAuthProvider, string> = { google: 'Google', microsoft: 'Microsoft' };

/** Calendar product names in messages; the server's callback page uses the same ones. */
const CALENDAR_PRODUCT: Record<OAuthProvider, string> = { google: 'Google Calendar', microsoft: 'Microsoft Outlook Calendar' };

/** Spec §8: 'Failed to connect Google Calendar. Please try again.' and the Microsoft equivalent. */
export function connectFailureText(provider: OAuthProvider): string {
  return `Failed to connect ${CALENDAR_PRODUCT[provider]}. Please try again.`;
}

export const POPUP_BLOCKED_TEXT = 'Your browser blocked the sign-in window. Allow pop-ups for this site and try again.';

interface ProviderAvailability {
  available: boolean;
  reason: string | null;
}
export type ProvidersReport = Partial<Record<ReportedProvider, ProviderAvailability>>;

/**
 * `GET /me/calendar/providers` → `{ providers: { google: { available, reason }, … } }`, normalised.
 * Providers the server does not mention are left out (callers treat them as available).
 */
export async function fetchProviders(): Promise<ProvidersReport> {
  const body = await get<{ providers?: Record<string, { available?: unknown; reason?: unknown } | null> }>('/me/calendar/providers');
  const out: ProvidersReport = {};
  for (const p of ['google', 'microsoft', 'apple'] as const) {
    const v = body.providers?.[p];
    if (!v || typeof v !== 'object') continue;
    out[p] = { available: v.available !== false, reason: typeof v.reason === 'string' && v.reason.trim() ? v.reason : null };
  }
  return out;
}

/** `POST /me/calendar/{provider}/connect` → the consent URL. @throws ApiError (503 `provider_unavailable`). */
async function requestAuthUrl(provider: OAuthProvider): Promise<string> {
  const body = await post<{ auth_url?: unknown }>(`/me/calendar/${provider}/connect`);
  if (typeof body.auth_url !== 'string' || !/^https?:\/\//i.test(body.auth_url)) {
    throw new ApiError('The server sent no sign-in address', 200, body);
  }
  return body.auth_url;
}

/** The server's reason when a connect was refused because the provider is not configured. */
export function unavailableReasonOf(e: unknown): string | null {
  if (!(e instanceof ApiError) || (e.status !== 503 && e.code !== 'provider_unavailable')) return null;
  const b = e.body as { error?: unknown } | null;
  return b && typeof b.error === 'string' && b.error.trim() ? b.error : 'Not available on this server.';
}

/** What the flow needs from the browser (a real `window` in the app, fakes in unit tests). */
export interface PopupEnv {
  open(url: string, name: string, features: string): PopupWindow | null;
  /** Subscribes to same-origin `message` events (data and source window); returns the unsubscribe. */
  onMessage(fn: (data: unknown, source: unknown) => void): () => void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(id: unknown): void;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
}
export interface PopupWindow {
  readonly closed: boolean;
  location: { href: string };
  close(): void;
  focus?(): void;
  document?: { title: string; body: { textContent: string | null } | null } | null;
}

const browserPopupEnv: PopupEnv = {
  open: (url, name, features) => window.open(url, name, features) as PopupWindow | null,
  onMessage: (fn) => {
    const listener = (e: MessageEvent) => {
      if (e.origin === window.location.origin) fn(e.data, e.source);
    };
    window.addEventListener('message', listener);
    return () => window.removeEventListener('message', listener);
  },
  setInterval: (fn, ms) => window.setInterval(fn, ms),
  clearInterval: (id) => window.clearInterval(id as number),
  setTimeout: (fn, ms) => window.setTimeout(fn, ms),
  clearTimeout: (id) => window.clearTimeout(id as number),
};

/**
 * What the callback page may post to its opener before closing itself (same origin only):
 * `{ type: 'avail-oauth', provider, ok }`. Optional: without it the flow just refetches.
 */
interface OAuthResultMessage {
  type: 'avail-oauth';
  provider: OAuthProvider;
  ok: boolean;
}
function isResultMessage(d: unknown, provider: OAuthProvider): d is OAuthResultMessage {
  const m = d as Partial<OAuthResultMessage> | null;
  return Boolean(m && typeof m === 'object' && m.type === 'avail-oauth' && m.provider === provider && typeof m.ok === 'boolean');
}

export type OAuthOutcome =
  /**
   * The popup was closed (by the callback page or by the user) and 1 s has passed: refetch now.
   * `ok` when the callback page reported its result, else undefined.
   */
  | { kind: 'closed'; ok?: boolean }
  /** The connect call failed; the popup was closed. `unavailableReason` for a 503 provider_unavailable. */
  | { kind: 'failed'; error: unknown; unavailableReason: string | null }
  /** The browser refused to open the window. */
  | { kind: 'blocked' };

export interface OAuthFlow {
  /** Stops polling and pending timers (unmount); the popup is left as it is. */
  cancel(): void;
  /** Brings the popup to the front, when it is still open. */
  focus(): void;
}

/**
 * Runs one connect: must be called from the click handler itself (the window opens before any
 * await). `onDone` is called exactly once, unless cancelled first.
 */
export function startOAuthConnect(
  provider: OAuthProvider,
  onDone: (outcome: OAuthOutcome) => void,
  env: PopupEnv = browserPopupEnv,
  getAuthUrl: (p: OAuthProvider) => Promise<string> = requestAuthUrl,
): OAuthFlow {
  let cancelled = false;
  let poll: unknown = null;
  let later: unknown = null;
  let reported: boolean | undefined;
  let unlisten: () => void = () => undefined;
  const finish = (o: OAuthOutcome) => {
    if (cancelled) return;
    cancelled = true;
    if (poll !== null) env.clearInterval(poll);
    unlisten();
    onDone(o.kind === 'closed' && reported !== undefined ? { kind: 'closed', ok: reported } : o);
  };

  let popup: PopupWindow | null = null;
  try {
    popup = env.open('', OAUTH_WINDOW_NAME, OAUTH_WINDOW_FEATURES);
  } catch {
    popup = null;
  }
  if (!popup) {
    // Reported after the caller's state update, like every other outcome.
    later = env.setTimeout(() => finish({ kind: 'blocked' }), 0);
    return { cancel: () => { cancelled = true; env.clearTimeout(later); }, focus: () => undefined };
  }
  const win = popup;
  unlisten = env.onMessage((data, source) => {
    if (source === win && isResultMessage(data, provider)) reported = data.ok;
  });
  try {
    // The blank window says what it is waiting for (same origin until it navigates).
    if (win.document) {
      win.document.title = `Connecting to ${OAUTH_LABEL[provider]}…`;
      if (win.document.body) win.document.body.textContent = `Connecting to ${OAUTH_LABEL[provider]}…`;
    }
  } catch {
    /* not scriptable: fine */
  }

  getAuthUrl(provider).then(
    (url) => {
      if (cancelled) return;
      if (win.closed) {
        // Closed by the user before the address arrived.
        later = env.setTimeout(() => finish({ kind: 'closed' }), OAUTH_REFETCH_DELAY_MS);
        return;
      }
      win.location.href = url;
      poll = env.setInterval(() => {
        if (!win.closed) return;
        env.clearInterval(poll);
        poll = null;
        later = env.setTimeout(() => finish({ kind: 'closed' }), OAUTH_REFETCH_DELAY_MS);
      }, OAUTH_POLL_MS);
    },
    (error: unknown) => {
      try {
        win.close();
      } catch {
        /* already gone */
      }
      finish({ kind: 'failed', error, unavailableReason: unavailableReasonOf(error) });
    },
  );

  return {
    cancel() {
      cancelled = true;
      unlisten();
      if (poll !== null) env.clearInterval(poll);
      if (later !== null) env.clearTimeout(later);
    },
    focus() {
      try {
        if (!win.closed) win.focus?.();
      } catch {
        /* ignore */
      }
    },
  };
}

// ---- consent in the system browser (desktop app) -----------------------------------------------

/** How often the connections are re-read while the owner finishes in the browser (ms). */
const BROWSER_CONSENT_POLL_MS = 2_000;
/** After this long without a new connection the flow ends and the list is simply refreshed (ms). */
export const BROWSER_CONSENT_TIMEOUT_MS = 10 * 60_000;

/** Shown while the owner finishes the provider's consent in the system browser. */
export function finishInBrowserText(provider: OAuthProvider): string {
  return `Finish connecting ${CALENDAR_PRODUCT[provider]} in your browser. It appears here once you have allowed access.`;
}

/** What the system-browser flow needs (the platform bridge and the API in the app, fakes in tests). */
export interface BrowserConsentEnv {
  openExternal(url: string): Promise<void>;
  listConnections(): Promise<Array<{ id: string | number; provider: string; connected_at: string | null; status: string }>>;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(id: unknown): void;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
}

/**
 * Connect with the provider's consent page in the system browser (the desktop app: Google refuses
 * sign-in inside embedded browsers, and the owner's browser has their provider session). The server
 * keeps the OAuth state and PKCE verifier, so its callback completes the connection wherever the
 * page was opened. The flow asks for `auth_url`, opens it, then re-reads the connections every
 * {@link BROWSER_CONSENT_POLL_MS} until one of `provider` is new or changed (reconnected) →
 * `{ kind: 'closed', ok: true }`; after {@link BROWSER_CONSENT_TIMEOUT_MS} → `{ kind: 'closed' }`.
 * A failed connect call or a refused page → `{ kind: 'failed' }`. `onDone` runs once unless cancelled.
 */
export function startBrowserConsentConnect(
  provider: OAuthProvider,
  onDone: (outcome: OAuthOutcome) => void,
  env: BrowserConsentEnv,
  getAuthUrl: (p: OAuthProvider) => Promise<string> = requestAuthUrl,
): OAuthFlow {
  let done = false;
  let poll: unknown = null;
  let deadline: unknown = null;
  const stop = () => {
    done = true;
    if (poll !== null) env.clearInterval(poll);
    if (deadline !== null) env.clearTimeout(deadline);
  };
  const finish = (o: OAuthOutcome) => {
    if (done) return;
    stop();
    onDone(o);
  };
  const signature = (c: { connected_at: string | null; status: string }) => `${c.connected_at}|${c.status}`;
  (async () => {
    const before = new Map<string, string>();
    try {
      for (const c of await env.listConnections()) if (c.provider === provider) before.set(String(c.id), signature(c));
    } catch {
      /* unknown: every connection of the provider will count as new */
    }
    const url = await getAuthUrl(provider);
    if (done) return;
    await env.openExternal(url);
    if (done) return;
    let checking = false;
    poll = env.setInterval(() => {
      if (checking) return;
      checking = true;
      env
        .listConnections()
        .then((list) => {
          const changed = list.some((c) => c.provider === provider && c.status === 'active' && before.get(String(c.id)) !== signature(c));
          if (changed) finish({ kind: 'closed', ok: true });
        })
        .catch(() => undefined) // offline for a moment: the next tick asks again
        .finally(() => {
          checking = false;
        });
    }, BROWSER_CONSENT_POLL_MS);
    deadline = env.setTimeout(() => finish({ kind: 'closed' }), BROWSER_CONSENT_TIMEOUT_MS);
  })().catch((error: unknown) => finish({ kind: 'failed', error, unavailableReason: unavailableReasonOf(error) }));
  return { cancel: stop, focus: () => undefined };
}
