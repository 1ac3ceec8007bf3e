/**
 * The e-mail text an owner sends to share their free times (product spec §5 "Links" e-mail template,
 * §7 POST /me/profile/generate-email-text, §8 fallback). Used by the server (generation) and the web
 * (the template shown before anything is generated, and the fallback) so both write the same words.
 */

/** A free window: [start, end) in UTC epoch ms. */
export interface EmailWindow {
  start: number;
  end: number;
}

/** At most this many windows are listed; the link shows the rest. */
export const EMAIL_TEXT_MAX_WINDOWS = 6;

/**
 * The default template (spec §5; byte-identical to what the web showed before generation existed):
 * "Hi,\n\nHere are the times I'm free: {link}\n\nPick a slot … I'll confirm.\n\nBest,\n{name}".
 */
export function defaultEmailText(name: string, link: string): string {
  return `Hi,\n\nHere are the times I'm free: ${link}\n\nPick a slot that works for you and propose it by replying to this email — I'll confirm.\n\nBest,\n${name}`;
}

export interface ComposeEmailTextInput {
  /** The owner's name, signed at the end. */
  name: string;
  /** The owner's public link (absolute URL). */
  link: string;
  /** What the meeting is about ("our project kickoff"); blank or absent → no context line. */
  context?: string | null;
  /** IANA zone the windows are written in; named in the text so the reader knows which clock it is. */
  timezone: string;
  /** Free windows, UTC ms, in order; only the first {@link EMAIL_TEXT_MAX_WINDOWS} are listed. */
  windows: EmailWindow[];
  /** BCP 47 locale for weekday/month names and times; default 'en-GB' ("Tue 24 Nov, 09:00"). */
  locale?: string;
}

/**
 * One bullet line per window in `timezone`: "• Tue 24 Nov, 09:00–12:00"; a window that crosses
 * midnight shows both dates ("• Tue 24 Nov, 22:00 – Wed 25 Nov, 02:00"); one ending exactly at
 * midnight stays on its day ("• Tue 24 Nov, 18:00–24:00"). Times are 24-hour.
 * @throws RangeError for an unknown zone or locale (from Intl).
 */
export function formatWindowLines(windows: EmailWindow[], timezone: string, locale = 'en-GB'): string[] {
  const dateFmt = new Intl.DateTimeFormat(locale, { timeZone: timezone, weekday: 'short', day: 'numeric', month: 'short' });
  const timeFmt = new Intl.DateTimeFormat(locale, { timeZone: timezone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return windows.slice(0, EMAIL_TEXT_MAX_WINDOWS).map(({ start, end }) => {
    const startDate = dateFmt.format(start);
    const startTime = timeFmt.format(start);
    // The last instant inside the window decides whether it ends on its start date.
    if (dateFmt.format(end - 1) === startDate) {
      const endTime = timeFmt.format(end);
      const endsAtMidnight = dateFmt.format(end) !== startDate;
      return `• ${startDate}, ${startTime}–${endsAtMidnight ? endTime.replace(/^00/, '24') : endTime}`;
    }
    return `• ${startDate}, ${startTime} – ${dateFmt.format(end)}, ${timeFmt.format(end)}`;
  });
}

/**
 * A friendly message listing the owner's next free windows (POST /me/profile/generate-email-text):
 *
 *   Hi,
 *
 *   I'd love to find a time for {context}.          (only with a context)
 *
 *   Here are my next free times ({timezone}):
 *   • Tue 24 Nov, 09:00–12:00                        (≤ 6 lines, see formatWindowLines)
 *
 *   You can see all my free times and propose one here: {link}
 *
 *   Nothing is booked until I confirm.
 *
 *   Best,
 *   {name}
 *
 * The context is written on one line (whitespace collapsed) without its trailing . ! or ?.
 * Without windows the list block is left out (callers normally send defaultEmailText instead).
 * Pure: same input, same text. @throws RangeError for an unknown zone or locale.
 */
export function composeEmailText(input: ComposeEmailTextInput): string {
  const blocks: string[] = ['Hi,'];
  const context = (input.context ?? '').replace(/\s+/g, ' ').trim().replace(/[.!?]+$/, '').trim();
  if (context) blocks.push(`I'd love to find a time for ${context}.`);
  const lines = formatWindowLines(input.windows, input.timezone, input.locale);
  if (lines.length) blocks.push([`Here are my next free times (${input.timezone}):`, ...lines].join('\n'));
  blocks.push(`You can see all my free times and propose one here: ${input.link}`);
  blocks.push('Nothing is booked until I confirm.');
  blocks.push(`Best,\n${input.name}`);
  return blocks.join('\n\n');
}
