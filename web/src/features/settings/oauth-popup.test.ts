import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@avail/shared/api/api-client.ts';
import {
  connectFailureText,
  OAUTH_POLL_MS,
  OAUTH_REFETCH_DELAY_MS,
  OAUTH_WINDOW_FEATURES,
  OAUTH_WINDOW_NAME,
  startBrowserConsentConnect,
  startOAuthConnect,
  unavailableReasonOf,
  type OAuthOutcome,
  type PopupEnv,
  type PopupWindow,
} from './oauth-popup.ts';

function fakePopup() {
  const w = {
    closed: false,
    location: { href: '' },
    close: vi.fn(() => {
      w.closed = true;
    }),
    focus: vi.fn(),
    document: { title: '', body: { textContent: '' as string | null } },
  };
  return w;
}

function env(popup: PopupWindow | null): PopupEnv & { open: ReturnType<typeof vi.fn>; post(data: unknown, source: unknown): void } {
  const listeners = new Set<(data: unknown, source: unknown) => void>();
  return {
    open: vi.fn(() => popup),
    onMessage: (fn) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    post: (data, source) => listeners.forEach((fn) => fn(data, source)),
    setInterval: (fn, ms) => setInterval(fn, ms),
    clearInterval: (id) => clearInterval(id as ReturnType<typeof setInterval>),
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
  };
}

describe('OAuth popup flow', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens the window at once, points it at auth_url when the POST resolves, polls until closed, then reports after 1 s', async () => {
    const popup = fakePopup();
    const e = env(popup);
    let resolve!: (u: string) => void;
    const done: OAuthOutcome[] = [];
    startOAuthConnect('google', (o) => done.push(o), e, () => new Promise<string>((r) => (resolve = r)));
    // Synchronously, before the POST answered.
    expect(e.open).toHaveBeenCalledWith('', OAUTH_WINDOW_NAME, OAUTH_WINDOW_FEATURES);
    expect(popup.document.body.textContent).toBe('Connecting to Google…');
    resolve('https://accounts.example/consent?x=1');
    await vi.advanceTimersByTimeAsync(0);
    expect(popup.location.href).toBe('https://accounts.example/consent?x=1');
    await vi.advanceTimersByTimeAsync(OAUTH_POLL_MS * 10);
    expect(done).toEqual([]);
    popup.closed = true;
    await vi.advanceTimersByTimeAsync(OAUTH_POLL_MS);
    expect(done).toEqual([]);
    await vi.advanceTimersByTimeAsync(OAUTH_REFETCH_DELAY_MS - 1);
    expect(done).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toEqual([{ kind: 'closed' }]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(done).toHaveLength(1);
  });

  it("the callback page's posted result (from the popup only) comes with the outcome", async () => {
    const popup = fakePopup();
    const e = env(popup);
    const done: OAuthOutcome[] = [];
    startOAuthConnect('google', (o) => done.push(o), e, () => Promise.resolve('https://x.example/'));
    await vi.advanceTimersByTimeAsync(0);
    e.post({ type: 'avail-oauth', provider: 'google', ok: true }, {}); // another window: ignored
    e.post({ type: 'avail-oauth', provider: 'microsoft', ok: true }, popup); // another provider: ignored
    e.post({ type: 'avail-oauth', provider: 'google', ok: false }, popup);
    popup.closed = true;
    await vi.advanceTimersByTimeAsync(OAUTH_POLL_MS + OAUTH_REFETCH_DELAY_MS);
    expect(done).toEqual([{ kind: 'closed', ok: false }]);
  });

  it('a failed connect closes the window and reports the failure (503 with the reason)', async () => {
    const popup = fakePopup();
    const done: OAuthOutcome[] = [];
    const err = new ApiError('Microsoft Outlook is not configured on this server.', 503, {
      error: 'Microsoft Outlook is not configured on this server.',
      code: 'provider_unavailable',
    });
    startOAuthConnect('microsoft', (o) => done.push(o), env(popup), () => Promise.reject(err));
    await vi.advanceTimersByTimeAsync(0);
    expect(popup.close).toHaveBeenCalled();
    expect(done).toEqual([{ kind: 'failed', error: err, unavailableReason: 'Microsoft Outlook is not configured on this server.' }]);
  });

  it('a blocked popup is reported, and nothing is requested', async () => {
    const getUrl = vi.fn(() => Promise.resolve('https://x.example/'));
    const done: OAuthOutcome[] = [];
    startOAuthConnect('google', (o) => done.push(o), env(null), getUrl);
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toEqual([{ kind: 'blocked' }]);
    expect(getUrl).not.toHaveBeenCalled();
  });

  it('cancel stops polling: no report after unmount', async () => {
    const popup = fakePopup();
    const done: OAuthOutcome[] = [];
    const flow = startOAuthConnect('google', (o) => done.push(o), env(popup), () => Promise.resolve('https://x.example/'));
    await vi.advanceTimersByTimeAsync(OAUTH_POLL_MS);
    flow.cancel();
    popup.closed = true;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(done).toEqual([]);
  });

  it('a window closed by the user before auth_url arrived still ends in a refetch', async () => {
    const popup = fakePopup();
    let resolve!: (u: string) => void;
    const done: OAuthOutcome[] = [];
    startOAuthConnect('google', (o) => done.push(o), env(popup), () => new Promise<string>((r) => (resolve = r)));
    popup.closed = true;
    resolve('https://x.example/');
    await vi.advanceTimersByTimeAsync(OAUTH_REFETCH_DELAY_MS);
    expect(popup.location.href).toBe('');
    expect(done).toEqual([{ kind: 'closed' }]);
  });
});

