import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, apiOrigin, ApiError, checkAnswer, clearToken, configureApiClient, getToken, localStorageTokenStore, request, serverMessage, setToken } from './api-client.ts';

function mockFetch(status: number, body: unknown) {
  const fn = vi.fn(async (_url: string, _init?: RequestInit) =>
    new Response(body === undefined ? '' : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
  );
  vi.stubGlobal('fetch', fn);
  return fn;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('answer handling (spec §7)', () => {
  it('returns the body of an OK answer', () => {
    expect(checkAnswer(200, true, { available: true })).toEqual({ available: true });
  });
  it('throws the server message with status and body on a non-OK answer', () => {
    try {
      checkAnswer(409, false, { error: 'Email is already registered', code: 'email_taken' });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ApiError);
      const err = e as ApiError;
      expect(err.message).toBe('Email is already registered');
      expect(err.status).toBe(409);
      expect(err.code).toBe('email_taken');
    }
  });
  it("defaults to 'Something went wrong'", () => {
    expect(() => checkAnswer(500, false, null)).toThrow('Something went wrong');
  });
  it('treats a 200 with an error field as a failure', () => {
    expect(() => checkAnswer(200, true, { error: 'Nope' })).toThrow('Nope');
  });
  it("treats the message 'Something went wrong' as a failure", () => {
    expect(() => checkAnswer(200, true, { message: 'Something went wrong' })).toThrow(ApiError);
  });
  it('exposes field errors', () => {
    try {
      checkAnswer(422, false, { error: 'Validation failed', errors: { username: 'Username is required' } });
    } catch (e) {
      expect((e as ApiError).fieldErrors).toEqual({ username: 'Username is required' });
    }
  });
});

describe('requests', () => {
  it('sends JSON to /api with credentials and no Authorization without a token', async () => {
    const fetch = mockFetch(200, { available: true });
    await api.checkUsername('jane');
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('/api/me/profile/check-username');
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('include');
    expect(init?.body).toBe(JSON.stringify({ username: 'jane' }));
    expect((init?.headers as Record<string, string>).Authorization).toBeUndefined();
  });
  it('sends the stored token as a Bearer header, but never on public calls', async () => {
    const store = new Map<string, string>([['auth_token', 'tok123']]);
    vi.stubGlobal('localStorage', { getItem: (k: string) => store.get(k) ?? null, setItem: () => undefined, removeItem: () => undefined });
    const fetch = mockFetch(200, { user_name: 'J', user_timezone: 'UTC', availability: { windows: [] } });
    await request('GET', '/me');
    expect((fetch.mock.calls[0][1]?.headers as Record<string, string>).Authorization).toBe('Bearer tok123');
    await api.publicAvailability('jane', '2026-11-23..2026-11-29', 'Europe/Brussels');
    const [url, init] = fetch.mock.calls[1];
    expect(url).toBe('/api/public/jane/availability?range=2026-11-23..2026-11-29&tz=Europe%2FBrussels');
    expect((init?.headers as Record<string, string>).Authorization).toBeUndefined();
  });
  it('reads requires_verification from a 403 login body as an answer, not an error', async () => {
    mockFetch(403, { requires_verification: true, message: 'Please verify your email before logging in.', email: 'a@b.co' });
    await expect(api.login({ email: 'a@b.co', password: 'x' })).resolves.toMatchObject({ requires_verification: true, email: 'a@b.co' });
  });
  it('rejects a wrong login with the server message', async () => {
    mockFetch(401, { error: 'Invalid email or password', code: 'invalid_credentials' });
    await expect(api.login({ email: 'a@b.co', password: 'x' })).rejects.toMatchObject({ message: 'Invalid email or password', status: 401 });
  });
});

describe('two-factor sign-in calls (docs/account-security.md)', () => {
  it('sends the code with the login, and a two_factor_required answer is an error carrying its code', async () => {
    let fetch = mockFetch(401, { error: 'Enter the 6-digit code from your authenticator app.', code: 'two_factor_required' });
    await expect(api.login({ email: 'a@b.co', password: 'x' })).rejects.toMatchObject({ status: 401, code: 'two_factor_required' });
    expect(fetch.mock.calls[0][1]?.body).toBe(JSON.stringify({ email: 'a@b.co', password: 'x' }));
    fetch = mockFetch(200, { user: { id: 1 }, token: 't' });
    await api.login({ email: 'a@b.co', password: 'x', two_factor_code: '123456' });
    expect(JSON.parse(String(fetch.mock.calls[0][1]?.body))).toEqual({ email: 'a@b.co', password: 'x', two_factor_code: '123456' });
  });
  it('calls setup, enable and disable with the contract\'s methods, paths and bodies', async () => {
    const fetch = mockFetch(200, { secret: 'JBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/x', qr_svg: '<svg/>' });
    await expect(api.twoFactorSetup('pw')).resolves.toMatchObject({ secret: 'JBSWY3DPEHPK3PXP' });
    await api.twoFactorEnable('123456');
    await api.twoFactorDisable({ password: 'pw', code: 'abcde-fghij' });
    const calls = fetch.mock.calls.map(([url, init]) => [init?.method, url, init?.body]);
    expect(calls).toEqual([
      ['POST', '/api/me/two-factor/setup', JSON.stringify({ password: 'pw' })],
      ['POST', '/api/me/two-factor/enable', JSON.stringify({ code: '123456' })],
      ['DELETE', '/api/me/two-factor', JSON.stringify({ password: 'pw', code: 'abcde-fghij' })],
    ]);
  });
  it('adds two_factor_code to the account deletion only when one is given', async () => {
    const fetch = mockFetch(200, undefined); // (a real 204 has no body either; Response refuses a 204 with one)
    await api.deleteAccount('pw');
    await api.deleteAccount('pw', '654321');
    expect(fetch.mock.calls.map(([, init]) => init?.body)).toEqual([JSON.stringify({ password: 'pw' }), JSON.stringify({ password: 'pw', two_factor_code: '654321' })]);
  });
});

describe('serverMessage: the server\'s own message, or nothing (spec §8 fallbacks)', () => {
  const thrown = (status: number, body: unknown) => {
    try {
      checkAnswer(status, false, body);
    } catch (e) {
      return e;
    }
    throw new Error('no throw');
  };
  it('returns the body error, else the body message', () => {
    expect(serverMessage(thrown(401, { error: 'Invalid email or password', message: 'ignored' }))).toBe('Invalid email or password');
    expect(serverMessage(thrown(400, { message: 'Code expired' }))).toBe('Code expired');
  });
  it('is undefined when the server sent no message, while the ApiError keeps the §7 default', () => {
    for (const body of [{}, null, '', { error: '' }, { error: true }, { message: '  ' }, { errors: { username: 'x' } }]) {
      const e = thrown(500, body) as ApiError;
      expect(e.message).toBe('Something went wrong');
      expect(serverMessage(e)).toBeUndefined();
    }
  });
  it('is undefined for a failure that is not an answer (network, programming error)', () => {
    expect(serverMessage(new TypeError('Failed to fetch'))).toBeUndefined();
    expect(serverMessage(undefined)).toBeUndefined();
  });
  it('sees an empty 401 through request() as no message', async () => {
    mockFetch(401, undefined);
    const e = await request('GET', '/me').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect(serverMessage(e)).toBeUndefined();
  });
});

describe('configureApiClient (desktop: another server origin and a bridged token store)', () => {
  afterEach(() => configureApiClient({ origin: '', tokenStore: localStorageTokenStore }));
  it('sends requests to the configured origin with the store’s token and no cookies', async () => {
    let token: string | null = 'desk-token';
    const fetch = mockFetch(200, { user: { id: 1, name: 'J', email: 'j@x.co' } });
    configureApiClient({ origin: 'http://avail.example:3000/', tokenStore: { get: () => token, set: (t) => (token = t), clear: () => (token = null) } });
    await request('GET', '/me');
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('http://avail.example:3000/api/me');
    expect(init?.credentials).toBe('omit');
    expect((init?.headers as Record<string, string>).Authorization).toBe('Bearer desk-token');
    clearToken();
    expect(getToken()).toBeNull();
    setToken('next');
    expect(token).toBe('next');
    expect(apiOrigin()).toBe('http://avail.example:3000');
  });
});
