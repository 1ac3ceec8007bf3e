/**
 * Calendar connection payloads (spec §7 Apple connect; issue 2's ICS and CalDAV connect).
 */
import './zod-setup.ts';
import { z } from 'zod';

/** POST /api/me/calendar/apple/connect — `{ apple_id, app_specific_password }`. */
export const appleConnectSchema = z.object({
  apple_id: z.string({ error: 'Please enter both Apple ID and app-specific password.' }).trim().min(1, 'Please enter both Apple ID and app-specific password.').max(254),
  app_specific_password: z.string({ error: 'Please enter both Apple ID and app-specific password.' }).trim().min(1, 'Please enter both Apple ID and app-specific password.').max(200),
});

/** An http(s) URL; `webcal://` (how calendar apps publish feeds) is read as `https://`. */
export const calendarUrlSchema = z
  .string({ error: 'Calendar URL is required' })
  .trim()
  .min(1, 'Calendar URL is required')
  .max(2048, 'Calendar URL is too long')
  .transform((url) => url.replace(/^webcals?:\/\//i, 'https://'))
  .refine((url) => {
    try {
      const u = new URL(url);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'Enter a valid http(s) or webcal URL');

/** POST /api/me/calendar/ics/connect — `{ url, name? }`. */
export const icsConnectSchema = z.object({
  url: calendarUrlSchema,
  name: z.string().trim().max(100).optional(),
});

/** POST /api/me/calendar/caldav/connect — `{ server_url, username, password }`. */
export const caldavConnectSchema = z.object({
  server_url: calendarUrlSchema,
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required').max(254),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(500),
});

/** GET /api/me/calendar/events — `start_date`, `end_date` as ISO dates or instants. */
export const eventsQuerySchema = z.object({
  start_date: z.string({ error: 'start_date is required' }).min(1, 'start_date is required'),
  end_date: z.string({ error: 'end_date is required' }).min(1, 'end_date is required'),
});
