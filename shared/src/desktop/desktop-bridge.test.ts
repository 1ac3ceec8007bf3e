import { describe, expect, it } from 'vitest';
import { DESKTOP_BRIDGE_MEMBERS, INSECURE_SERVER_MESSAGE, isExternalPageUrl, normaliseServerOrigin, signedOutTrayState } from './desktop-bridge.ts';

const MESSAGE = 'Enter the address of your Avail server, like https://avail.example.com';

describe('normaliseServerOrigin (the "Avail server" field)', () => {
  it.each([
    ['https://avail.example.com', 'https://avail.example.com'],
    ['  https://avail.example.com/  ', 'https://avail.example.com'],
    ['avail.example.com', 'https://avail.example.com'],
    ['http://localhost:3000', 'http://localhost:3000'],
    ['HTTP://127.0.0.1:8080/', 'http://127.0.0.1:8080'],
    ['http://[::1]:3000', 'http://[::1]:3000'],
  ])('%s → %s', (input, origin) => expect(normaliseServerOrigin(input)).toBe(origin));

  it.each(['', '   ', 'not a server', 'ftp://avail.example.com', 'https://user:pw@avail.example.com', 'https://avail.example.com/app', 'https://avail.example.com/?x=1', 'javascript:alert(1)', 'https://-bad-.example'])(
    'refuses %j with the field message',
    (input) => expect(() => normaliseServerOrigin(input)).toThrow(MESSAGE),
  );
});

describe('plain http only for this computer', () => {
  it('refuses http to another host with its own message, accepts https and loopback http', () => {
    expect(() => normaliseServerOrigin('http://192.168.1.20:3000')).toThrow(INSECURE_SERVER_MESSAGE);
    expect(() => normaliseServerOrigin('http://avail.example.com')).toThrow(INSECURE_SERVER_MESSAGE);
    expect(normaliseServerOrigin('http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000');
  });
  it('opens only https pages (and loopback http) in the system browser', () => {
    expect(isExternalPageUrl('https://accounts.google.com/o/oauth2/v2/auth?x=1')).toBe(true);
    expect(isExternalPageUrl('http://localhost:3000/api/oauth/google/callback')).toBe(true);
    expect(isExternalPageUrl('http://evil.example/')).toBe(false);
    expect(isExternalPageUrl('file:///etc/passwd')).toBe(false);
    expect(isExternalPageUrl('javascript:alert(1)')).toBe(false);
    expect(isExternalPageUrl('https://user:pw@accounts.google.com/')).toBe(false);
  });
});

describe('contract constants', () => {
  it('lists every bridge member once, and a signed-out state has nothing to show', () => {
    expect(new Set(DESKTOP_BRIDGE_MEMBERS).size).toBe(DESKTOP_BRIDGE_MEMBERS.length);
    expect(signedOutTrayState(5)).toEqual({ signedIn: false, connection: 'online', pendingCount: 0, timezone: 'UTC', windows: [], link: null, freeTimesText: null, computedAt: 5 });
  });
});
