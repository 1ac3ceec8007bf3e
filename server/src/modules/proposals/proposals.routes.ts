/**
 * POST /api/public/:slug/proposals (visitor, no token) and GET/DELETE /api/me/proposals (owner):
 * visitors propose a time, the owner is told by e-mail and confirms by replying. Nothing is booked.
 */
import { Router } from 'express';
import { privateHeaders } from '../../http/private-headers.ts';
import { proposalSchema } from '@avail/shared/schemas/proposal.schema.ts';
import { authenticate, currentUser, requireVerified } from '../../http/authenticate.ts';
import type { Deps } from '../../http/deps.ts';
import { limiter, type RateLimits } from '../../http/rate-limit.ts';
import { validate } from '../../http/validate.ts';
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
    res.status(201).json(await proposals.createProposal(deps, String(req.params.slug), req.body, limits.proposalsPerOwner, req.query.key));
  });

  /**
   * GET /api/me/proposals — Bearer token, verified. 200 `{ proposals: [{ id, start, end, name, email, note,
   * visitor_timezone, created_at }] }`: the owner's proposals whose end is after now, soonest start first,
   * at most 50; instants ISO 8601 UTC `…Z`. 401; 403 unverified.
   */
  r.get('/me/proposals', ...owner, async (req, res) => {
    res.json(await proposals.listProposals(deps, currentUser(req).id));
  });

  /**
   * DELETE /api/me/proposals/:id — Bearer token, verified: the owner dismisses a proposal (hidden from the list; it
   * still counts toward the owner's daily cap). 204 (no body);
   * 404 `{ error: 'Proposal not found', code: 'not_found' }` when it is not one of the caller's. 401; 403.
   */
  r.delete('/me/proposals/:id', ...owner, async (req, res) => {
    await proposals.dismissProposal(deps, currentUser(req).id, String(req.params.id));
    res.status(204).end();
  });

  return r;
}
