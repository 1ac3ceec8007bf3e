/**
 * GET /api/health and GET /api/ready: no authentication, no rate limit (a load balancer polls
 * them), `Cache-Control: no-store`.
 */
import { Router, type Request, type Response } from 'express';
import type { Deps } from '../../http/deps.ts';
import { checkReadiness } from './health.service.ts';

export function healthRouter(deps: Deps): Router {
  const r = Router();

  /**
   * GET /api/health → 200 `{ status: 'ok' }`: the process is alive and answering. Touches no
   * database, so a slow database never makes an orchestrator restart a healthy process.
   */
  r.get('/health', (_req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok' });
  });

  /**
   * GET /api/ready → 200 `{ status: 'ready' }` when the database answers and all migrations are
   * applied; otherwise 503 `{ status: 'not_ready', reason }` (take the instance out of rotation).
   */
  r.get('/ready', async (_req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store');
    const readiness = await checkReadiness(deps.db);
    if (readiness.ready) res.json({ status: 'ready' });
    else res.status(503).json({ status: 'not_ready', reason: readiness.reason });
  });

  return r;
}