describe('connect messages', () => {
  it('spec §8 texts per provider', () => {
    expect(connectFailureText('google')).toBe('Failed to connect Google Calendar. Please try again.');
    expect(connectFailureText('microsoft')).toBe('Failed to connect Microsoft Outlook Calendar. Please try again.');
  });
  it('only a 503 / provider_unavailable carries an unavailable reason', () => {
    expect(unavailableReasonOf(new ApiError('x', 503, { error: 'Not configured.', code: 'provider_unavailable' }))).toBe('Not configured.');
    expect(unavailableReasonOf(new ApiError('x', 500, { error: 'boom' }))).toBeNull();
    expect(unavailableReasonOf(new TypeError('fetch failed'))).toBeNull();
  });
});

describe('consent in the system browser (desktop app)', () => {
  type Conn = { id: string; provider: string; connected_at: string | null; status: string };
  function env(initial: Conn[]) {
    let list = initial;
    const opened: string[] = [];
    const intervals: Array<() => void> = [];
    const timeouts: Array<() => void> = [];
    return {
      opened,
      set: (next: Conn[]) => (list = next),
      tick: async () => {
        for (const fn of intervals) fn();
        await new Promise((r) => setTimeout(r, 0));
      },
      expire: () => timeouts.forEach((fn) => fn()),
      env: {
        openExternal: vi.fn(async (url: string) => void opened.push(url)),
        listConnections: vi.fn(async () => list),
        setInterval: (fn: () => void) => intervals.push(fn),
        clearInterval: () => void intervals.splice(0),
        setTimeout: (fn: () => void) => timeouts.push(fn),
        clearTimeout: () => void timeouts.splice(0),
      },
    };
  }
  const flush = () => new Promise((r) => setTimeout(r, 0));

  it('opens the consent page in the browser and ends when the new connection appears', async () => {
    const e = env([{ id: 'old', provider: 'microsoft', connected_at: '2026-01-01T00:00:00Z', status: 'active' }]);
    const done = vi.fn();
    startBrowserConsentConnect('google', done, e.env, async () => 'https://accounts.google.com/o/oauth2/v2/auth?x=1');
    await flush();
    expect(e.opened).toEqual(['https://accounts.google.com/o/oauth2/v2/auth?x=1']);
    await e.tick();
    expect(done).not.toHaveBeenCalled();
    e.set([{ id: 'old', provider: 'microsoft', connected_at: '2026-01-01T00:00:00Z', status: 'active' }, { id: 'g1', provider: 'google', connected_at: '2026-11-24T10:00:00Z', status: 'active' }]);
    await e.tick();
    expect(done).toHaveBeenCalledExactlyOnceWith({ kind: 'closed', ok: true });
  });

  it('a reconnected (expired → active) connection counts; a timeout just refreshes; a refused connect fails', async () => {
    const e = env([{ id: 'g1', provider: 'google', connected_at: '2026-01-01T00:00:00Z', status: 'expired' }]);
    const done = vi.fn();
    startBrowserConsentConnect('google', done, e.env, async () => 'https://accounts.google.com/x');
    await flush();
    e.set([{ id: 'g1', provider: 'google', connected_at: '2026-11-24T10:00:00Z', status: 'active' }]);
    await e.tick();
    expect(done).toHaveBeenCalledWith({ kind: 'closed', ok: true });

    const e2 = env([]);
    const done2 = vi.fn();
    startBrowserConsentConnect('microsoft', done2, e2.env, async () => 'https://login.microsoftonline.com/x');
    await flush();
    e2.expire();
    expect(done2).toHaveBeenCalledExactlyOnceWith({ kind: 'closed' });

    const done3 = vi.fn();
    startBrowserConsentConnect('google', done3, env([]).env, async () => {
      throw new ApiError('Google Calendar is not configured on this server.', 503, { error: 'Google Calendar is not configured on this server.', code: 'provider_unavailable' });
    });
    await flush();
    expect(done3).toHaveBeenCalledWith(expect.objectContaining({ kind: 'failed', unavailableReason: 'Google Calendar is not configured on this server.' }));
  });
});
