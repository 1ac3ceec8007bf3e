/**
 * Personal links (issue 14 item 2): links the owner gives one person or group, each with its own
 * unguessable token, label, optional expiry and view count, revocable one by one; and the switch
 * that turns the plain `/{username}` link off so only personal links open the page.
 *
 * A personal link is `${PUBLIC_BASE_URL}/${username}?key=${token}`; the public page passes the key
 * on to the public API (availability, free/busy feed, proposals). The token is 32 random bytes
 * (256 bits) in base64url; the database keeps its sha256 (lookup) and a sealed copy (the owner's
 * copy button), never the token in the clear. An expired, revoked or foreign key answers exactly
 * like an unknown username (public.service.ts), so a link gives no hint it ever existed.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { formatInstant } from '@avail/shared/domain/free-windows.ts';
import { SHARE_LINKS_MAX, type ShareLink, type ShareLinkBody, type ShareLinks } from '@avail/shared/schemas/share-link.schema.ts';
import type { UserRow } from '../../db/schema.ts';
import type { Deps } from '../../http/deps.ts';
import { HttpError, notFound, validationFailed } from '../../http/errors.ts';
import { openContent, sealContent } from '../../lib/crypto.ts';
import { changeBusFor } from '../../store/change-bus.ts';
import * as repo from './share-links.repo.ts';

const SHARE_LINK_NOT_FOUND = 'Link not found';
const SHARE_LINK_EXPIRY_PAST = 'The expiry must be in the future.';
const SHARE_LINKS_TOO_MANY = `You can keep at most ${SHARE_LINKS_MAX} personal links. Revoke one first.`;
const NEEDS_USERNAME = 'Choose a username first.';

/** sha256 hex of a token: the only form a token is looked up by. */
function hashShareToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

function shareUrl(deps: Deps, user: Pick<UserRow, 'username'>, token: string): string | null {
  return user.username ? `${deps.config.PUBLIC_BASE_URL}/${user.username}?key=${token}` : null;
}

/**
 * GET /api/me/share-links: `{ share_links: ShareLink[] (newest first), plain_link_enabled }`.
 */
export async function listShareLinks(deps: Deps, user: UserRow): Promise<ShareLinks> {
  const now = deps.now();
  const rows = await repo.listForUser(deps.db, user.id);
  return {
    share_links: rows.map((r) => ({
      id: r.id,
      label: openContent(r.label, deps.config.AVAIL_SECRET_KEY),
      url: shareUrl(deps, user, openContent(r.token_sealed, deps.config.AVAIL_SECRET_KEY)),
      expires_at: r.expires_at === null ? null : formatInstant(r.expires_at),
      created_at: formatInstant(r.created_at),
      expired: r.expires_at !== null && r.expires_at <= now,
      views: r.views,
      last_viewed_at: r.last_viewed_at === null ? null : formatInstant(r.last_viewed_at),
    })),
    plain_link_enabled: user.plain_link_off !== 1,
  };
}

/**
 * POST /api/me/share-links `{ label, expires_at? }` → the new link (ShareLink, views 0).
 * @throws 409 `no_username` without a username (the URL is built on it); 422 `{ errors: { expires_at } }`
 *   when expires_at is not after now; 409 `too_many_links` beyond SHARE_LINKS_MAX links.
 */
export async function createShareLink(deps: Deps, user: UserRow, body: ShareLinkBody): Promise<ShareLink> {
  if (!user.username) throw new HttpError(409, 'no_username', NEEDS_USERNAME);
  const now = deps.now();
  if (body.expires_at !== null && body.expires_at <= now) throw validationFailed({ expires_at: SHARE_LINK_EXPIRY_PAST }, SHARE_LINK_EXPIRY_PAST);
  if ((await repo.countForUser(deps.db, user.id)) >= SHARE_LINKS_MAX) throw new HttpError(409, 'too_many_links', SHARE_LINKS_TOO_MANY);
  const token = randomBytes(32).toString('base64url');
  const row = {
    id: randomUUID(),
    user_id: user.id,
    // The label often names the person the link is for: sealed at rest like the token (issue 26).
    label: sealContent(body.label, deps.config.AVAIL_SECRET_KEY),
    token_hash: hashShareToken(token),
    token_sealed: sealContent(token, deps.config.AVAIL_SECRET_KEY),
    expires_at: body.expires_at,
    created_at: now,
  };
  await repo.insert(deps.db, row);
  return {
    id: row.id,
    label: body.label,
    url: shareUrl(deps, user, token),
    expires_at: row.expires_at === null ? null : formatInstant(row.expires_at),
    created_at: formatInstant(now),
    expired: false,
    views: 0,
    last_viewed_at: null,
  };
}

/**
 * DELETE /api/me/share-links/:id: revokes the link at once (row and views deleted; the very next
 * request with its key is a 404). @throws 404 `{ error: 'Link not found' }` for another owner's or no link.
 */
export async function revokeShareLink(deps: Deps, user: UserRow, id: string): Promise<void> {
  if (!(await repo.deleteForUser(deps.db, user.id, id))) throw notFound(SHARE_LINK_NOT_FOUND);
}

/**
 * PUT /api/me/share-links/plain-link `{ enabled }` → `{ plain_link_enabled }`. Off: `/{username}`
 * without a valid key answers 404 like an unknown username, on every instance from the next
 * request (the change bus drops the cached owner).
 */
export async function setPlainLink(deps: Deps, user: UserRow, enabled: boolean): Promise<{ plain_link_enabled: boolean }> {
  await repo.setPlainLinkOff(deps.db, user.id, !enabled);
  await changeBusFor(deps.db).publish(user.id, [], deps.logger);
  return { plain_link_enabled: enabled };
}

/**
 * The personal link a visitor's `key` opens for owner `userId`, or null when the key is unknown,
 * belongs to another owner, or expired at or before `now` (UTC ms). Looked up by the token's hash.
 */
export async function openShareLink(deps: Deps, userId: string, key: string, now: number): Promise<{ id: string } | null> {
  if (key.length === 0 || key.length > 128) return null;
  const link = await repo.findByTokenHash(deps.db, hashShareToken(key));
  if (!link || link.user_id !== userId) return null;
  if (link.expires_at !== null && Number(link.expires_at) <= now) return null;
  return { id: link.id };
}

/**
 * The page URL (`{PUBLIC_BASE_URL}/{username}?key=…`) of personal link `linkId` of `user` while it
 * still opens at `now` (UTC ms), else null (revoked, expired, no username). Lets a later e-mail to
 * the visitor (a declined proposal's next free times, issue 24) link the way they came in.
 */
export async function liveShareLinkUrl(deps: Deps, user: Pick<UserRow, 'id' | 'username'>, linkId: string, now: number): Promise<string | null> {
  const link = await repo.findForUser(deps.db, user.id, linkId);
  if (!link || (link.expires_at !== null && Number(link.expires_at) <= now)) return null;
  return shareUrl(deps, user, openContent(link.token_sealed, deps.config.AVAIL_SECRET_KEY));
}

/** Counts one view of personal link `linkId` per visitor per owner-zone `day`; a failed write is logged, never thrown. */
export async function countShareLinkView(deps: Deps, linkId: string, day: string, visitorHash: string, now: number): Promise<void> {
  try {
    await repo.recordView(deps.db, { link_id: linkId, day, visitor_hash: visitorHash, created_at: now });
  } catch (err) {
    // The link was revoked between the lookup and this write (foreign key): nothing to count.
    deps.logger.debug({ err }, 'personal link view not recorded');
  }
}
