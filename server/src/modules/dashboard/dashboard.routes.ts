/** /api/me/dashboard/stats */
import { Router } from 'express';
import { authenticate, currentUser, requireVerified } from '../../http/authenticate.ts';
import type { Deps } from '../../http/deps.ts';
import * as dashboard from './dashboard.service.ts';

/** Router for /api/me/dashboard/stats (product spec §3 "Dashboard data", §7). */
export function dashboardRouter(deps: Deps) {
  const r = Router();

  /**
   * GET /api/me/dashboard/stats — 200 `{ total_views, has_availability, this_week_events, user_slug,
   * views_last_7_days, views_previous_7_days, views_change_percent }`:
   * total_views = distinct visitor-days counted on the public availability endpoint, all time;
   * views_last_7_days / views_previous_7_days = the same count over the owner-zone dates today−6..today and
   * the 7 dates before; views_change_percent = rounded % change between them, null when the previous is 0;
   * has_availability = at least one weekly rule; this_week_events = the owner's calendar events overlapping the
   * current Monday-start week in the owner's zone; user_slug = the username (null until set). 401; 403.
   */
  r.get('/me/dashboard/stats', authenticate(deps), requireVerified, async (req, res) => {
    res.json(await dashboard.stats(deps, currentUser(req)));
  });

  return r;
}
