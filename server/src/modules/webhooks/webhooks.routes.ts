/**
 * Provider webhooks (no authentication; the channel token is the proof). They only SCHEDULE a
 * sync (debounced 500 ms per connection, sync-queue.ts) and answer at once; a sync never runs
 * inside the request. Never logged: tokens, clientState, bodies, titles — only counts and ids.
 *
 * - `POST /api/webhooks/google` (https://developers.google.com/calendar/api/guides/push#receiving-notifications):
 *   headers X-Goog-Channel-ID, X-Goog-Channel-Token, X-Goog-Resource-State. Unknown channel → 200
 *   (nothing else happens); token mismatch (sha256 + crypto.timingSafeEqual) → 401, nothing
 *   scheduled; state `sync` (the channel's first message) → 200 no-op; otherwise a sync of the
 *   channel's connection is scheduled → 200.
 * - `POST /api/webhooks/microsoft` (https://learn.microsoft.com/graph/change-notifications-delivery-webhooks):
 *   `?validationToken=…` → 200 text/plain with exactly the token (subscription validation);
 *   notifications `{ value: [{ subscriptionId, clientState, … }] }` → each known subscription with
 *   a matching clientState (constant time) schedules its connection's sync; bad entries are
 *   ignored and counted in the log → 202.
 * - `POST /api/webhooks/microsoft/lifecycle`: Graph lifecycle events (see the route).
 */
import { Router, type Request, type Response } from 'express';
import type { PushChannelRow } from '../../db/schema.ts';
import type { Deps } from '../../http/deps.ts';
import { limiter, type RateLimits } from '../../http/rate-limit.ts';
import { scheduleSync } from '../sync/index.ts';
import { checkNotificationChannel, renewChannelNow, replaceRemovedChannel } from '../oauth/index.ts';

/**
 * The push channel a Graph notification item names (`subscriptionId`), when its `clientState`
 * matches the channel's stored hash (constant time); otherwise null, counted in `counts` as
 * `malformed` (no subscriptionId), `unknown` (no such channel) or `badClientState`.
 * https://learn.microsoft.com/graph/change-notifications-delivery-webhooks#notification-payload
 */
async function verifiedGraphChannel(
  deps: Deps,
  item: unknown,
  counts: { malformed: number; unknown: number; badClientState: number },
): Promise<PushChannelRow | null> {
  const n = item as { subscriptionId?: unknown; clientState?: unknown } | null;
  if (!n || typeof n.subscriptionId !== 'string') {
    counts.malformed++;
    return null;
  }
  const checked = await checkNotificationChannel(deps, 'microsoft', n.subscriptionId, typeof n.clientState === 'string' ? n.clientState : undefined);
  if ('unknown' in checked) {
    counts.unknown++;
    return null;
  }
  if ('badToken' in checked) {
    counts.badClientState++;
    return null;
  }
  return checked.channel;
}

/**
 * Router of the two webhook endpoints (module comment); mount under /api, no authentication.
 * Rate-limited per IP (`limits.webhooksPerIp`, default 600/min; 429 beyond): providers stay far
 * below it, a flood of forged notifications does not reach the database.
 */
