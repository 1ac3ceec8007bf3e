import { describe, expect, it } from 'vitest';
import type { TrayState } from '@avail/shared/desktop/desktop-bridge.ts';
import { NO_FREE_TIME_TEXT, SIGNED_OUT_TEXT, SYNCING_TEXT, computedAtText, freeTimesTextCurrent, mergeRuns, proposalTimeText, trayStatusText, trayTitleText } from './tray-label.ts';

const at = (iso: string) => Date.parse(iso);

function state(timezone: string, windows: Array<[string, string]>, extra: Partial<TrayState> = {}): TrayState {
  return {
    signedIn: true,
    connection: 'online',
    pendingCount: 0,
    timezone,
    windows: windows.map(([s, e]) => ({ start: at(s), end: at(e) })),
    link: 'https://avail.example.com/ana',
    freeTimesText: 'Free: …',
    computedAt: 0,
    ...extra,
  };
}

describe('trayStatusText', () => {
  it('says "Not signed in" when signed out, whatever the windows', () => {
    const s = state('Europe/Brussels', [['2026-06-15T08:00:00Z', '2026-06-15T10:00:00Z']], { signedIn: false });
    expect(trayStatusText(s, at('2026-06-15T09:00:00Z'))).toBe(SIGNED_OUT_TEXT);
    expect(SIGNED_OUT_TEXT).toBe('Not signed in');
  });

  it('an owner signed in but not verified is told to verify the e-mail, not "Not signed in" (issue 25)', () => {
    const s = state('Europe/Brussels', [], { signedIn: false, unverified: true });
    expect(trayStatusText(s, at('2026-06-15T09:00:00Z'))).toBe('Verify your e-mail in Avail');
  });

  it('free now: the end of the window in the owner zone, 24-hour', () => {
    // Mon 15 June 2026, Brussels is UTC+2: 11:00–15:30 local.
    const s = state('Europe/Brussels', [['2026-06-15T09:00:00Z', '2026-06-15T13:30:00Z']]);
    expect(trayStatusText(s, at('2026-06-15T10:00:00Z'))).toBe('Free now until 15:30');
  });

  it('free now: windows that touch form one run', () => {
    const s = state('Europe/Brussels', [
      ['2026-06-15T13:00:00Z', '2026-06-15T13:30:00Z'], // 15:00–15:30 local
      ['2026-06-15T09:00:00Z', '2026-06-15T13:00:00Z'], // 11:00–15:00, given out of order
    ]);
    expect(trayStatusText(s, at('2026-06-15T10:00:00Z'))).toBe('Free now until 15:30');
  });

  it('free now: a run ending on another local day names the weekday', () => {
    // Mon 22:00 local → Tue 09:00 local (Brussels, UTC+2).
    const s = state('Europe/Brussels', [['2026-06-15T20:00:00Z', '2026-06-16T07:00:00Z']]);
    expect(trayStatusText(s, at('2026-06-15T21:00:00Z'))).toBe('Free now until Tue 09:00');
  });

  it('free now: a run ending exactly at local midnight reads 24:00', () => {
    // Mon 19:00 → Tue 00:00 local (= 22:00Z).
    const s = state('Europe/Brussels', [['2026-06-15T17:00:00Z', '2026-06-15T22:00:00Z']]);
    expect(trayStatusText(s, at('2026-06-15T18:00:00Z'))).toBe('Free now until 24:00');
  });

  it('free now across midnight in the owner zone, not the UTC day', () => {
    // Mon 23:00 local (21:00Z) inside a window 22:00 Mon → 02:00 Tue local.
    const s = state('Europe/Brussels', [['2026-06-15T20:00:00Z', '2026-06-16T00:00:00Z']]);
    expect(trayStatusText(s, at('2026-06-15T21:00:00Z'))).toBe('Free now until Tue 02:00');
    // Same instant, owner in UTC: 21:00 Mon → until 00:00 Tue = 24:00 today.
    expect(trayStatusText({ ...s, timezone: 'UTC' }, at('2026-06-15T21:00:00Z'))).toBe('Free now until 24:00');
  });

  it('busy: the next window today says "today"', () => {
    const s = state('Europe/Brussels', [['2026-06-15T12:00:00Z', '2026-06-15T13:00:00Z']]); // 14:00–15:00 local
    expect(trayStatusText(s, at('2026-06-15T08:00:00Z'))).toBe('Busy — next free today 14:00–15:00');
  });

  it('busy: a later day gets its weekday', () => {
    // America/New_York, Mon 13 July 2026 23:00 EDT; next free Tue 09:00–11:00 EDT.
    const s = state('America/New_York', [['2026-07-14T13:00:00Z', '2026-07-14T15:00:00Z']]);
    expect(trayStatusText(s, at('2026-07-14T03:00:00Z'))).toBe('Busy — next free Tue 09:00–11:00');
    // In UTC that same instant is already Tuesday 03:00: the window is "today".
    expect(trayStatusText({ ...s, timezone: 'UTC' }, at('2026-07-14T03:00:00Z'))).toBe('Busy — next free today 13:00–15:00');
  });

  it('busy: a window crossing midnight carries the weekday of its end', () => {
    // Mon 20:00 local; next free Mon 22:00 → Tue 02:00 local (Brussels).
    const s = state('Europe/Brussels', [['2026-06-15T20:00:00Z', '2026-06-16T00:00:00Z']]);
    expect(trayStatusText(s, at('2026-06-15T18:00:00Z'))).toBe('Busy — next free today 22:00–Tue 02:00');
  });

  it('busy: a window ending at local midnight ends at 24:00 of its own day', () => {
    // Next free Tue 20:00 → Wed 00:00 local.
    const s = state('Europe/Brussels', [['2026-06-16T18:00:00Z', '2026-06-16T22:00:00Z']]);
    expect(trayStatusText(s, at('2026-06-15T08:00:00Z'))).toBe('Busy — next free Tue 20:00–24:00');
  });

  it('busy: a day a week or more away carries its date', () => {
    const s = state('Europe/Brussels', [['2026-06-23T07:00:00Z', '2026-06-23T09:00:00Z']]); // Tue 23 Jun 09:00–11:00
    expect(trayStatusText(s, at('2026-06-15T08:00:00Z'))).toBe('Busy — next free Tue 23 Jun 09:00–11:00');
  });

  it('ignores windows that already ended (a state up to a minute old)', () => {
    const s = state('Europe/Brussels', [
      ['2026-06-15T07:00:00Z', '2026-06-15T08:00:00Z'], // ended at 10:00 local
      ['2026-06-15T12:00:00Z', '2026-06-15T13:00:00Z'],
    ]);
    expect(trayStatusText(s, at('2026-06-15T08:00:00Z'))).toBe('Busy — next free today 14:00–15:00');
    expect(trayStatusText(s, at('2026-06-15T08:00:30Z'))).toBe('Busy — next free today 14:00–15:00');
  });

  it('no window left → "no free time in the next 14 days"', () => {
    expect(trayStatusText(state('Europe/Brussels', []), at('2026-06-15T08:00:00Z'))).toBe('Busy — no free time in the next 14 days');
    const past = state('Europe/Brussels', [['2026-06-15T07:00:00Z', '2026-06-15T08:00:00Z']]);
    expect(trayStatusText(past, at('2026-06-15T08:00:00Z'))).toBe(NO_FREE_TIME_TEXT);
  });

  describe('DST in Europe/Brussels', () => {
    it('spring forward (Sun 29 March 2026, 02:00 CET → 03:00 CEST)', () => {
      // 01:30 CET (00:30Z), free 01:00 CET → 04:00 CEST (02:00Z): only 2 real hours.
      const s = state('Europe/Brussels', [['2026-03-29T00:00:00Z', '2026-03-29T02:00:00Z']]);
      expect(trayStatusText(s, at('2026-03-29T00:30:00Z'))).toBe('Free now until 04:00');
      // From Saturday 23:30 CET, the next window is on Sunday.
      expect(trayStatusText(state('Europe/Brussels', [['2026-03-29T07:00:00Z', '2026-03-29T09:00:00Z']]), at('2026-03-28T22:30:00Z'))).toBe(
        'Busy — next free Sun 09:00–11:00',
      );
      // Sunday 00:30 CET (23:30Z Saturday): same window, now "today", written in CEST.
      expect(trayStatusText(state('Europe/Brussels', [['2026-03-29T07:00:00Z', '2026-03-29T09:00:00Z']]), at('2026-03-28T23:30:00Z'))).toBe(
        'Busy — next free today 09:00–11:00',
      );
    });

    it('fall back (Sun 25 October 2026, 03:00 CEST → 02:00 CET): the repeated hour', () => {
      // 02:30 CEST (00:30Z) inside a window ending 02:30 CET (01:30Z), an hour later.
      const s = state('Europe/Brussels', [['2026-10-25T00:00:00Z', '2026-10-25T01:30:00Z']]);
      expect(trayStatusText(s, at('2026-10-25T00:30:00Z'))).toBe('Free now until 02:30');
      // Busy at 02:15 CET (01:15Z); next free 10:00–12:00 CET.
      expect(trayStatusText(state('Europe/Brussels', [['2026-10-25T09:00:00Z', '2026-10-25T11:00:00Z']]), at('2026-10-25T01:15:00Z'))).toBe(
        'Busy — next free today 10:00–12:00',
      );
      // A 25-hour local day: free Sun 00:00 → Mon 00:00 reads "until 24:00".
      const whole = state('Europe/Brussels', [['2026-10-24T22:00:00Z', '2026-10-25T23:00:00Z']]);
      expect(trayStatusText(whole, at('2026-10-25T12:00:00Z'))).toBe('Free now until 24:00');
    });
  });

  it('falls back to UTC for an unknown zone instead of throwing', () => {
    const s = state('Not/AZone', [['2026-06-15T12:00:00Z', '2026-06-15T13:00:00Z']]);
    expect(trayStatusText(s, at('2026-06-15T08:00:00Z'))).toBe('Busy — next free today 12:00–13:00');
  });
});

