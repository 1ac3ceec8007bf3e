/** /api/me/links and /api/me/analytics/links (spec §7). Implementation pending. */
import { Router } from 'express';
import type { Deps } from '../../http/deps.ts';

/** Router for the owner's public links and their per-day view analytics. */
export function linksRouter(_deps: Deps) {
  const r = Router();
  return r;
}
