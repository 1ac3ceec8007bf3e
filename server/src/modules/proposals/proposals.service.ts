/**
 * Visitors' proposals (issue 4, issue 24): a visitor picks a free time on the owner's public page
 * and proposes it; the owner gets an e-mail (Reply-To the visitor) with one-click Confirm / Decline
 * links, and decides there, on the dashboard or in the tray (proposal-decisions.service.ts).
 * Nothing is booked until the owner confirms. The time must lie inside one free window of the same engine the public page
 * uses (public/owner-windows.service.ts), so a visitor can only propose what the page shows.
 */
import { formatInstant } from '@avail/shared/domain/free-windows.ts';
import { HORIZON_MS } from '@avail/shared/domain/public-range.ts';
import { parseIsoInstant, type ProposalBody } from '@avail/shared/schemas/proposal.schema.ts';
import type { Language } from '@avail/shared/i18n/languages.ts';
import type { Deps } from '../../http/deps.ts';
import { HttpError, notFound, tooManyRequests } from '../../http/errors.ts';
import type { LimitOptions } from '../../http/rate-limit.ts';
import { proposalEmail } from '../../mail/mailer.ts';
import { openPublicLink, ownerFreeWindows } from '../public/index.ts';
import * as repo from '../../store/proposals.repo.ts';
import { replicatedWrite } from '../../store/repl-clock.repo.ts';
import { presentProposal } from './proposal-decisions.service.ts';
import { proposalLinks } from './proposal-links.service.ts';

const PROPOSAL_MESSAGES = {
  notFree: 'That time is no longer free. Please pick another time.',
  tooMany: 'Too many proposals. Please try again later.',
  notFound: 'Proposal not found',
  confirmed: 'A confirmed meeting cannot be dismissed. Cancel it first.',
} as const;

/** The visitor's confirmation: `Your proposal was sent. <Owner name> will confirm by email.` (the spec's words; the invitation comes by e-mail once the owner confirms). */
function sentMessage(ownerName: string): string {
  return `Your proposal was sent. ${ownerName} will confirm by email.`;
}

/** Most proposals GET /me/proposals returns. */
const PROPOSALS_LIST_LIMIT = 50;

/** 422 `{ error: 'That time is no longer free. Please pick another time.', code: 'not_free' }`. */
function notFree() {
  return new HttpError(422, 'not_free', PROPOSAL_MESSAGES.notFree);
}

/**
 * Stores a visitor's proposal for the owner behind `slug` and e-mails the owner.
 * - unknown slug, or a link the visitor may not open (`key`: a personal link's token; the plain link
 *   switched off) → 404 `{ error: LINK_NOT_FOUND, code: 'not_found' }` (public.service.ts openPublicLink);
 * - `start` before now, `end` beyond the public horizon (now + 366 days), or `[start, end)` not
 *   inside one window of `ownerFreeWindows(deps, owner, start, end)` → 422 not_free;
 * - the owner already received `perOwner.limit` proposals within `perOwner.windowMs` (a database
 *   count, 30 per 24 h by default) → 429 `{ error: 'Too many proposals. Please try again later.' }`.
 * The owner's e-mail (proposalEmail: To the owner, Reply-To the visitor) is awaited; when it fails
 * the proposal stays stored (the dashboard lists it), a warning without the visitor's data is
 * logged and the answer is the same.
 * @returns `{ success: true, message: 'Your proposal was sent. <Owner name> will confirm by email.' }`
 *   — never the owner's address.
 */
export async function createProposal(deps: Deps, slug: string, input: ProposalBody, perOwner: LimitOptions, key?: unknown, headerLanguage: Language = 'en') {
  const now = deps.now();
  const { owner, shareLinkId } = await openPublicLink(deps, slug, key, now);
  const start = parseIsoInstant(input.start);
  const end = parseIsoInstant(input.end);
  if (start < now || end > now + HORIZON_MS) throw notFree();
  const windows = await ownerFreeWindows(deps, owner, start, end);
  if (!windows.some((w) => w.start <= start && end <= w.end)) throw notFree();

  if ((await repo.countProposalsSince(deps.db, owner.id, now - perOwner.windowMs)) >= perOwner.limit) {
    throw tooManyRequests(perOwner.message ?? PROPOSAL_MESSAGES.tooMany);
  }

  const row = {
    id: crypto.randomUUID(),
    user_id: owner.id,
    start_ms: start,
    end_ms: end,
    name: input.name,
    email: input.email,
    note: input.note,
    visitor_timezone: input.visitor_timezone,
    visitor_language: input.language ?? headerLanguage,
    created_at: now,
    share_link_id: shareLinkId,
  };
  await replicatedWrite(deps, owner.id, async (trx, stamp) => {
    await repo.insertProposal(trx, { ...row, updated_at: await stamp('proposals'), edited_at: now }, deps.config.AVAIL_SECRET_KEY);
  });

  try {
    const contact = await repo.findOwnerContact(deps.db, owner.id);
    if (!contact) throw new Error('owner vanished');
    await deps.mailer.send(
      proposalEmail({
        to: contact.email,
        ownerName: contact.name,
        ownerTimezone: owner.timezone,
        visitor: { name: row.name, email: row.email, note: row.note, timezone: row.visitor_timezone },
        start,
        end,
        publicBaseUrl: deps.config.PUBLIC_BASE_URL,
        ...proposalLinks(deps, row.id),
      }),
    );
  } catch (err) {
    // Only the error's name and code: a mail error message could echo the addresses or the body.
    const e = err as { name?: unknown; code?: unknown };
    deps.logger.warn(
      { userId: owner.id, proposalId: row.id, errName: String(e?.name ?? 'Error'), errCode: e?.code == null ? undefined : String(e.code) },
      'could not e-mail a proposal to its owner; it stays listed on the dashboard',
    );
  }
  return { success: true as const, message: sentMessage(owner.name) };
}

/** The owner's proposals (every status, not dismissed), newest first, at most 50 → `{ proposals: OwnerProposal[] }`. */
export async function listProposals(deps: Deps, userId: string) {
  const rows = await repo.listProposals(deps.db, userId, PROPOSALS_LIST_LIMIT, deps.config.AVAIL_SECRET_KEY);
  return { proposals: rows.map((r) => presentProposal(r, deps.config.AVAIL_SECRET_KEY)) };
}

/** Dismisses one of the owner's proposals (hidden from the list and deleted on devices, kept for the daily cap); 404 `{ error: 'Proposal not found', code: 'not_found' }` otherwise; 409 `confirmed` for a confirmed meeting (cancel it first). */
export async function dismissProposal(deps: Deps, userId: string, id: string): Promise<void> {
  const done = await replicatedWrite(deps, userId, async (trx, stamp, now) => repo.dismissProposal(trx, userId, id, now, await stamp('proposals')));
  if (done) return;
  const row = await repo.findProposal(deps.db, userId, id, deps.config.AVAIL_SECRET_KEY);
  if (row?.status === 'confirmed' && row.dismissed_at == null) throw new HttpError(409, 'confirmed', PROPOSAL_MESSAGES.confirmed);
  throw notFound(PROPOSAL_MESSAGES.notFound);
}
