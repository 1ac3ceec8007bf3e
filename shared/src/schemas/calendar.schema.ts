/**
 * Calendar connection payloads (spec §7 Apple connect; issue 2's ICS and CalDAV connect).
 */
import './zod-setup.ts';
import { z } from 'zod';
import { FREE_KEYWORDS_MAX, FREE_KEYWORD_MAX_LENGTH, type BusyRules } from '../ical/busy-rules.ts';

/** POST /api/me/calendar/apple/connect — `{ apple_id, app_specific_password }`. */
export const appleConnectSchema = z.object({
  apple_id: z.string({ error: 'Please enter both Apple ID and app-specific password.' }).trim().min(1, 'Please enter both Apple ID and app-specific password.').max(254),
  app_specific_password: z.string({ error: 'Please enter both Apple ID and app-specific password.' }).trim().min(1, 'Please enter both Apple ID and app-specific password.').max(200),
});

/** An http(s) URL; `webcal://` (how calendar apps publish feeds) is read as `https://`. */
const calendarUrlSchema = z
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

const busyOrFree = (field: string) =>
  z.enum(['busy', 'free'], { error: `${field} must be "busy" or "free"` });

/**
 * PUT /api/me/calendar/connections/{id}/busy-rules body (issue 14 item 4; shared/src/ical/busy-rules.ts):
 * `{ all_day, tentative, unanswered: 'busy' | 'free', free_keywords: string[] }`. Keywords are
 * trimmed, empty ones dropped, duplicates (case-insensitive) removed; at most 20 of 1–50 characters.
 */
export const busyRulesSchema = z.object({
  all_day: busyOrFree('all_day'),
  tentative: busyOrFree('tentative'),
  unanswered: busyOrFree('unanswered'),
  free_keywords: z
    .array(z.string({ error: 'Keywords must be text' }).trim().max(FREE_KEYWORD_MAX_LENGTH, `A keyword can be at most ${FREE_KEYWORD_MAX_LENGTH} characters.`), {
      error: 'free_keywords must be a list of words',
    })
    .transform((list) => {
      const seen = new Set<string>();
      return list.filter((k) => k !== '' && !seen.has(k.toLowerCase()) && seen.add(k.toLowerCase()));
    })
    .refine((list) => list.length <= FREE_KEYWORDS_MAX, `At most ${FREE_KEYWORDS_MAX} keywords.`),
});

/**
 * One calendar of a connection with its switch (issue 23): GET /api/me/calendar/connections/{id}/calendars.
 * `busy`: its events make the owner busy; `read_only`: the account cannot write to it;
 * `new`: listed since the owner last looked at the switches.
 */
export interface ConnectionCalendar {
  id: string;
  name: string;
  /** `#rrggbb` when the provider gives a colour. */
  color?: string;
  busy: boolean;
  read_only: boolean;
  new: boolean;
}

/** Body of PUT /api/me/calendar/connections/{id}/calendars: `{ calendars: [{ id, busy }] }` (1–500 entries, ids listed by GET). */
export const calendarSwitchesSchema = z.object({
  calendars: z
    .array(
      z.object({
        id: z.string({ error: 'Calendar id must be text' }).min(1, 'Calendar id is required').max(2048, 'Calendar id is too long'),
        busy: z.boolean({ error: 'busy must be true or false' }),
      }),
      { error: 'calendars must be a list of { id, busy }' },
    )
    .min(1, 'Choose at least one calendar')
    .max(500, 'At most 500 calendars'),
});

/** JSON of GET /api/me/calendar/events/{id}/source: where an event of the owner's week comes from (owner-only; server and web app). */
export interface EventSource {
  event: {
    id: string;
    title: string;
    uid: string;
    start: string;
    end: string;
    all_day: boolean;
    is_busy: boolean;
    /** null = synced before the origin was recorded. */
    origin: 'single' | 'recurring' | 'override' | null;
  };
  calendar: string | null;
  /** Whether the event's calendar counts as busy (Settings → My Calendars switches, issue 23); absent from older servers. */
  calendar_busy?: boolean;
  connection: {
    id: string;
    name: string;
    provider: string;
    status: string;
    last_synced_at: string | null;
    last_error: string | null;
    warnings: string[];
    busy_rules: BusyRules;
  };
}
