import { describe, expect, it } from 'vitest';
import type { CalendarConnection } from '@avail/shared/api/api-client.ts';
import { staleCalendars } from './calendar-freshness.ts';

const NOW = Date.UTC(2026, 2, 20, 12);
const conn = (over: Partial<CalendarConnection>): CalendarConnection => ({
  id: 'c1',
  provider: 'ics',
  name: 'Work',
  status: 'active',
  connected_at: null,
  calendars_count: 1,
  included_calendars_count: 1,
  last_synced_at: new Date(NOW - 5 * 60_000).toISOString(),
  last_error: null,
  ...over,
});

describe('staleCalendars', () => {
  it('names each calendar that makes the public page stale, with its problem and the fix', () => {
    expect(staleCalendars([conn({})], NOW)).toEqual([]);
    expect(staleCalendars([conn({ status: 'expired', provider: 'google', name: null })], NOW)).toEqual([
      { id: 'c1', label: 'Google Calendar', problem: 'Its authorization has expired.', fix: 'Reconnect it in Settings → My Calendars.' },
    ]);
    expect(staleCalendars([conn({ status: 'error', last_error: 'The feed answered 500.' })], NOW)[0]).toMatchObject({ label: 'Work (ICS feed)', problem: 'The feed answered 500.' });
    expect(staleCalendars([conn({ last_synced_at: new Date(NOW - 31 * 60_000).toISOString() })], NOW)[0]!.problem).toBe('It has not synced for more than 30 minutes.');
    expect(staleCalendars([conn({ last_synced_at: null })], NOW)[0]!.problem).toBe('It has not synced yet.');
  });
});
