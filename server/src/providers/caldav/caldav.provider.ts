/**
 * CalDAV provider (tsdav, Basic auth), also used for Apple iCloud (apple/apple.provider.ts).
 *
 * The seams (the shape of the Google and Microsoft adapters; CalDAV has no push):
 * - caldav-session.ts — auth: the Basic header, the guarded fetch handed to tsdav, the error mapping;
 * - caldav-discovery.ts — discovery (well-known → principal → calendar home, the
 *   calendar-user-address-set), kept in the sync state so later syncs skip it, and the calendar
 *   list: ONE PROPFIND (depth 1) on the calendar home with each calendar's ctag and sync token;
 * - caldav-sync.ts — sync: the ctag / sync-token check, an RFC 6578 sync-collection REPORT from the
 *   stored token (falling back to a calendar-query of etags), calendar-multiget of changed objects
 *   (unexpanded), the mapping to the ProviderSyncResult;
 * - caldav-writer.ts — writing a confirmed meeting (issue 24);
 * - this file — the factory composing them into the CalendarProviderAdapter.
 *
 * All requests go through the SSRF-guarded fetch. Credentials are only in the Authorization header.
 */
import type { CalendarProviderAdapter } from '../provider.ts';
import type { CaldavConfig } from './caldav-discovery.ts';
import { CALDAV_INVALID_CREDENTIALS } from './caldav-session.ts';
import { syncCaldav, type CaldavProviderOptions } from './caldav-sync.ts';

/** Builds a CalDAV adapter: `options.id` names it ('caldav' or 'apple'), `authErrorMessage` is its 401 wording. */
export function createCaldavProvider(options: CaldavProviderOptions): CalendarProviderAdapter<CaldavConfig> {
  return {
    id: options.id,
    sync: (input, ctx) => syncCaldav(input, ctx, options),
  };
}

export const caldavProvider = createCaldavProvider({ id: 'caldav', authErrorMessage: CALDAV_INVALID_CREDENTIALS });
