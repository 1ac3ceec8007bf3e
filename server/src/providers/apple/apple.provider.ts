/** Apple iCloud = CalDAV at APPLE_CALDAV_URL with the Apple ID and an app-specific password. */
import { createCaldavProvider } from '../caldav/caldav.provider.ts';

export const APPLE_INVALID_CREDENTIALS = 'Invalid credentials. Please check your Apple ID and app-specific password.';

export const appleProvider = createCaldavProvider({ id: 'apple', authErrorMessage: APPLE_INVALID_CREDENTIALS });
