/**
 * The label of a session (docs/account-security.md "Sessions"): browser and operating system from
 * the User-Agent of the request that signed in, parsed with bowser (MIT). Only the label is
 * stored, never the header.
 */
import Bowser from 'bowser';

/** Longest label stored (characters). */
export const SESSION_LABEL_MAX = 100;
const UNKNOWN_DEVICE = 'Unknown device';

/** The desktop app's User-Agent carries `Electron/<version>` (and `Avail/<version>`). */
const DESKTOP_UA = /\b(Electron|Avail)\/\d/;

/**
 * "Chrome on macOS", "Firefox on Windows", "Safari on iOS"; the desktop app → "Avail desktop on
 * Linux" (or "Avail desktop" when the OS is not known); a browser without a known OS → its name
 * alone, an OS without a known browser → "Unknown browser on Linux"; no, empty or unknown
 * User-Agent → "Unknown device". At most SESSION_LABEL_MAX characters of printable text.
 */
export function sessionLabel(userAgent: string | null | undefined): string {
  const ua = typeof userAgent === 'string' ? userAgent.trim().slice(0, 1000) : '';
  if (!ua) return UNKNOWN_DEVICE;
  let browser = '';
  let os = '';
  try {
    const parsed = Bowser.parse(ua);
    browser = parsed.browser.name ?? '';
    os = parsed.os.name ?? '';
  } catch {
    return UNKNOWN_DEVICE;
  }
  let label: string;
  if (DESKTOP_UA.test(ua)) label = os ? `Avail desktop on ${os}` : 'Avail desktop';
  else if (browser && os) label = `${browser} on ${os}`;
  else if (browser) label = browser;
  else if (os) label = `Unknown browser on ${os}`;
  else return UNKNOWN_DEVICE;
  // Names come from bowser's own tables; the guard keeps the stored text plain whatever it returns.
  const clean = label.replace(/[^\p{L}\p{N} .,()/+-]/gu, '').trim().slice(0, SESSION_LABEL_MAX);
  return clean || UNKNOWN_DEVICE;
}
