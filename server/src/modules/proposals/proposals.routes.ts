/**
 * POST /api/public/:slug/proposals (visitor, no token); the owner's GET/DELETE /api/me/proposals,
 * POST …/{id}/confirm | decline | cancel, GET/PUT /api/me/proposal-settings; the e-mail's one-click
 * links POST /api/proposal-links/inspect | act (no sign-in). Nothing is booked until the owner confirms.
 */
import { Router } from 'express';
import { privateHeaders } from '../../http/private-headers.ts';
import { LANGUAGE_COOKIE, cookieValue, parseAcceptLanguage, pickLocale } from '@avail/shared/i18n/languages.ts';
import {
  confirmProposalSchema,
  proposalLinkSchema,
  proposalMessageSchema,
  proposalSchema,
  proposalSettingsSchema,
} from '@avail/shared/schemas/proposal.schema.ts';
import { authenticate, currentUser, requireVerified } from '../../http/authenticate.ts';
import type { Deps } from '../../http/deps.ts';
import { limiter, type RateLimits } from '../../http/rate-limit.ts';
import { validate } from '../../http/validate.ts';
import { HttpError } from '../../http/errors.ts';
import * as decisions from './proposal-decisions.service.ts';
import * as links from './proposal-links.service.ts';
import * as settings from './proposal-settings.service.ts';
import * as proposals from './proposals.service.ts';


