/**
 * Generated e-mail text (product spec §7 POST /me/profile/generate-email-text, §8 failure message;
 * issue 4: a friendly message listing the owner's next free windows in a zone the owner picks).
 */
import { composeEmailText, defaultEmailText } from '@avail/shared/email-text.ts';
import { DAY_MS } from '@avail/shared/domain/zone-time.ts';
import type { GenerateEmailTextBody } from '@avail/shared/schemas/profile.schema.ts';
import type { UserRow } from '../../db/schema.ts';
import type { Deps } from '../../http/deps.ts';
import { ownerFreeWindows } from '../public/index.ts';

/** Spec §8, verbatim. */
const EMAIL_TEXT_FAILED = 'Failed to generate email text. Using default.';
/** How far ahead the listed free windows are looked for: 14 days from now. */
const EMAIL_TEXT_HORIZON_MS = 14 * DAY_MS;

/** The answer; the web's `GeneratedEmailText` (shared/src/api/api-client.ts, outside the server build). */
export interface GeneratedEmailText {
  success: boolean;
  text: string;
  /** True when `text` is the default template. */
  default: boolean;
  error?: string;
}

/**
 * Writes the owner's e-mail text. Windows = ownerFreeWindows(owner, now, now + 14 days) (UTC ms),
 * listed (≤ 6) in `body.timezone` or else the owner's zone; link = `${PUBLIC_BASE_URL}/${username ?? 'username'}`;
 * signed with the owner's name.
 * @returns `{ success: true, text, default: false }`;
 *   no free window in the next 14 days → `{ success: true, text: defaultEmailText(name, link), default: true }`;
 *   anything throwing while generating → `{ success: false, text: defaultEmailText(name, link), default: true,
 *   error: 'Failed to generate email text. Using default.' }` (only the error's name is logged). Never throws.
 */
export async function generateEmailText(deps: Deps, user: UserRow, body: GenerateEmailTextBody): Promise<GeneratedEmailText> {
  const link = `${deps.config.PUBLIC_BASE_URL}/${user.username ?? 'username'}`;
  const fallback = defaultEmailText(user.name, link);
  try {
    const now = deps.now();
    const windows = await ownerFreeWindows(deps, user, now, now + EMAIL_TEXT_HORIZON_MS);
    if (windows.length === 0) return { success: true, text: fallback, default: true };
    const text = composeEmailText({
      name: user.name,
      link,
      context: body.context,
      timezone: body.timezone ?? user.timezone,
      windows,
    });
    return { success: true, text, default: false };
  } catch (err) {
    // The name only: a message could carry row values or the owner's data.
    deps.logger.warn({ errName: err instanceof Error ? err.name : typeof err, userId: user.id }, 'e-mail text generation failed');
    return { success: false, text: fallback, default: true, error: EMAIL_TEXT_FAILED };
  }
}