export function webhooksRouter(deps: Deps, limits: Pick<RateLimits, 'webhooksPerIp'>) {
  const router = Router();
  router.use('/webhooks', limiter(limits.webhooksPerIp));

  router.post('/webhooks/google', async (req: Request, res: Response) => {
    const channelId = req.get('X-Goog-Channel-ID');
    const token = req.get('X-Goog-Channel-Token');
    const state = req.get('X-Goog-Resource-State');
    const checked = channelId ? await checkNotificationChannel(deps, 'google', channelId, token) : ({ unknown: true } as const);
    if ('unknown' in checked) {
      deps.logger.info({ provider: 'google', known: false }, 'webhook for an unknown channel');
      res.status(200).end();
      return;
    }
    if ('badToken' in checked) {
      deps.logger.warn({ provider: 'google', connectionId: checked.badToken.connection_id }, 'webhook with a bad channel token');
      res.status(401).json({ error: 'Invalid channel token', code: 'invalid_channel_token' });
      return;
    }
    const { channel } = checked;
    if (state === 'sync') {
      res.status(200).end();
      return;
    }
    scheduleSync(deps, channel.connection_id);
    deps.logger.debug({ provider: 'google', connectionId: channel.connection_id, state }, 'webhook: sync scheduled');
    res.status(200).end();
  });

  router.post('/webhooks/microsoft', async (req: Request, res: Response) => {
    const validationToken = req.query.validationToken;
    if (typeof validationToken === 'string') {
      res.status(200).type('text/plain').send(validationToken);
      return;
    }
    const value: unknown[] = Array.isArray((req.body as { value?: unknown })?.value) ? (req.body as { value: unknown[] }).value : [];
    const counts = { received: value.length, scheduled: 0, unknown: 0, badClientState: 0, malformed: 0 };
    const connections = new Set<string>();
    for (const item of value.slice(0, 1000)) {
      const channel = await verifiedGraphChannel(deps, item, counts);
      if (channel) connections.add(channel.connection_id);
    }
    for (const id of connections) scheduleSync(deps, id);
    counts.scheduled = connections.size;
    const level = counts.badClientState || counts.malformed ? 'warn' : 'debug';
    deps.logger[level]({ provider: 'microsoft', ...counts }, 'webhook notifications');
    res.status(202).end();
  });

  /**
   * POST /api/webhooks/microsoft/lifecycle — Graph lifecycle notifications
   * (https://learn.microsoft.com/graph/change-notifications-lifecycle-events): `?validationToken=…`
   * is echoed (text/plain 200) like the notification URL; each `{ subscriptionId, clientState,
   * lifecycleEvent }` of a known subscription with a matching clientState (constant time) is acted
   * on after the answer: `missed` → a sync of its connection; `reauthorizationRequired` → the
   * subscription is renewed now; `subscriptionRemoved` → it is forgotten, a new one opened and the
   * connection synced (changes may have been missed meanwhile). Others are counted and ignored → 202.
   */
  router.post('/webhooks/microsoft/lifecycle', async (req: Request, res: Response) => {
    const validationToken = req.query.validationToken;
    if (typeof validationToken === 'string') {
      res.status(200).type('text/plain').send(validationToken);
      return;
    }
    const value: unknown[] = Array.isArray((req.body as { value?: unknown })?.value) ? (req.body as { value: unknown[] }).value : [];
    const counts = { received: value.length, missed: 0, reauthorize: 0, removed: 0, unknown: 0, badClientState: 0, malformed: 0 };
    const work: Array<() => Promise<unknown>> = [];
    for (const item of value.slice(0, 1000)) {
      const n = item as { lifecycleEvent?: unknown } | null;
      if (!n || typeof n.lifecycleEvent !== 'string') {
        counts.malformed++;
        continue;
      }
      const channel = await verifiedGraphChannel(deps, item, counts);
      if (!channel) continue;
      if (n.lifecycleEvent === 'missed') {
        counts.missed++;
        scheduleSync(deps, channel.connection_id);
      } else if (n.lifecycleEvent === 'reauthorizationRequired') {
        counts.reauthorize++;
        work.push(() => renewChannelNow(deps, channel));
      } else if (n.lifecycleEvent === 'subscriptionRemoved') {
        counts.removed++;
        work.push(async () => {
          try {
            await replaceRemovedChannel(deps, channel);
          } finally {
            scheduleSync(deps, channel.connection_id); // changes may have been missed meanwhile
          }
        });
      } else {
        counts.malformed++;
      }
    }
    const level = counts.badClientState || counts.malformed ? 'warn' : 'info';
    deps.logger[level]({ provider: 'microsoft', ...counts }, 'webhook lifecycle notifications');
    res.status(202).end();
    // Graph wants a quick answer; the provider calls run after it, one at a time. They log their
    // own provider failures; anything else (the database) is logged here, by name only.
    void (async () => {
      for (const job of work) {
        await job().catch((err) => deps.logger.error({ provider: 'microsoft', errName: (err as Error)?.name }, 'webhook lifecycle action failed'));
      }
    })();
  });

  return router;
}
