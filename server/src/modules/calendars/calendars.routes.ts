/**
 * /api/me/calendar/* — thin: authenticate, validate with the shared schemas, call the service.
 */
import { Router, type Request, type Response } from 'express';
import { appleConnectSchema, caldavConnectSchema, eventsQuerySchema, icsConnectSchema } from '@avail/shared/schemas/calendar.schema.ts';
import type { Deps } from '../../http/deps.ts';
import { authenticate, currentUser, requireVerified } from '../../http/authenticate.ts';
import { parse } from '../../http/validate.ts';
import type { SyncDeps } from '../sync/sync.service.ts';
import * as service from './calendars.service.ts';

export function calendarsRouter(deps: Deps & Pick<SyncDeps, 'calendarFetch'>) {
  const router = Router();
  const auth = [authenticate(deps), requireVerified];

  router.get('/me/calendar/connections', ...auth, async (req: Request, res: Response) => {
    res.json({ connections: await service.listConnectionViews(deps, currentUser(req).id) });
  });

  router.post('/me/calendar/ics/connect', ...auth, async (req: Request, res: Response) => {
    const body = parse(icsConnectSchema, req.body ?? {});
    res.status(201).json({ connection: await service.connectIcs(deps, currentUser(req), body) });
  });

  router.post('/me/calendar/caldav/connect', ...auth, async (req: Request, res: Response) => {
    const body = parse(caldavConnectSchema, req.body ?? {});
    res.status(201).json({ connection: await service.connectCaldav(deps, currentUser(req), body) });
  });

  router.post('/me/calendar/apple/connect', ...auth, async (req: Request, res: Response) => {
    const body = parse(appleConnectSchema, req.body ?? {});
    res.status(201).json({ connection: await service.connectApple(deps, currentUser(req), body) });
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

  router.post('/me/calendar/sync', ...auth, async (req: Request, res: Response) => {
    const connections = await service.syncNow(deps, currentUser(req).id);
    res.json({ success: true, message: 'Sync complete', connections });
  });

  router.get('/me/calendar/events', ...auth, async (req: Request, res: Response) => {
    const query = parse(eventsQuerySchema, req.query ?? {});
    res.json({ events: await service.listEventViews(deps, currentUser(req), query) });
  });

  return router;
}
