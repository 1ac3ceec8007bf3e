/**
 * OAuth calendar routes (Google Calendar, Microsoft Outlook Calendar):
 *
 * - `POST /api/me/calendar/{google|microsoft}/connect` (bearer, verified) → 200 `{ auth_url }`;
 *   503 `{ error: <reason>, code: 'provider_unavailable' }` when the server has no client for it.
 * - `GET /api/oauth/{google|microsoft}/callback?code&state` (also `?error=access_denied&state`) →
 *   200 text/html 'Google Calendar connected. You can close this window.' or 400 text/html
 *   'Failed to connect Google Calendar. Please try again.' (Microsoft: 'Microsoft Outlook Calendar');
 *   both run `window.close()`. No bearer token: the single-use state row carries the owner.
 * - `GET /api/me/calendar/providers` (bearer) → `{ providers: { google: { available, reason },
 *   microsoft: { available, reason }, apple: { available: true, reason: null } } }`.
 *
 * Disconnect stays in calendars.routes.ts (`DELETE /api/me/calendar/{provider}/disconnect`).
 */
import { Router, type Request, type Response } from 'express';
import type { Deps } from '../../http/deps.ts';
import { authenticate, currentUser, requireVerified } from '../../http/authenticate.ts';
import { callbackPage, completeConnect, providersView, startConnect } from './oauth.service.ts';
import { allowInlineScriptOnce } from '../../http/security-headers.ts';

/** Router of the routes in the module comment; mount under /api. */
export function oauthRouter(deps: Deps) {
  const router = Router();
  const auth = [authenticate(deps), requireVerified];

  router.get('/me/calendar/providers', authenticate(deps), (_req: Request, res: Response) => {
    res.json({ providers: providersView(deps) });
  });

  for (const provider of ['google', 'microsoft'] as const) {
    router.post(`/me/calendar/${provider}/connect`, ...auth, async (req: Request, res: Response) => {
      res.json(await startConnect(deps, currentUser(req), provider));
    });

    router.get(`/oauth/${provider}/callback`, async (req: Request, res: Response) => {
      let ok = false;
      try {
        ok = (await completeConnect(deps, provider, req.query ?? {})).ok;
      } catch (err) {
        deps.logger.error({ provider, errName: (err as Error)?.name }, 'oauth callback crashed');
      }
      res.setHeader('Referrer-Policy', 'no-referrer');
      // The page's one inline script (postMessage + close) runs under a nonce; nothing else may.
      const nonce = allowInlineScriptOnce(res);
      res.status(ok ? 200 : 400).type('html').send(callbackPage(provider, ok, nonce));
    });
  }

  return router;
}
