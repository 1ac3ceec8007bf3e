/** Apple iCloud = CalDAV at APPLE_CALDAV_URL with the Apple ID and an app-specific password. */
import { createCaldavWriter } from '../caldav/caldav-writer.ts';
import { createCaldavProvider } from '../caldav/caldav.provider.ts';
import type { EventWriter } from '../event-writer.ts';

export const APPLE_INVALID_CREDENTIALS = 'Invalid credentials. Please check your Apple ID and app-specific password.';

export const appleProvider = createCaldavProvider({ id: 'apple', authErrorMessage: APPLE_INVALID_CREDENTIALS });

/**
 * The writer of 'apple' connections (issue 24): the CalDAV writer (caldav-writer.ts) on the
 * iCloud calendar collection the sync found from APPLE_CALDAV_URL, with the Apple wording of the
 * auth error. iCloud is a scheduling server: the object's ATTENDEE has SCHEDULE-AGENT=CLIENT so it
 * sends no invitation of its own (https://www.rfc-editor.org/rfc/rfc6638#section-7.1).
 */
export const appleWriter: EventWriter = createCaldavWriter({ authErrorMessage: APPLE_INVALID_CREDENTIALS });
