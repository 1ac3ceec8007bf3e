import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@avail/shared/api/api-client.ts';
import {
  connectFailureText,
  OAUTH_POLL_MS,
  OAUTH_REFETCH_DELAY_MS,
  OAUTH_WINDOW_FEATURES,
  OAUTH_WINDOW_NAME,
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
