/** Pure helpers of Settings → My Calendars (spec §4 connection status, §8 Apple messages). */
import { ApiError } from '@avail/shared/api/api-client.ts';

export { PROVIDER_LABEL } from '../../lib/provider-labels.ts';

/** active → 'Connected', expired → 'Expired', error → 'Error', anything else → 'Unknown'. */
export function statusText(status: string): string {
  return status === 'active' ? 'Connected' : status === 'expired' ? 'Expired' : status === 'error' ? 'Error' : 'Unknown';
}

/** Apple connect failure: server error, else joined field errors, else by status (400, 422), else generic. */
export function appleError(e: unknown): string {
  if (e instanceof ApiError) {
    const body = e.body as { error?: unknown } | null;
    if (body && typeof body.error === 'string' && body.error) return body.error;
    const fields = e.fieldErrors;
    if (fields && Object.keys(fields).length) return Object.values(fields).join(' ');
    if (e.status === 400) return 'Invalid credentials. Please check your Apple ID and app-specific password.';
    if (e.status === 422) return 'Validation failed. Please check your input.';
  }
  return 'Failed to connect Apple Calendar. Please try again.';
}

/** What a connection's row offers: 'retry' (sync again), 'reconnect' (the provider's connect flow again), 'disconnect'. */
export type ConnectionAction = 'retry' | 'reconnect' | 'disconnect';

/**
 * The row's actions by status. Spec T-31 offers Disconnect on `active` connections only; issue 23
 * widens it on purpose: a connection in error or expired must be removable and fixable, so it
 * offers Disconnect plus a fix — "Try again" (sync again) for an error, Reconnect for an expired
 * sign-in (an ICS feed has no sign-in: it is tried again). Any other status: Disconnect only.
 */
export function connectionActions(c: { status: string; provider: string }): ConnectionAction[] {
  if (c.status === 'error') return ['retry', 'disconnect'];
  if (c.status === 'expired') return [c.provider === 'ics' ? 'retry' : 'reconnect', 'disconnect'];
  return ['disconnect'];
}
