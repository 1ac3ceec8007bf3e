/** /api/me, /api/user/profile, /api/me/profile* — the signed-in user's account and profile (the picture's routes: avatar.routes.ts). */
import { Router } from 'express';
import { generateEmailTextSchema, profileUpdateSchema, usernameBodySchema, usernameSchema, type ProfileUpdateBody } from '@avail/shared/schemas/profile.schema.ts';
import { authenticate, currentUser, requireVerified } from '../../http/authenticate.ts';
import type { Deps } from '../../http/deps.ts';
import { defaultRateLimits, type RateLimits } from '../../http/rate-limit.ts';
import { parse, validate } from '../../http/validate.ts';
import { presentProfile, presentUser } from '../auth/index.ts';
import { avatarRouter } from './avatar.routes.ts';
import { generateEmailText } from './email-text.service.ts';
import * as host from './host.service.ts';
import * as profile from './profile.service.ts';

/**
 * Router for /api/me, /api/user/profile, /api/me/profile*, /api/me/avatar and the host's public picture
 * /api/public/:slug/avatar.webp (product spec §3, §5 "Username"/"Timezone", §7; issue 22; the picture's routes are
 * avatarRouter's, avatar.routes.ts, mounted here).
 * `limits.publicPerIp` limits the public picture per IP (its own counts, apart from the availability answers).
 */
