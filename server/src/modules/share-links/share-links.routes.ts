/** /api/me/share-links — the owner's personal links (issue 14 item 2; share-links.service.ts). */
import { Router } from 'express';
import { plainLinkSchema, shareLinkSchema } from '@avail/shared/schemas/share-link.schema.ts';
import { authenticate, currentUser, requireVerified } from '../../http/authenticate.ts';
import type { Deps } from '../../http/deps.ts';
import { privateHeaders } from '../../http/private-headers.ts';
import { validate } from '../../http/validate.ts';
import * as links from './share-links.service.ts';

/** Router for personal links and the plain link's switch. All: 401 without a session, 403 unverified. */
export function shareLinksRouter(deps: Deps) {
  const r = Router();
  const owner = [authenticate(deps), requireVerified, privateHeaders];

  /**
   * GET /api/me/share-links → 200 `{ share_links: [{ id, label, url, expires_at, created_at, expired,
   * views, last_viewed_at }], plain_link_enabled }`, newest first; instants ISO 8601 UTC, expires_at
   * null = never; views = distinct visitors per owner-zone day, summed.
   */
  r.get('/me/share-links', ...owner, async (req, res) => {
    res.json(await links.listShareLinks(deps, currentUser(req)));
  });

  /**
   * POST /api/me/share-links `{ label: string (1–80), expires_at?: ISO instant | null }` → 201
   * `{ id, label, url, expires_at, created_at, expired: false, views: 0, last_viewed_at: null }`;
   * url = `${PUBLIC_BASE_URL}/{username}?key={token}` (256-bit token, stored hashed).
   * 422 `{ error, errors: { label | expires_at } }`; 409 `no_username` / `too_many_links`.
   */
  r.post('/me/share-links', ...owner, validate(shareLinkSchema), async (req, res) => {
    res.status(201).json(await links.createShareLink(deps, currentUser(req), req.body));
  });

  /**
   * PUT /api/me/share-links/plain-link `{ enabled: boolean }` → 200 `{ plain_link_enabled }`.
   * enabled false: `/{username}` without a valid key is a 404 like an unknown username. 422 on a bad body.
   */
  r.put('/me/share-links/plain-link', ...owner, validate(plainLinkSchema), async (req, res) => {
    res.json(await links.setPlainLink(deps, currentUser(req), req.body.enabled));
  });

  /** DELETE /api/me/share-links/:id → 204; the link's key is a 404 from the next request. 404 `{ error: 'Link not found' }`. */
  r.delete('/me/share-links/:id', ...owner, async (req, res) => {
    await links.revokeShareLink(deps, currentUser(req), String(req.params.id));
    res.status(204).end();
  });

  return r;
}