describe('mergeRuns', () => {
  it('sorts and merges touching or overlapping windows, keeps gaps', () => {
    expect(
      mergeRuns([
        { start: 50, end: 60 },
        { start: 0, end: 10 },
        { start: 10, end: 20 },
        { start: 15, end: 30 },
      ]),
    ).toEqual([
      { start: 0, end: 30 },
      { start: 50, end: 60 },
    ]);
  });
});

describe('proposalTimeText (issue 24)', () => {
  const now = Date.parse('2026-06-15T10:00:00Z'); // Mon 12:00 in Brussels
  it('today, a weekday, a date a week or more away, an end on another day', () => {
    expect(proposalTimeText('Europe/Brussels', Date.parse('2026-06-15T12:00:00Z'), Date.parse('2026-06-15T12:30:00Z'), now)).toBe('today 14:00–14:30');
    expect(proposalTimeText('Europe/Brussels', Date.parse('2026-06-16T08:00:00Z'), Date.parse('2026-06-16T08:45:00Z'), now)).toBe('Tue 10:00–10:45');
    expect(proposalTimeText('Europe/Brussels', Date.parse('2026-06-23T08:00:00Z'), Date.parse('2026-06-23T09:00:00Z'), now)).toBe('Tue 23 Jun 10:00–11:00');
    expect(proposalTimeText('Europe/Brussels', Date.parse('2026-06-15T21:00:00Z'), Date.parse('2026-06-15T22:30:00Z'), now)).toBe('today 23:00–Tue 00:30');
  });
});

