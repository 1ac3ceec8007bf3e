import { describe, expect, it } from 'vitest';
import { syncOutcome } from './sync-result.ts';

describe('syncOutcome', () => {
  it('is ok when every calendar synced', () => {
    expect(syncOutcome({ success: true, message: 'Sync complete', connections: [], results: [{ connection_id: 'a', name: 'Work', provider: 'ics', ok: true, error: null }] })).toEqual({ ok: true, failures: [] });
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
    expect(out.failures).toEqual([
      { connectionId: 'a', line: 'Team rota: Calendar feed not found (HTTP 404). Check the address.' },
      { connectionId: 'c', line: 'Google Calendar: it could not be synced.' },
    ]);
  });

  it('never says ok when the server says success is false, even without a named failure', () => {
    expect(syncOutcome({ success: false, message: '', connections: [], results: [] }).ok).toBe(false);
  });

  it('an older server without results: ok as before, unless it says success false', () => {
    expect(syncOutcome({ success: true } as never)).toEqual({ ok: true, failures: [] });
    expect(syncOutcome({} as never)).toEqual({ ok: true, failures: [] });
    expect(syncOutcome(null)).toEqual({ ok: true, failures: [] });
    expect(syncOutcome({ success: false } as never).ok).toBe(false);
  });
});