export function profileRouter(deps: Deps, limits: RateLimits = defaultRateLimits) {
  const r = Router();
  const auth = authenticate(deps);

  /**
   * GET /api/me — 200 `{ user, data: { user } }` with the User JSON
   * `{ id, name, email, timezone, username, slug, can_change_username, days_until_change, email_verified_at }`
   * (email_verified_at ISO or null). Extra query parameters (the web's cache-buster `t`) are ignored. 401.
   */
  r.get('/me', auth, (req, res) => {
    const user = presentUser(currentUser(req), deps.now(), deps.config.PUBLIC_BASE_URL);
    res.json({ user, data: { user } });
  });

  /** GET /api/user/profile — 200 `{ data: { timezone, name, email } }`. 401; 403 unverified. */
  r.get('/user/profile', auth, requireVerified, (req, res) => {
    const u = currentUser(req);
    res.json({ data: { timezone: u.timezone, name: u.name, email: u.email } });
  });

  /**
   * GET /api/me/profile — 200 `{ profile: { username, can_change_username, days_until_change, timezone,
   * format_locale, hour12, week_start, intro, avatar_url, avatar_version } }` (format_locale: BCP 47 or null,
   * hour12: boolean or null, week_start: 0–6 or null — null = automatic; intro: string or null; avatar_url: the public versioned path, null without a
   * picture or a username; avatar_version: null without a picture). 401; 403.
   */
  r.get('/me/profile', auth, requireVerified, (req, res) => {
    const u = currentUser(req);
    res.json({ profile: { ...presentProfile(u, deps.now()), ...host.presentOwnHost(u) } });
  });

  /**
   * PUT /api/me/profile — `{ timezone?, intro?, format_locale?, hour12?, week_start? }`, at least one.
   * `timezone`: IANA name; `intro`: the one-line introduction on the public page (trimmed, ≤ 160 characters;
   * '' or null removes it); `format_locale` (BCP 47 tag, saved canonical; '' or null = the browser's own),
   * `hour12` (boolean or null = the locale's own), `week_start` (integer 0 = Sunday … 6 = Saturday, or null =
   * automatic: Monday, spec Z-11): how dates and times read on the owner's screens (issue 22 item 3).
   * 200 `{ success: true, message, profile }` (profile as GET /api/me/profile): message 'Timezone updated to {tz}!'
   * when a timezone was given, else 'Introduction updated!' when an intro was, else 'Date and time format updated!'.
   * When the zone changes, floating and all-day busy time is re-derived in the new zone before the answer.
   * 422 `Please select a timezone` (none given) / `Unknown timezone` / `Introduction must be text` /
   * `Introduction must be at most 160 characters` / `Unknown format language` / `Format must be a language tag
   * such as en-US` / `Clock must be 12-hour, 24-hour or automatic` / `First day of week must be a whole number
   * from 0 (Sunday) to 6 (Saturday)` — on its field in `errors`; nothing is saved then. 401; 403.
   */
  r.put('/me/profile', auth, requireVerified, validate(profileUpdateSchema), async (req, res) => {
    const body = req.body as ProfileUpdateBody;
    let user = currentUser(req);
    const formatsGiven = body.format_locale !== undefined || body.hour12 !== undefined || body.week_start !== undefined;
    let answer: { success: true; message: string; profile: object } = {
      success: true,
      message: body.intro === undefined && formatsGiven ? 'Date and time format updated!' : 'Introduction updated!',
      profile: {},
    };
    if (body.intro !== undefined) user = { ...user, intro: await host.updateIntro(deps, user, body.intro) };
    if (formatsGiven) user = await profile.updateFormatPrefs(deps, user, body);
    if (body.timezone !== undefined) answer = await profile.updateTimezone(deps, user, body.timezone);
    else answer.profile = presentProfile(user, deps.now());
    res.json({ ...answer, profile: { ...answer.profile, ...host.presentOwnHost(user) } });
  });

  r.use(avatarRouter(deps, limits));

  /**
   * PUT /api/me/profile/username — `{ username }` (4–15 letters, digits, hyphens).
   * 200 `{ success: true, message: 'Username updated successfully!', profile }`.
   * 409 `{ error: 'Username is already taken', code: 'username_taken' }` (case-insensitive; reserved names too);
   * 403 `{ error: 'Username changes are not currently allowed.', code: 'username_change_not_allowed' }` within 14 days
   * of the last change (setting the first username is always allowed); 422 format; 401.
   */
  r.put('/me/profile/username', auth, requireVerified, async (req, res) => {
    const raw = (req.body ?? {}) as { username?: unknown };
    const name = typeof raw.username === 'string' ? raw.username.trim() : raw.username;
    // A reserved name is "taken" (409), like a name someone else holds; other format problems are 422.
    if (typeof name === 'string' && usernameSchema.safeParse(name).error?.issues.every((i) => i.message === profile.USERNAME_TAKEN)) {
      res.status(409).json({ error: profile.USERNAME_TAKEN, code: 'username_taken', errors: { username: profile.USERNAME_TAKEN } });
      return;
    }
    const { username } = parse(usernameBodySchema, raw);
    res.json(await profile.setUsername(deps, currentUser(req), username));
  });

  /**
   * POST /api/me/profile/check-username — `{ username }`. 200 `{ available: boolean }`:
   * true when free or already the caller's own; false when taken (any case) or reserved.
   * 422 when the name is malformed (too short/long, bad characters). 401.
   */
  r.post('/me/profile/check-username', auth, async (req, res) => {
    const raw = (req.body ?? {}) as { username?: unknown };
    const name = typeof raw.username === 'string' ? raw.username.trim() : raw.username;
    const check = usernameSchema.safeParse(name);
    if (!check.success && check.error.issues.every((i) => i.message === profile.USERNAME_TAKEN)) {
      res.json({ available: false });
      return;
    }
    const { username } = parse(usernameBodySchema, raw);
    res.json({ available: await profile.isUsernameAvailable(deps, currentUser(req), username) });
  });

  /**
   * POST /api/me/profile/generate-email-text — `{ context?: string (trimmed, ≤ 200), timezone?: IANA zone
   * (default the owner's) }` (spec §7, §8; issue 4). Always 200 once valid:
   * `{ success: true, text, default: false }` — a friendly text listing up to 6 free windows of the next 14 days
   * in that zone, with the public link; `{ success: true, text: <default template>, default: true }` when there
   * is no free window; `{ success: false, text: <default template>, default: true,
   * error: 'Failed to generate email text. Using default.' }` when generation fails.
   * 422 `Context must be at most 200 characters` / `Unknown timezone`; 401; 403 unverified.
   */
  r.post('/me/profile/generate-email-text', auth, requireVerified, validate(generateEmailTextSchema), async (req, res) => {
    res.json(await generateEmailText(deps, currentUser(req), req.body));
  });

  return r;
}