/** Router for visitors' proposed times, relayed to the owner by e-mail (issue 4). */
export function proposalsRouter(deps: Deps, limits: RateLimits) {
  const r = Router();
  const owner = [authenticate(deps), requireVerified];

  /**
   * POST /api/public/:slug/proposals — no token. Body `{ start, end, name, email, note?, visitor_timezone }`:
   * start/end ISO 8601 instants with Z or an offset, 15–480 minutes apart; name 1–100 chars; email ≤ 254;
   * note ≤ 1000; visitor_timezone an IANA zone (shared/src/schemas/proposal.schema.ts).
   * 201 `{ success: true, message: 'Your proposal was sent. <Owner name> will confirm by email.' }` — stored,
   * and the owner is e-mailed (To the owner, Reply-To the visitor); the body never carries the owner's address.
   * `?key=`: a personal link's token (issue 14), as on the page.
   * 404 `{ error: 'This availability link could not be found.', code: 'not_found' }` (unknown slug, or a
   * link the visitor may not open: an expired or revoked key, the plain link switched off);
   * 422 `{ error: 'That time is no longer free. Please pick another time.', code: 'not_free' }` (in the past, or
   * not inside one free window of the public page's engine); 422 validation `{ error, code: 'validation_failed', errors }`;
   * 429 `{ error: 'Too many proposals. Please try again later.', code: 'rate_limited' }` beyond 5 requests per IP
   * per hour (every request counts) or 30 proposals per owner per 24 h.
   * Headers: Cache-Control: no-store, X-Robots-Tag: noindex, Referrer-Policy: no-referrer.
   */
  r.post('/public/:slug/proposals', privateHeaders, limiter(limits.proposalsPerIp), validate(proposalSchema), async (req, res) => {
    const localePrefs = pickLocale(parseAcceptLanguage(req.get('accept-language')), cookieValue(req.get('cookie'), LANGUAGE_COOKIE));
    res.status(201).json(await proposals.createProposal(deps, String(req.params.slug), req.body, limits.proposalsPerOwner, req.query.key, localePrefs.language));
  });

  /**
   * GET /api/me/proposals — Bearer token, verified. 200 `{ proposals: OwnerProposal[] }` (shared
   * proposal.schema.ts: id, start, end, name, email, note, visitor_timezone, visitor_language, created_at,
   * status, uid, sequence, decided_at, message, calendar, pending_action, error): every status, not
   * dismissed, newest first, at most 50; instants ISO 8601 UTC `…Z`. 401; 403 unverified.
   */
  r.get('/me/proposals', ...owner, async (req, res) => {
    res.json(await proposals.listProposals(deps, currentUser(req).id));
  });

  /**
   * DELETE /api/me/proposals/:id — Bearer token, verified: the owner dismisses a proposal (hidden from the list; it
   * still counts toward the owner's daily cap). 204 (no body);
   * 404 `{ error: 'Proposal not found', code: 'not_found' }` when it is not one of the caller's; 409 `confirmed`
   * 'A confirmed meeting cannot be dismissed. Cancel it first.'. 401; 403.
   */
  r.delete('/me/proposals/:id', ...owner, async (req, res) => {
    await proposals.dismissProposal(deps, currentUser(req).id, String(req.params.id));
    res.status(204).end();
  });

  /**
   * POST /api/me/proposals/:id/confirm — body `{ target?: { connection_id, calendar_id } }`. 200 `{ proposal }`
   * with `status: 'confirmed'` and `uid`: the event is in the calendar (CalDAV PUT, Google events.insert,
   * Graph POST …/events), the visitor is invited (iMIP, RFC 6047), the time is busy on the public page.
   * Idempotent (a confirmed proposal answers as is). 404; 409 `already_decided` | `not_free` (the reason) |
   * `calendar_read_only`; 422 `errors.target`; 502 `calendar_auth` | `calendar_unavailable` (still pending).
   */
  r.post('/me/proposals/:id/confirm', ...owner, validate(confirmProposalSchema), async (req, res) => {
    res.json({ proposal: await decisions.confirmProposal(deps, currentUser(req).id, String(req.params.id), req.body.target) });
  });

  /**
   * POST /api/me/proposals/:id/decline — body `{ message? }` (≤ 1000). 200 `{ proposal }` `status: 'declined'`;
   * the visitor gets the message and the next three free windows. Idempotent. 404; 409 `already_decided`; 422.
   */
  r.post('/me/proposals/:id/decline', ...owner, validate(proposalMessageSchema), async (req, res) => {
    res.json({ proposal: await decisions.declineProposal(deps, currentUser(req).id, String(req.params.id), req.body.message) });
  });

  /**
   * POST /api/me/proposals/:id/cancel — body `{ message? }`; confirmed only. 200 `{ proposal }` `status:
   * 'cancelled'`: the event is deleted from the calendar, the visitor gets METHOD:CANCEL (SEQUENCE + 1),
   * the time is free again. Idempotent. 404; 409 `not_confirmed`; 502 `calendar_auth` | `calendar_unavailable`.
   */
  r.post('/me/proposals/:id/cancel', ...owner, validate(proposalMessageSchema), async (req, res) => {
    res.json({ proposal: await decisions.cancelProposal(deps, currentUser(req).id, String(req.params.id), req.body.message) });
  });

  /**
   * GET /api/me/proposal-settings — 200 `{ target, effective, calendars }` (ProposalSettings): where confirmed
   * meetings go and the writable calendars to choose from (oldest connection first).
   */
  r.get('/me/proposal-settings', ...owner, async (req, res) => {
    res.json(await settings.getProposalSettings(deps, currentUser(req).id));
  });

  /** PUT /api/me/proposal-settings — body `{ target: { connection_id, calendar_id } | null }`. 200 as GET; 422 `errors.target`. */
  r.put('/me/proposal-settings', ...owner, validate(proposalSettingsSchema), async (req, res) => {
    res.json(await settings.setProposalSettings(deps, currentUser(req).id, req.body.target));
  });

  /**
   * POST /api/proposal-links/inspect — no sign-in; body `{ token }` (the e-mail link's fragment). 200
   * `{ action: 'confirm' | 'decline', owner_timezone, proposal: { id, start, end, name, note, visitor_timezone,
   * status } }`. Nothing changes. 404 'This link is not valid.' (forged, altered, unknown); 410 `expired` | `used`.
   * 60 requests per IP per 15 minutes (429). Cache-Control: no-store, X-Robots-Tag: noindex.
   */
  r.post('/proposal-links/inspect', privateHeaders, limiter(limits.proposalLinksPerIp), validate(proposalLinkSchema), async (req, res) => {
    const { row, action, ownerTimezone } = await links.openProposalLink(deps, req.body.token);
    res.json({ action, owner_timezone: ownerTimezone, proposal: links.linkProposalView(deps, row) });
  });

  /**
   * POST /api/proposal-links/act — no sign-in; body `{ token, message? }`. Carries out the link's action once
   * (both links of the e-mail are then spent): 200 `{ proposal }` as inspect, with the new status. Errors as
   * inspect, plus those of confirm/decline (409 `not_free`, `already_decided`; 502): the links stay usable then.
   */
  r.post('/proposal-links/act', privateHeaders, limiter(limits.proposalLinksPerIp), validate(proposalLinkSchema), async (req, res) => {
    const { row, action } = await links.openProposalLink(deps, req.body.token);
    if (!(await links.spendProposalLinks(deps, row))) throw new HttpError(410, 'used', links.LINK_MESSAGES.used);
    try {
      if (action === 'confirm') await decisions.confirmProposal(deps, row.user_id, row.id);
      else await decisions.declineProposal(deps, row.user_id, row.id, req.body.message);
    } catch (err) {
      await links.restoreProposalLinks(deps, row);
      throw err;
    }
    const { row: after } = await links.openProposalLinkAfterUse(deps, row.id);
    res.json({ proposal: links.linkProposalView(deps, after) });
  });

  return r;
}
