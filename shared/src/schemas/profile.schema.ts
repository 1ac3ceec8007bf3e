/**
 * Profile payloads: username (spec §5 "Username") and time zone (spec §5 "Timezone").
 */
import { z } from 'zod';
import { USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH, USERNAME_PATTERN, isReservedUsername } from '../constants.ts';

/** True when `zone` is an IANA zone name this runtime's tz database knows. */
export function isKnownTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Username: 4–15 letters, digits or hyphens; reserved route names are refused. */
export const usernameSchema = z
  .string({ error: 'Username is required' })
  .trim()
  .min(1, 'Username is required')
  .min(USERNAME_MIN_LENGTH, 'Username must be at least 4 characters')
  .max(USERNAME_MAX_LENGTH, 'Username must be no more than 15 characters')
  .regex(USERNAME_PATTERN, 'Username can only contain letters, numbers, and hyphens')
  .refine((name) => !isReservedUsername(name), 'Username is already taken');

/** PUT /api/me/profile/username and POST /api/me/profile/check-username — `{ username }`. */
export const usernameBodySchema = z.object({ username: usernameSchema });

/** An IANA time zone name; the spec's onboarding message when missing. */
export const timezoneSchema = z
  .string({ error: 'Please select a timezone' })
  .trim()
  .min(1, 'Please select a timezone')
  .refine(isKnownTimeZone, 'Unknown timezone');

/** PUT /api/me/profile — `{ timezone }`. */
export const profileUpdateSchema = z.object({ timezone: timezoneSchema });
