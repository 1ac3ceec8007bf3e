import { describe, expect, it } from 'vitest';
import { composeEmailText } from '@avail/shared/email-text.ts';
import { buildTrayState, busyBlockBounds, trayWindows } from './tray-state.ts';

const H = 3_600_000;
const at = (iso: string) => Date.parse(iso);
const allWeek = (start: string, end: string) => [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start_time_local: start, end_time_local: end }));

describe('tray windows (shared engine on local data)', () => {
  it('starts with the current window, cut by a busy event and a busy block', () => {
    const now = at('2026-11-24T10:00:00Z'); // Tuesday, 11:00 in Brussels
    const windows = trayWindows({
      timezone: 'Europe/Brussels',
      rules: allWeek('09:00', '17:00'),
      exceptions: [],
      busy: [
        { start: at('2026-11-24T12:00:00Z'), end: at('2026-11-24T13:00:00Z') }, // event 13:00–14:00 local
        { start: now, end: now + H }, // "Busy for the next 1 h"
      ],
      now,
    });
    expect(windows[0]).toEqual({ start: now + H, end: at('2026-11-24T12:00:00Z') });
    expect(windows[1]).toEqual({ start: at('2026-11-24T13:00:00Z'), end: at('2026-11-24T16:00:00Z') });
    expect(windows.at(-1)!.end).toBeLessThanOrEqual(now + 14 * 24 * H);
  });

  it('applies a day-off override and ends the current window where the rule ends', () => {
    const now = at('2026-11-24T20:00:00Z'); // 21:00 Brussels
    const windows = trayWindows({
      timezone: 'Europe/Brussels',
      rules: allWeek('00:00', '23:59'),
      exceptions: [{ date: '2026-11-26', start_time_local: null, end_time_local: null }],
      busy: [],
      now,
    });
    expect(windows[0].start).toBe(now);
    // 23:59–00:00 is not in any rule, so the first window ends at 23:59 local.
    expect(windows[0].end).toBe(at('2026-11-24T22:59:00Z'));
    // Nothing on Thursday 26 (day off).
    expect(windows.some((w) => w.start < at('2026-11-26T23:00:00Z') && w.end > at('2026-11-25T23:00:00Z'))).toBe(false);
  });
});

describe('busy block bounds', () => {
  it('30 min / 1 h / 2 h from the current minute', () => {
    const now = at('2026-11-24T10:07:31Z');
    expect(busyBlockBounds({ minutes: 30 }, now, 'UTC')).toEqual({ start_ms: at('2026-11-24T10:07:00Z'), end_ms: at('2026-11-24T10:37:00Z') });
    expect(busyBlockBounds({ minutes: 120 }, now, 'UTC').end_ms).toBe(at('2026-11-24T12:07:00Z'));
  });
  it('rest of today ends at the next local midnight of the owner, also on a DST day', () => {
    expect(busyBlockBounds({ restOfToday: true }, at('2026-11-24T10:00:00Z'), 'America/New_York').end_ms).toBe(at('2026-11-25T05:00:00Z'));
    // 2026-10-25 has 25 hours in Brussels: midnight after it is 23:00 UTC.
    expect(busyBlockBounds({ restOfToday: true }, at('2026-10-25T08:00:00Z'), 'Europe/Brussels').end_ms).toBe(at('2026-10-25T23:00:00Z'));
    // 23:30 in Brussels (22:30 UTC): the rest of today is half an hour.
    expect(busyBlockBounds({ restOfToday: true }, at('2026-11-24T22:30:00Z'), 'Europe/Brussels').end_ms).toBe(at('2026-11-24T23:00:00Z'));
  });
});

describe('buildTrayState', () => {
  it('carries the same free-times text as Generate New Text, with the link', () => {
    const now = at('2026-11-24T10:00:00Z');
    const input = { timezone: 'Europe/Brussels', rules: allWeek('09:00', '17:00'), exceptions: [], busy: [], now, name: 'Jane', link: 'https://avail.example/jane', connection: 'offline' as const, pendingCount: 2 };
    const state = buildTrayState(input);
    expect(state).toMatchObject({ signedIn: true, connection: 'offline', pendingCount: 2, timezone: 'Europe/Brussels', link: 'https://avail.example/jane', computedAt: now });
    expect(state.freeTimesText).toBe(composeEmailText({ name: 'Jane', link: 'https://avail.example/jane', timezone: 'Europe/Brussels', windows: state.windows }));
    expect(state.freeTimesText).toContain('• Tue 24 Nov, 11:00–17:00');
  });
  it('falls back to the default text when nothing is free, and to no text without a link', () => {
    const now = at('2026-11-24T10:00:00Z');
    const none = buildTrayState({ timezone: 'UTC', rules: [], exceptions: [], busy: [], now, name: 'Jane', link: 'https://a.example/jane', connection: 'online', pendingCount: 0 });
    expect(none.windows).toEqual([]);
    expect(none.freeTimesText).toContain("Here are the times I'm free: https://a.example/jane");
    expect(buildTrayState({ timezone: 'UTC', rules: allWeek('09:00', '17:00'), exceptions: [], busy: [], now, name: 'J', link: null, connection: 'online', pendingCount: 0 }).freeTimesText).toBeNull();
  });
});
