/** /api/me/links and /api/me/analytics/links (product spec §3 "Link analytics entry", §7). */
import { Router } from 'express';
import { authenticate, currentUser, requireVerified } from '../../http/authenticate.ts';
import type { Deps } from '../../http/deps.ts';
import * as links from './links.service.ts';

/** Router for the owner's public link and its per-day view analytics. */
export function linksRouter(deps: Deps) {
  const r = Router();
  const auth = authenticate(deps);

  /**
   * GET /api/me/links — 200 `{ links: [{ id, slug, url, created_at }] }`: the owner's one public link
   * (`${PUBLIC_BASE_URL}/${username}`), or `[]` before a username is chosen. 401; 403 unverified.
   */
  r.get('/me/links', auth, requireVerified, (req, res) => {
    res.json(links.listLinks(deps, currentUser(req)));
  });

  /**
   * POST /api/me/links — body `{}` (ignored). 201 `{ link }`: the owner's current link (idempotent;
   * the link is the username). 409 `{ error: 'Choose a username first.', code: 'no_username' }`; 401; 403.
   */
  r.post('/me/links', auth, requireVerified, (req, res) => {
    res.status(201).json(links.currentLink(deps, currentUser(req)));
  });

  /**
   * GET /api/me/analytics/links?days=7|30|90 (default 30) — 200 `{ analytics: [{ id, link_id, date, views }],
   * days, total, previous_total }`: one entry per owner-zone date, oldest first, ending today, zeros
   * included; views = distinct visitors that day. 400 `{ error: 'days must be 7, 30 or 90', code: 'invalid_days' }`;
   * 401; 403.
   */
  r.get('/me/analytics/links', auth, requireVerified, async (req, res) => {
    const days = links.parseAnalyticsDays(req.query.days);
    res.json(await links.linkAnalytics(deps, currentUser(req), days));
  });

  return r;
}
