import { describe, expect, it } from 'vitest';
import { connectionSynced, syncOutcome } from './sync-result.ts';

describe('syncOutcome', () => {
  it('is ok when every calendar synced', () => {
    expect(syncOutcome({ success: true, message: 'Sync complete', connections: [], results: [{ connection_id: 'a', name: 'Work', provider: 'ics', ok: true, error: null }] })).toEqual({ ok: true, failures: [], reported: ['a'] });
  });

  it('names each failed calendar with the reason, one line each', () => {
    const out = syncOutcome({
      success: false,
      message: 'Failed to sync calendars. Please try again.',
      connections: [],
      results: [
        { connection_id: 'a', name: 'Team rota', provider: 'ics', ok: false, error: 'Calendar feed not found (HTTP 404). Check the address.' },
        { connection_id: 'b', name: 'Work', provider: 'ics', ok: true, error: null },
        { connection_id: 'c', name: '', provider: 'google', ok: false, error: null },
      ],
    });
    expect(out.ok).toBe(false);
    expect(out.reported).toEqual(['a', 'b', 'c']);
    expect(out.failures).toEqual([
      { connectionId: 'a', line: 'Team rota: Calendar feed not found (HTTP 404). Check the address.' },
      { connectionId: 'c', line: 'Google Calendar: it could not be synced.' },
    ]);
  });

  it('never says ok when the server says success is false, even without a named failure', () => {
    expect(syncOutcome({ success: false, message: '', connections: [], results: [] }).ok).toBe(false);
  });

  it('an older server without results: ok as before, unless it says success false', () => {
    expect(syncOutcome({ success: true } as never)).toEqual({ ok: true, failures: [], reported: [] });
    expect(syncOutcome({} as never)).toEqual({ ok: true, failures: [], reported: [] });
    expect(syncOutcome(null)).toEqual({ ok: true, failures: [], reported: [] });
    expect(syncOutcome({ success: false } as never).ok).toBe(false);
  });
});

describe('connectionSynced (Try again on one calendar)', () => {
  const res = {
    success: false,
    message: '',
    connections: [],
    results: [
      { connection_id: 'a', name: 'Team rota', provider: 'ics' as const, ok: false, error: 'Calendar feed not found (HTTP 404). Check the link.' },
      { connection_id: 'b', name: 'Work', provider: 'ics' as const, ok: true, error: null },
    ],
  };
  it('the failed one did not sync', () => expect(connectionSynced(syncOutcome(res), 'a')).toBe(false));
  it("another calendar's failure does not count against this one", () => expect(connectionSynced(syncOutcome(res), 'b')).toBe(true));
  it('an unreported connection synced only when the whole sync did', () => {
    expect(connectionSynced(syncOutcome(res), 'c')).toBe(false);
    expect(connectionSynced(syncOutcome({ success: true } as never), 'c')).toBe(true);
  });
});
