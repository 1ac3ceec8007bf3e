import { describe, expect, it } from 'vitest';
import { ApiError } from '@avail/shared/api/api-client.ts';
import { appleError, statusText } from './connection-status.ts';

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

