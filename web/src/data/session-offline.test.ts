/** The offline bootstrap's pieces: which failures keep the session, and the cached last user. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@avail/shared/api/api-client.ts';
import { connectionFromDoc, eventFromDoc } from './local-data.tsx';
import { cachedUser, isUnreachable, LAST_USER_STORAGE_KEY } from './session-start.ts';

afterEach(() => vi.unstubAllGlobals());

describe('isUnreachable', () => {
  it('is true for a dropped network and a gateway without upstream, false for any answer of the server', () => {
    expect(isUnreachable(new TypeError('Failed to fetch'))).toBe(true);
    expect(isUnreachable(new ApiError('Bad gateway', 502, null))).toBe(true);
    expect(isUnreachable(new ApiError('Unavailable', 503, null))).toBe(true);
    expect(isUnreachable(new ApiError('Unauthenticated', 401, null))).toBe(false);
    expect(isUnreachable(new ApiError('Something went wrong', 500, {}))).toBe(false);
    expect(isUnreachable(new Error('boom'))).toBe(false);
  });
});

describe('cachedUser', () => {
  function stubStorage(value: string | null) {
    vi.stubGlobal('localStorage', { getItem: (k: string) => (k === LAST_USER_STORAGE_KEY ? value : null) });
  }
  it('reads the last signed-in user', () => {
    stubStorage(JSON.stringify({ id: 'u1', name: 'Olivia', email: 'o@example.com', email_verified_at: '2026-01-01T00:00:00Z' }));
    expect(cachedUser()?.id).toBe('u1');
  });
  it('is null when absent, malformed or not a user', () => {
    stubStorage(null);
    expect(cachedUser()).toBeNull();
    stubStorage('{not json');
    expect(cachedUser()).toBeNull();
    stubStorage('"a string"');
    expect(cachedUser()).toBeNull();
  });
});

describe('device documents in the REST shapes', () => {
  it('maps a connection (epoch ms → ISO, null kept)', () => {
    const c = connectionFromDoc({
      id: 'c1', provider: 'ics', name: 'Work', status: 'active', account: null, calendars_count: 2, included_calendars_count: 2,
      last_error: null, last_synced_at: null, connected_at: Date.UTC(2026, 0, 2, 3, 4, 5), warnings: [], updated_at: 1,
    });
    expect(c).toMatchObject({ id: 'c1', provider: 'ics', connected_at: '2026-01-02T03:04:05.000Z', last_synced_at: null, warnings: [] });
  });
  it('maps an event (start/end instants as ISO, provider from its connection)', () => {
    const e = eventFromDoc(
      { id: 'e1', connection_id: 'c1', title: 'Standup', start_ms: Date.UTC(2026, 0, 5, 8), end_ms: Date.UTC(2026, 0, 5, 8, 30), all_day: false, is_busy: true, updated_at: 1 },
      (id) => (id === 'c1' ? 'ics' : ''),
    );
    expect(e).toEqual({ id: 'e1', title: 'Standup', start: '2026-01-05T08:00:00.000Z', end: '2026-01-05T08:30:00.000Z', all_day: false, provider: 'ics' });
  });
});