describe('the last known state before the device has pulled (issue 25)', () => {
  const windows: Array<[string, string]> = [
    ['2026-06-15T09:00:00Z', '2026-06-15T10:00:00Z'], // Mon 11:00–12:00 Brussels
    ['2026-06-16T07:00:00Z', '2026-06-16T08:00:00Z'], // Tue 09:00–10:00
  ];
  const known = state('Europe/Brussels', windows, { syncing: true, connection: 'syncing', computedAt: at('2026-06-15T08:00:00Z') });

  it('the label comes from the windows after now, however old the state is', () => {
    expect(trayStatusText(known, at('2026-06-15T09:30:00Z'))).toBe('Free now until 12:00');
    expect(trayStatusText(known, at('2026-06-15T10:30:00Z'))).toBe('Busy — next free Tue 09:00–10:00');
  });

  it('with every known window past it says "Syncing…", never "no free time in the next 14 days" (which it cannot know)', () => {
    expect(trayStatusText(known, at('2026-06-17T10:00:00Z'))).toBe(SYNCING_TEXT);
    expect(trayStatusText({ ...known, syncing: undefined }, at('2026-06-17T10:00:00Z'))).toBe(NO_FREE_TIME_TEXT);
  });

  it('when it was computed: the clock today, the weekday this week, the date before', () => {
    expect(computedAtText('Europe/Brussels', at('2026-06-15T08:00:00Z'), at('2026-06-15T12:00:00Z'))).toBe('10:00');
    expect(computedAtText('Europe/Brussels', at('2026-06-15T08:00:00Z'), at('2026-06-18T12:00:00Z'))).toBe('Mon 10:00');
    expect(computedAtText('Europe/Brussels', at('2026-06-15T08:00:00Z'), at('2026-06-25T12:00:00Z'))).toBe('15 Jun 10:00');
  });

  it('its "next free times" text is copied only while none of its times has ended', () => {
    expect(freeTimesTextCurrent(known, at('2026-06-15T09:30:00Z'))).toBe(true);
    expect(freeTimesTextCurrent(known, at('2026-06-15T10:00:00Z'))).toBe(false);
    expect(freeTimesTextCurrent({ ...known, syncing: undefined }, at('2026-06-17T10:00:00Z'))).toBe(true);
    expect(freeTimesTextCurrent({ ...known, freeTimesText: null }, at('2026-06-15T09:30:00Z'))).toBe(false);
  });
});

