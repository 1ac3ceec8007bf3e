/** Router for /api/me/conflicts (mount under /api). */
import { Router } from 'express';
import { authenticate, currentUser, requireVerified } from '../../http/authenticate.ts';
import type { Deps } from '../../http/deps.ts';
import { privateHeaders } from '../../http/private-headers.ts';
import { recentConflicts } from './conflicts.service.ts';

export function conflictsRouter(deps: Deps) {
  const r = Router();
  /**
   * GET /api/me/conflicts → 200 `{ conflicts: ReplacedVersion[] }` (conflicts.service.ts): the
   * signed-in owner's versions replaced by another device's in the last 30 days, newest first,
   * at most 50. 401 without a session; 403 before e-mail verification. Owner-only, never cached.
   */
  r.get('/me/conflicts', authenticate(deps), requireVerified, privateHeaders, async (req, res) => {
    res.json({ conflicts: await recentConflicts(deps.db, currentUser(req).id, deps.now(), deps.config.AVAIL_SECRET_KEY) });
  });
  return r;
}
