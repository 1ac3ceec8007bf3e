import { describe, expect, it } from 'vitest';
import { EMAIL_TEXT_MAX_WINDOWS, composeEmailText, defaultEmailText, formatWindowLines } from './email-text.ts';

const H = 3_600_000;
const utc = (iso: string) => Date.parse(iso);

describe('defaultEmailText', () => {
  it('is the template the links page shows, with the link and the name', () => {
    expect(defaultEmailText('Ada Lovelace', 'https://avail.example/ada')).toBe(
      "Hi,\n\nHere are the times I'm free: https://avail.example/ada\n\nPick a slot that works for you and propose it by replying to this email — I'll confirm.\n\nBest,\nAda Lovelace",
    );
  });
});

describe('composeEmailText', () => {
  const monday = { start: utc('2026-11-23T09:00:00Z'), end: utc('2026-11-23T12:00:00Z') };

  it('writes the whole friendly message', () => {
    const text = composeEmailText({
      name: 'Ada Lovelace',
      link: 'https://avail.example/ada',
      context: 'our project kickoff',
      timezone: 'Europe/London',
      windows: [monday, { start: utc('2026-11-24T14:30:00Z'), end: utc('2026-11-24T17:00:00Z') }],
    });
    expect(text).toBe(
      [
        'Hi,',
        '',
        "I'd love to find a time for our project kickoff.",
        '',
        'Here are my next free times (Europe/London):',
        '• Mon 23 Nov, 09:00–12:00',
        '• Tue 24 Nov, 14:30–17:00',
        '',
        'You can see all my free times and propose one here: https://avail.example/ada',
        '',
        'Nothing is booked until I confirm.',
        '',
        'Best,',
        'Ada Lovelace',
      ].join('\n'),
    );
  });

  it('writes the same windows on the clock of the chosen zone', () => {
    const base = { name: 'Ada', link: 'https://avail.example/ada', windows: [monday] };
    const london = composeEmailText({ ...base, timezone: 'Europe/London' });
    const tokyo = composeEmailText({ ...base, timezone: 'Asia/Tokyo' });
    const newYork = composeEmailText({ ...base, timezone: 'America/New_York' });
    expect(london).toContain('Here are my next free times (Europe/London):\n• Mon 23 Nov, 09:00–12:00\n');
    expect(tokyo).toContain('Here are my next free times (Asia/Tokyo):\n• Mon 23 Nov, 18:00–21:00\n');
    expect(newYork).toContain('Here are my next free times (America/New_York):\n• Mon 23 Nov, 04:00–07:00\n');
  });

  it('shows both dates for a window crossing midnight in the chosen zone', () => {
    // 22:00–02:00 UTC crosses midnight in London; in Tokyo (UTC+9) it is 07:00–11:00 on one day.
    const late = { start: utc('2026-11-23T22:00:00Z'), end: utc('2026-11-24T02:00:00Z') };
    expect(formatWindowLines([late], 'Europe/London')).toEqual(['• Mon 23 Nov, 22:00 – Tue 24 Nov, 02:00']);
    expect(formatWindowLines([late], 'Asia/Tokyo')).toEqual(['• Tue 24 Nov, 07:00–11:00']);
  });

  it('keeps a window ending at midnight on its own day', () => {
    const evening = { start: utc('2026-11-23T18:00:00Z'), end: utc('2026-11-24T00:00:00Z') };
    expect(formatWindowLines([evening], 'Europe/London')).toEqual(['• Mon 23 Nov, 18:00–24:00']);
  });

  it('lists at most 6 windows', () => {
    const windows = Array.from({ length: 9 }, (_, i) => ({ start: monday.start + i * 24 * H, end: monday.end + i * 24 * H }));
    const text = composeEmailText({ name: 'Ada', link: 'https://avail.example/ada', timezone: 'Europe/London', windows });
    const bullets = text.split('\n').filter((l) => l.startsWith('• '));
    expect(EMAIL_TEXT_MAX_WINDOWS).toBe(6);
    expect(bullets).toEqual([
      '• Mon 23 Nov, 09:00–12:00',
      '• Tue 24 Nov, 09:00–12:00',
      '• Wed 25 Nov, 09:00–12:00',
      '• Thu 26 Nov, 09:00–12:00',
      '• Fri 27 Nov, 09:00–12:00',
      '• Sat 28 Nov, 09:00–12:00',
    ]);
  });

  it('follows DST: the same UTC hour reads an hour later after clocks go forward', () => {
    // Europe/London switches to BST (UTC+1) on Sunday 2026-03-29 at 01:00 UTC.
    const before = { start: utc('2026-03-27T09:00:00Z'), end: utc('2026-03-27T12:00:00Z') };
    const after = { start: utc('2026-03-30T09:00:00Z'), end: utc('2026-03-30T12:00:00Z') };
    // A window across the switch itself: 00:00–03:00 UTC is 00:00–04:00 local.
    const across = { start: utc('2026-03-29T00:00:00Z'), end: utc('2026-03-29T03:00:00Z') };
    expect(formatWindowLines([before, across, after], 'Europe/London')).toEqual([
      '• Fri 27 Mar, 09:00–12:00',
      '• Sun 29 Mar, 00:00–04:00',
      '• Mon 30 Mar, 10:00–13:00',
    ]);
  });

  it('writes the context on one line without doubled punctuation, and leaves a blank one out', () => {
    const base = { name: 'Ada', link: 'https://avail.example/ada', timezone: 'Europe/London', windows: [monday] };
    expect(composeEmailText({ ...base, context: '  a quick\n chat about  the budget!  ' })).toContain(
      "Hi,\n\nI'd love to find a time for a quick chat about the budget.\n\nHere are my next free times",
    );
    for (const context of [undefined, '', '   ']) {
      const text = composeEmailText({ ...base, context });
      expect(text).not.toContain("I'd love to find a time");
      expect(text.startsWith('Hi,\n\nHere are my next free times (Europe/London):')).toBe(true);
    }
  });

  it('uses the locale for day and month names', () => {
    const text = composeEmailText({ name: 'Ada', link: 'l', timezone: 'Europe/Paris', windows: [monday], locale: 'fr-FR' });
    expect(text).toContain('• lun. 23 nov., 10:00–13:00');
  });
});
