import { describe, expect, it } from 'vitest';
import { ApiError } from '@avail/shared/api/api-client.ts';
import { appleError, connectionActions, statusText } from './connection-status.ts';

describe('connection status text', () => {
  it('maps the three statuses and anything else', () => {
    expect(statusText('active')).toBe('Connected');
    expect(statusText('expired')).toBe('Expired');
    expect(statusText('error')).toBe('Error');
    expect(statusText('paused')).toBe('Unknown');
  });
});

describe('Apple connect messages', () => {
  it('prefers the server error, then field errors, then the status rule', () => {
    expect(appleError(new ApiError('x', 400, { error: 'Apple said no' }))).toBe('Apple said no');
    expect(appleError(new ApiError('', 422, { errors: { apple_id: 'Bad ID', app_specific_password: 'Bad password' } }))).toBe('Bad ID Bad password');
    expect(appleError(new ApiError('', 400, {}))).toBe('Invalid credentials. Please check your Apple ID and app-specific password.');
    expect(appleError(new ApiError('', 422, {}))).toBe('Validation failed. Please check your input.');
    expect(appleError(new ApiError('', 500, {}))).toBe('Failed to connect Apple Calendar. Please try again.');
    expect(appleError(new TypeError('fetch failed'))).toBe('Failed to connect Apple Calendar. Please try again.');
  });
});


describe('connectionActions (issue 23: broken connections can be removed and fixed)', () => {
  it('an active connection offers Disconnect only', () => {
    expect(connectionActions({ status: 'active', provider: 'google' })).toEqual(['disconnect']);
  });
  it('a connection in error offers Try again and Disconnect', () => {
    expect(connectionActions({ status: 'error', provider: 'ics' })).toEqual(['retry', 'disconnect']);
    expect(connectionActions({ status: 'error', provider: 'caldav' })).toEqual(['retry', 'disconnect']);
  });
  it('an expired sign-in offers Reconnect and Disconnect; an ICS feed (no sign-in) is tried again', () => {
    for (const provider of ['google', 'microsoft', 'apple', 'caldav']) expect(connectionActions({ status: 'expired', provider })).toEqual(['reconnect', 'disconnect']);
    expect(connectionActions({ status: 'expired', provider: 'ics' })).toEqual(['retry', 'disconnect']);
  });
  it('an unknown status can still be removed', () => {
    expect(connectionActions({ status: 'weird', provider: 'ics' })).toEqual(['disconnect']);
  });
});
