import { describe, expect, it } from 'vitest';
import { SESSION_LABEL_MAX, sessionLabel } from './session-label.ts';

/** Real User-Agent strings as browsers and the desktop app (Electron) send them. */
const UA = {
  chromeMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  firefoxWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  safariIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1',
  chromeAndroid:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36',
  electronLinux:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Avail/0.1.0 Chrome/130.0.6723.191 Electron/33.2.1 Safari/537.36',
  electronMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) avail-desktop/0.1.0 Chrome/130.0.6723.191 Electron/33.2.1 Safari/537.36',
  electronWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Avail/0.1.0 Chrome/130.0.6723.191 Electron/33.2.1 Safari/537.36',
  edgeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.70',
};

describe('sessionLabel (User-Agent → "Browser on OS")', () => {
  it.each([
    ['Chrome on macOS', UA.chromeMac, 'Chrome on macOS'],
    ['Firefox on Windows', UA.firefoxWindows, 'Firefox on Windows'],
    ['Safari on an iPhone', UA.safariIos, 'Safari on iOS'],
    ['Chrome on Android', UA.chromeAndroid, 'Chrome on Android'],
    ['Edge on Windows', UA.edgeWindows, 'Microsoft Edge on Windows'],
    ['the desktop app on Linux', UA.electronLinux, 'Avail desktop on Linux'],
    ['the desktop app on macOS', UA.electronMac, 'Avail desktop on macOS'],
    ['the desktop app on Windows', UA.electronWindows, 'Avail desktop on Windows'],
  ])('%s', (_name, ua, label) => {
    expect(sessionLabel(ua)).toBe(label);
  });

  it('answers "Unknown device" for no, an empty or an unknown User-Agent', () => {
    expect(sessionLabel(undefined)).toBe('Unknown device');
    expect(sessionLabel(null)).toBe('Unknown device');
    expect(sessionLabel('')).toBe('Unknown device');
    expect(sessionLabel('   ')).toBe('Unknown device');
    expect(sessionLabel('curl/8.5.0')).toBe('Unknown device');
    expect(sessionLabel('\u0000\u0001 garbage <script>')).toBe('Unknown device');
  });

  it('never stores the header itself, and stays within 100 characters', () => {
    const long = `${UA.chromeMac} ${'x'.repeat(5000)}`;
    const label = sessionLabel(long);
    expect(label).toBe('Chrome on macOS');
    expect(label.length).toBeLessThanOrEqual(SESSION_LABEL_MAX);
    expect(sessionLabel(UA.firefoxWindows)).not.toContain('Mozilla');
  });
});
