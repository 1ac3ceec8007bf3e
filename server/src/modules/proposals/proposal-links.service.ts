/**
 * The one-click links of the owner's proposal e-mail (issue 24): Confirm and Decline, usable
 * without signing in, single-use and valid for 7 days (PROPOSAL_LINK_TTL_MS).
 *
 * A token is `<payload>.<signature>`, both base64url: payload = JSON `{ p: proposal id,
 * a: 'confirm' | 'decline', e: expiry (UTC ms) }`, signature = HMAC-SHA256 over the payload text
 * with a key derived from AVAIL_SECRET_KEY for this purpose only. Forged or altered → 404 (the
 * link does not exist). Single use: the first use of either link of an e-mail sets
 * `proposals.link_used_at`; both are spent (the owner has decided). The link lives in the URL
 * fragment of the web page (`/proposal#t=…`), so it never reaches a server log; the page posts it.
 * The page asks once before acting (mail scanners open links).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { PROPOSAL_LINK_TTL_MS, type ProposalAction } from '@avail/shared/schemas/proposal.schema.ts';
import type { ProposalRow } from '../../db/schema.ts';
import type { Deps } from '../../http/deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { presentProposal } from './proposal-decisions.service.ts';
import { findOwnerContact, findProposalById, spendLinks, unspendLinks } from '../../store/proposals.repo.ts';

type LinkAction = Extract<ProposalAction, 'confirm' | 'decline'>;

/** The link page's error texts: 404 `invalid`, 410 `expired` / `used` (the `error` of those answers). */
export const LINK_MESSAGES = {
  invalid: 'This link is not valid.',
  expired: 'This link has expired. Open your dashboard to answer the proposal.',
  used: 'This link was already used. Open your dashboard to see the proposal.',
} as const;

function linkKey(deps: Deps): Buffer {
  return createHmac('sha256', deps.config.AVAIL_SECRET_KEY).update('avail:proposal-link:v1').digest();
}

function sign(deps: Deps, payload: string): string {
  return createHmac('sha256', linkKey(deps)).update(payload).digest('base64url');
}

/** A signed token for `action` on proposal `id`, valid until `expiresAt` (UTC ms). */
export function signProposalLink(deps: Deps, id: string, action: LinkAction, expiresAt: number): string {
  const payload = Buffer.from(JSON.stringify({ p: id, a: action, e: expiresAt })).toString('base64url');
  return `${payload}.${sign(deps, payload)}`;
}

/** The e-mail's two links: `{ confirmUrl, declineUrl }` at `${PUBLIC_BASE_URL}/proposal#t=<token>`, valid 7 days from now. */
export function proposalLinks(deps: Deps, id: string): { confirmUrl: string; declineUrl: string } {
  const exp = deps.now() + PROPOSAL_LINK_TTL_MS;
  const url = (a: LinkAction) => `${deps.config.PUBLIC_BASE_URL}/proposal#t=${signProposalLink(deps, id, a, exp)}`;
  return { confirmUrl: url('confirm'), declineUrl: url('decline') };
}

/** The verified payload of a token, or null when it is malformed or its signature does not match. */
function verifyProposalLink(deps: Deps, token: string): { id: string; action: LinkAction; expiresAt: number } | null {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(sign(deps, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const v = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { p?: unknown; a?: unknown; e?: unknown };
    if (typeof v.p !== 'string' || (v.a !== 'confirm' && v.a !== 'decline') || typeof v.e !== 'number') return null;
    return { id: v.p, action: v.a, expiresAt: v.e };
  } catch {
    return null;
  }
}

/**
 * The proposal behind a usable token.
 * @throws 404 `not_found` 'This link is not valid.' (forged, altered, unknown proposal);
 *   410 `expired` (past its 7 days) / `used` (a link of this e-mail was already used).
 */
export async function openProposalLink(deps: Deps, token: string): Promise<{ row: ProposalRow; action: LinkAction; ownerTimezone: string }> {
  const link = verifyProposalLink(deps, token);
  if (!link) throw notFound(LINK_MESSAGES.invalid);
  const row = await findProposalById(deps.db, link.id, deps.config.AVAIL_SECRET_KEY);
  if (!row) throw notFound(LINK_MESSAGES.invalid);
  if (row.link_used_at != null) throw new HttpError(410, 'used', LINK_MESSAGES.used);
  if (deps.now() >= link.expiresAt) throw new HttpError(410, 'expired', LINK_MESSAGES.expired);
  const owner = await findOwnerContact(deps.db, row.user_id);
  return { row, action: link.action, ownerTimezone: owner?.timezone ?? 'UTC' };
}

/** What the link page shows (ProposalLinkInfo['proposal']): no e-mail address, no calendar. */
export function linkProposalView(deps: Deps, row: ProposalRow) {
  const { id, start, end, name, note, visitor_timezone, status } = presentProposal(row, deps.config.AVAIL_SECRET_KEY);
  return { id, start, end, name, note, visitor_timezone, status };
}

/** Spends the links of proposal `row` (compare-and-set): @returns false when another use came first. */
export function spendProposalLinks(deps: Deps, row: ProposalRow): Promise<boolean> {
  return spendLinks(deps.db, row.id, deps.now());
}

/** Gives the links back after an action that failed and changed nothing (the owner may try again). */
export function restoreProposalLinks(deps: Deps, row: ProposalRow): Promise<void> {
  return unspendLinks(deps.db, row.id);
}

/** The proposal after its link was used (the act answer). @throws 404 when it vanished. */
export async function openProposalLinkAfterUse(deps: Deps, id: string): Promise<{ row: ProposalRow }> {
  const row = await findProposalById(deps.db, id, deps.config.AVAIL_SECRET_KEY);
  if (!row) throw notFound(LINK_MESSAGES.invalid);
  return { row };
}