describe('trayTitleText (the macOS menu-bar text)', () => {
  // Mon 15 June 2026, Brussels is UTC+2.
  const windows: Array<[string, string]> = [
    ['2026-06-15T09:00:00Z', '2026-06-15T13:30:00Z'], // 11:00–15:30
    ['2026-06-16T07:00:00Z', '2026-06-16T09:00:00Z'], // Tue 09:00–11:00
  ];
  it('free now, next free today, next free another day, no free time', () => {
    const s = state('Europe/Brussels', windows);
    expect(trayTitleText(s, at('2026-06-15T10:00:00Z'))).toBe('Free until 15:30');
    expect(trayTitleText(s, at('2026-06-15T08:00:00Z'))).toBe('Next free 11:00');
    expect(trayTitleText(s, at('2026-06-15T14:00:00Z'))).toBe('Next free Tue 09:00');
    expect(trayTitleText(s, at('2026-06-16T07:30:00Z'))).toBe('Free until 11:00');
    expect(trayTitleText(s, at('2026-06-16T10:00:00Z'))).toBe('No free time');
  });
  it('no text when signed out, unverified, or syncing with nothing known ahead', () => {
    expect(trayTitleText(state('Europe/Brussels', windows, { signedIn: false }), at('2026-06-15T10:00:00Z'))).toBe('');
    expect(trayTitleText(state('Europe/Brussels', [], { signedIn: false, unverified: true }), at('2026-06-15T10:00:00Z'))).toBe('');
    expect(trayTitleText(state('Europe/Brussels', [], { syncing: true }), at('2026-06-15T10:00:00Z'))).toBe('');
  });
});
