/** POST /api/public/:slug/proposals (visitor) and GET /api/me/proposals (owner). Implementation pending. */
import { Router } from 'express';
import type { Deps } from '../../http/deps.ts';
import type { RateLimits } from '../../http/rate-limit.ts';

/** Router for visitors' proposed times, relayed to the owner by e-mail. */
export function proposalsRouter(_deps: Deps, _limits: RateLimits) {
  const r = Router();
  return r;
}
