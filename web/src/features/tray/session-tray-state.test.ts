import { describe, expect, it } from 'vitest';
import { sessionTrayState } from './session-tray-state.ts';

const NOW = 1_781_527_800_000;

describe('the tray while the owner app is not open (issue 25)', () => {
  it('an offline start with a stored token but no cached user is still signed in (syncing), never "Not signed in"', () => {
    const s = sessionTrayState({ status: 'unauthenticated', hasToken: true, verified: false, zone: 'Europe/Brussels', now: NOW });
    expect(s).toMatchObject({ signedIn: true, syncing: true, timezone: 'Europe/Brussels' });
  });

  it('without a token it is signed out; an owner not verified is told to verify; loading or verified reports nothing here', () => {
    expect(sessionTrayState({ status: 'unauthenticated', hasToken: false, verified: false, zone: 'UTC', now: NOW })).toMatchObject({ signedIn: false });
    expect(sessionTrayState({ status: 'unauthenticated', hasToken: false, verified: false, zone: 'UTC', now: NOW })?.unverified).toBeUndefined();
    expect(sessionTrayState({ status: 'authenticated', hasToken: true, verified: false, zone: 'UTC', now: NOW })).toMatchObject({ signedIn: false, unverified: true });
    expect(sessionTrayState({ status: 'authenticated', hasToken: true, verified: true, zone: 'UTC', now: NOW })).toBeNull();
    expect(sessionTrayState({ status: 'loading', hasToken: true, verified: false, zone: 'UTC', now: NOW })).toBeNull();
  });
});
