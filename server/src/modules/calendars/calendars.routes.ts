/**
 * /api/me/calendar/* — thin: authenticate, validate with the shared schemas, call the service.
 */
import { Router, type Request, type Response } from 'express';
import { appleConnectSchema, busyRulesSchema, calendarSwitchesSchema, caldavConnectSchema, eventsQuerySchema, icsConnectSchema } from '@avail/shared/schemas/calendar.schema.ts';
import type { Deps } from '../../http/deps.ts';
import { authenticate, currentUser, requireVerified } from '../../http/authenticate.ts';
import { parse, validate } from '../../http/validate.ts';
import type { SyncDeps } from '../sync/index.ts';
import * as connect from './calendar-connect.service.ts';
import * as events from './calendar-events.service.ts';
import * as service from './calendars.service.ts';

export function calendarsRouter(deps: Deps & Pick<SyncDeps, 'calendarFetch'>) {
  const router = Router();
  const auth = [authenticate(deps), requireVerified];

  router.get('/me/calendar/connections', ...auth, async (req: Request, res: Response) => {
    res.json({ connections: await service.listConnectionViews(deps, currentUser(req).id) });
  });

  router.post('/me/calendar/ics/connect', ...auth, async (req: Request, res: Response) => {
    const body = parse(icsConnectSchema, req.body ?? {});
    res.status(201).json({ connection: await connect.connectIcs(deps, currentUser(req), body) });
  });

  router.post('/me/calendar/caldav/connect', ...auth, async (req: Request, res: Response) => {
    const body = parse(caldavConnectSchema, req.body ?? {});
    res.status(201).json({ connection: await connect.connectCaldav(deps, currentUser(req), body) });
  });

  router.post('/me/calendar/apple/connect', ...auth, async (req: Request, res: Response) => {
    const body = parse(appleConnectSchema, req.body ?? {});
    res.status(201).json({ connection: await connect.connectApple(deps, currentUser(req), body) });
  });

  // POST /me/calendar/{google|microsoft}/connect: modules/oauth/oauth.routes.ts.

  for (const provider of ['google', 'microsoft', 'apple'] as const) {
    router.delete(`/me/calendar/${provider}/disconnect`, ...auth, async (req: Request, res: Response) => {
      await service.disconnectProvider(deps, currentUser(req).id, provider);
      res.json({ success: true, message: 'Calendar disconnected' });
    });
  }

  router.delete('/me/calendar/connections/:id', ...auth, async (req: Request, res: Response) => {
    await service.deleteConnection(deps, currentUser(req).id, String(req.params.id));
    res.json({ success: true, message: 'Calendar disconnected' });
  });

  /**
   * PUT /api/me/calendar/connections/:id/busy-rules — body `{ all_day, tentative, unanswered: 'busy' | 'free',
   * free_keywords: string[] }` (issue 14 item 4; docs/busy-rules.md). 200 the connection as listed
   * (with `busy_rules`), re-derived from its stored calendar data before the answer, so the public page
   * follows at once. 422 `{ error, errors }` on a bad body; 404 another owner's or no connection; 401.
   */
  router.put('/me/calendar/connections/:id/busy-rules', ...auth, validate(busyRulesSchema), async (req: Request, res: Response) => {
    res.json({ connection: await service.setBusyRules(deps, currentUser(req).id, String(req.params.id), req.body) });
  });

  /**
   * GET /api/me/calendar/connections/:id/calendars — the connection's calendars with their switches
   * (issue 23): 200 `{ calendars: [{ id, name, color?, busy, read_only, new }] }` (names as the
   * provider shows them; empty before the first sync). 404 another owner's or no connection; 401.
   * Cache-Control: no-store (calendar names are owner-only).
   */
  router.get('/me/calendar/connections/:id/calendars', ...auth, async (req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await service.listConnectionCalendars(deps, currentUser(req).id, String(req.params.id)));
  });

  /**
   * PUT /api/me/calendar/connections/:id/calendars — body `{ calendars: [{ id, busy }] }`: which
   * calendars make the owner busy. 200 `{ calendars, connection }`, the connection re-derived from
   * its stored data before the answer, so the public page follows at once (as busy rules do). 422
   * `{ error, errors }` on a bad body or an id the connection does not list (nothing stored); 404; 401.
   */
  router.put('/me/calendar/connections/:id/calendars', ...auth, validate(calendarSwitchesSchema), async (req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await service.setConnectionCalendars(deps, currentUser(req).id, String(req.params.id), req.body));
  });

  /**
   * GET /api/me/calendar/events/:id/source — owner-only "why is this time blocked?" (issue 14 item 6):
   * 200 `{ event: { id, title, uid, start, end, all_day, is_busy, origin: 'single'|'recurring'|'override'|null },
   * calendar, connection: { id, name, provider, status, last_synced_at, last_error, warnings, busy_rules } }`,
   * instants ISO 8601 UTC. 404 `{ error: 'Event not found' }` for another owner's or no event; 401; 403.
   * Headers: Cache-Control: no-store (titles).
   */
  router.get('/me/calendar/events/:id/source', ...auth, async (req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await events.eventSource(deps, currentUser(req).id, String(req.params.id)));
  });

  /**
   * POST /api/me/calendar/sync — Sync Now: every connection synced at once. 200
   * `{ success, message, connections, results: [{ connection_id, name, provider, ok, error }] }`;
   * `success` false (message 'Failed to sync calendars. Please try again.') when any sync failed,
   * each failure named with its reason. 401; 403 unverified.
   */
  router.post('/me/calendar/sync', ...auth, async (req: Request, res: Response) => {
    res.json(await service.syncNow(deps, currentUser(req).id));
  });

  router.get('/me/calendar/events', ...auth, async (req: Request, res: Response) => {
    const query = parse(eventsQuerySchema, req.query ?? {});
    res.json({ events: await events.listEventViews(deps, currentUser(req), query) });
  });

  return router;
}
