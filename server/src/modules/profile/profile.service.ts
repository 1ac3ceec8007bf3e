/** Profile: time zone and username (unique case-insensitively, reserved names refused, 14-day change interval). */
import { TIMEZONE_GROUPS, isReservedUsername } from '@avail/shared/constants.ts';
import { canonicalIanaZone } from '@avail/shared/domain/zone-time.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { UserRow } from '../../db/schema.ts';
import type { Deps } from '../../http/deps.ts';
import { conflict, forbidden, unauthenticated, validationFailed } from '../../http/errors.ts';
import { daysUntilUsernameChange, presentProfile } from '../auth/index.ts';
import * as usersRepo from '../../store/users.repo.ts';
import { replicatedWrite } from '../../store/repl-clock.repo.ts';
import { rederiveZoneDependentBusy } from '../sync/index.ts';

export const USERNAME_TAKEN = 'Username is already taken';
const USERNAME_CHANGE_NOT_ALLOWED = 'Username changes are not currently allowed.';

/** The zones offered in onboarding/settings (spec §9), by lower-cased name. */
const OFFERED_ZONES = new Map(TIMEZONE_GROUPS.flatMap((g) => g.zones.map((z) => [z.toLowerCase(), z] as const)));

/**
 * Saves the time zone in its IANA spelling (`europe/brussels` → `Europe/Brussels`); when it changed,
 * floating/all-day busy time moves to the new zone before answering.
 * @returns `{ success: true, message: 'Timezone updated to {tz}!', profile }`.
 * @throws 422 `Unknown timezone` for a name the shared zone code does not accept as IANA.
 */
export async function updateTimezone(deps: Deps, user: UserRow, requested: string) {
  const now = deps.now();
  const canonical = canonicalIanaZone(requested);
  if (!canonical) throw validationFailed({ timezone: 'Unknown timezone' });
  // canonicalIanaZone only fixes the case of names ICU lists; the app's own offered spellings come first.
  const timezone = OFFERED_ZONES.get(requested.toLowerCase()) ?? canonical;
  let updatedAt = user.updated_at;
  if (timezone !== user.timezone) {
    await replicatedWrite(deps, user.id, async (trx, stamp) => {
      updatedAt = await stamp('profile');
      await usersRepo.updateUser(trx, user.id, { timezone, updated_at: updatedAt });
    });
    try {
      // Floating and all-day busy time follows the new zone at once (availability-semantics detail 14).
      await rederiveZoneDependentBusy(deps, user.id);
    } catch (err) {
      // The zone is saved; busy time keeps its previous positions until the next sync re-derives it.
      deps.logger.error({ err, userId: user.id }, 'could not re-derive zone-dependent busy time');
    }
  }
  const updated = { ...user, timezone, updated_at: updatedAt };
  return { success: true as const, message: `Timezone updated to ${timezone}!`, profile: presentProfile(updated, now) };
}

/** True when nobody else holds `username` (case-insensitive) and it is not reserved. Own current name → true. */
export async function isUsernameAvailable(deps: Deps, user: UserRow, username: string): Promise<boolean> {
  if (isReservedUsername(username)) return false;
  const holder = await usersRepo.findUserBySlug(deps.db, username);
  return !holder || holder.id === user.id;
}

/**
 * Sets or changes the username. The first set (no username yet, e.g. onboarding) is always allowed
 * and does not start the 14-day clock; a later change needs 14 days since the last change.
 * Re-submitting the current name (same case) is a no-op success.
 * The write is a compare-and-set on the row as read, so concurrent requests cannot both pass the
 * 14-day rule: the loser re-reads the account and is judged again (typically 403).
 * @returns `{ success: true, message: 'Username updated successfully!', profile }`.
 * @throws 403 `username_change_not_allowed`; 409 `username_taken` (any case, reserved names too).
 */
export async function setUsername(deps: Deps, user: UserRow, username: string) {
  let current = user;
  for (let attempt = 0; attempt < 3; attempt++) {
    const now = deps.now();
    if (current.username === username) {
      return { success: true as const, message: 'Username updated successfully!', profile: presentProfile(current, now) };
    }
    const isFirst = current.username == null;
    if (!isFirst && daysUntilUsernameChange(current, now) > 0) {
      throw forbidden(USERNAME_CHANGE_NOT_ALLOWED, 'username_change_not_allowed');
    }
    if (!(await isUsernameAvailable(deps, current, username))) {
      throw conflict(USERNAME_TAKEN, 'username_taken', { username: USERNAME_TAKEN });
    }
    const patch = {
      username,
      username_lower: username.toLowerCase(),
      username_changed_at: isFirst ? null : now,
      updated_at: now,
    };
    let written: boolean;
    try {
      written = await replicatedWrite(deps, current.id, async (trx, stamp) => {
        patch.updated_at = await stamp('profile');
        return usersRepo.updateUsernameIfUnchanged(trx, current.id, current, patch);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(USERNAME_TAKEN, 'username_taken', { username: USERNAME_TAKEN });
      throw err;
    }
    if (written) {
      const updated = { ...current, ...patch };
      return { success: true as const, message: 'Username updated successfully!', profile: presentProfile(updated, now) };
    }
    // Another request changed the username meanwhile: judge this one against the fresh row.
    const fresh = await usersRepo.findUserById(deps.db, current.id);
    if (!fresh) throw unauthenticated();
    current = fresh;
  }
  throw forbidden(USERNAME_CHANGE_NOT_ALLOWED, 'username_change_not_allowed');
}

/** The fields of PUT /api/me/profile that set the owner's date and time format (validated; undefined = unchanged). */
export interface FormatPrefsPatch {
  format_locale?: string | null;
  hour12?: boolean | null;
  week_start?: number | null;
}

/**
 * Saves the owner's date and time format (issue 22 item 3; already validated: canonical BCP 47 tag or
 * null, boolean or null, integer 0–6 or null). Only the given fields change; a profile stamp is taken
 * so the owner's other devices and open tabs hear of it. @returns the updated row (unchanged when
 * nothing differs).
 */
export async function updateFormatPrefs(deps: Deps, user: UserRow, patch: FormatPrefsPatch): Promise<UserRow> {
  const next = {
    format_locale: patch.format_locale === undefined ? (user.format_locale ?? null) : patch.format_locale,
    hour12: patch.hour12 === undefined ? (user.hour12 ?? null) : patch.hour12 === null ? null : patch.hour12 ? 1 : 0,
    week_start: patch.week_start === undefined ? (user.week_start ?? null) : patch.week_start,
  };
  const same = next.format_locale === (user.format_locale ?? null) && next.hour12 === (user.hour12 ?? null) && next.week_start === (user.week_start ?? null);
  if (same) return user;
  let updatedAt = user.updated_at;
  await replicatedWrite(deps, user.id, async (trx, stamp) => {
    updatedAt = await stamp('profile');
    await usersRepo.updateUser(trx, user.id, { ...next, updated_at: updatedAt });
  });
  return { ...user, ...next, updated_at: updatedAt };
}
