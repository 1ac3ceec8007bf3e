/**
 * Profile payloads: username (spec §5 "Username"), time zone (spec §5 "Timezone") and the host's
 * introduction on the public page (issue 22).
 */
import './zod-setup.ts';
import { z } from 'zod';
import { USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH, USERNAME_PATTERN, isReservedUsername } from '../constants.ts';
import { canonicalIanaZone } from '../domain/zone-time.ts';

/** True when `zone` is an IANA zone name this runtime's tz database knows. */
function isKnownTimeZone(zone: string): boolean {
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

/** Longest introduction under the host's name on the public page, in characters (after trimming). */
export const INTRO_MAX_LENGTH = 160;

/**
 * The owner's one-line introduction (issue 22): trimmed, ≤ 160 characters; blank or null → null (none).
 * Messages: 'Introduction must be text', 'Introduction must be at most 160 characters'.
 */
const introSchema = z
  .string({ error: 'Introduction must be text' })
  .trim()
  .max(INTRO_MAX_LENGTH, `Introduction must be at most ${INTRO_MAX_LENGTH} characters`)
  .nullable()
  .transform((v) => v || null);

/** True when `locale` is a BCP 47 tag `Intl.getCanonicalLocales` accepts (one tag, ≤ 35 characters). */
export function isKnownLocale(locale: string): boolean {
  if (!locale || locale.length > 35) return false;
  try {
    return Intl.getCanonicalLocales(locale).length === 1;
  } catch {
    return false;
  }
}

/**
 * The locale of the dates and times on the owner's screens (issue 22 item 3): a BCP 47 tag, returned
 * in its canonical spelling ('en-us' → 'en-US'); blank or null → null (the browser's own).
 * Messages: 'Format must be a language tag such as en-US', 'Unknown format language'.
 */
const formatLocaleSchema = z
  .string({ error: 'Format must be a language tag such as en-US' })
  .trim()
  .nullable()
  .transform((v, ctx) => {
    if (!v) return null;
    if (!isKnownLocale(v)) {
      ctx.addIssue({ code: 'custom', message: 'Unknown format language' });
      return z.NEVER;
    }
    return Intl.getCanonicalLocales(v)[0];
  });

/** The owner's clock: true = 12-hour, false = 24-hour, null = the locale's own. Message: 'Clock must be 12-hour, 24-hour or automatic'. */
const hour12Schema = z.boolean({ error: 'Clock must be 12-hour, 24-hour or automatic' }).nullable();

/**
 * The owner's first day of the week: an integer 0 (Sunday) … 6 (Saturday), null = automatic (Monday in the
 * owner app, spec Z-11).
 * Message: 'First day of week must be a whole number from 0 (Sunday) to 6 (Saturday)'.
 */
const weekStartSchema = z
  .number({ error: 'First day of week must be a whole number from 0 (Sunday) to 6 (Saturday)' })
  .int('First day of week must be a whole number from 0 (Sunday) to 6 (Saturday)')
  .min(0, 'First day of week must be a whole number from 0 (Sunday) to 6 (Saturday)')
  .max(6, 'First day of week must be a whole number from 0 (Sunday) to 6 (Saturday)')
  .nullable();

/** The owner's date and time format as stored and answered: each field null = automatic. */
export interface OwnerFormatPrefs {
  /** BCP 47 locale of the formats; null = the browser's own. */
  format_locale: string | null;
  /** true = 12-hour, false = 24-hour; null = the locale's own. */
  hour12: boolean | null;
  /** 0 = Sunday … 6 = Saturday; null = automatic (Monday, spec Z-11). */
  week_start: number | null;
}

/**
 * PUT /api/me/profile — `{ timezone?, intro?, format_locale?, hour12?, week_start? }`, at least one.
 * `timezone`: IANA name; `intro`: see introSchema (null or '' clears it); `format_locale`, `hour12`,
 * `week_start`: the owner's date and time format (see their schemas; null = automatic). None given →
 * 'Please select a timezone' (the route's original contract: a timezone update).
 */
export const profileUpdateSchema = z
  .object({
    timezone: timezoneSchema.optional(),
    intro: introSchema.optional(),
    format_locale: formatLocaleSchema.optional(),
    hour12: hour12Schema.optional(),
    week_start: weekStartSchema.optional(),
  })
  .superRefine((body, ctx) => {
    const none = body.timezone === undefined && body.intro === undefined && body.format_locale === undefined && body.hour12 === undefined && body.week_start === undefined;
    if (none) ctx.addIssue({ code: 'custom', path: ['timezone'], message: 'Please select a timezone' });
  });
export type ProfileUpdateBody = z.output<typeof profileUpdateSchema>;

/** Longest context accepted by POST /api/me/profile/generate-email-text, in characters (after trimming). */
const EMAIL_CONTEXT_MAX_LENGTH = 200;

/**
 * POST /api/me/profile/generate-email-text — `{ context?, timezone? }` (spec §7; issue 4).
 * context: what the meeting is about, trimmed, ≤ 200 characters; blank or null → absent.
 * timezone: IANA zone the windows are written in, returned in its canonical spelling; blank or null →
 * absent (the owner's zone). Messages: 'Context must be text', 'Context must be at most 200 characters',
 * 'Timezone must be text', 'Unknown timezone'.
 */
export const generateEmailTextSchema = z.object({
  context: z
    .string({ error: 'Context must be text' })
    .trim()
    .max(EMAIL_CONTEXT_MAX_LENGTH, `Context must be at most ${EMAIL_CONTEXT_MAX_LENGTH} characters`)
    .nullish()
    .transform((v) => v || undefined),
  timezone: z
    .string({ error: 'Timezone must be text' })
    .trim()
    .nullish()
    .transform((v, ctx) => {
      if (!v) return undefined;
      const zone = canonicalIanaZone(v);
      if (!zone) {
        ctx.addIssue({ code: 'custom', message: 'Unknown timezone' });
        return z.NEVER;
      }
      return zone;
    }),
});
export type GenerateEmailTextBody = z.output<typeof generateEmailTextSchema>;
