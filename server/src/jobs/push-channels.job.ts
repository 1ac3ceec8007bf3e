/**
 * Push-channel upkeep (hourly, and once at start): renews Google watch channels / Graph
 * subscriptions expiring within 24 h and opens channels that are missing for active OAuth
 * connections (see modules/oauth/push.service.ts). Graph subscriptions on Outlook events last at
 * most 4230 minutes, ~3 days (https://learn.microsoft.com/graph/api/resources/subscription#subscription-lifetime),
 * Google channels about a week unless asked otherwise
 * (https://developers.google.com/calendar/api/guides/push#renewing-notification-channels).
 */
import { renewPushChannels, type RenewalCounts } from '../modules/oauth/index.ts';
import type { Job } from './job-runner.ts';

const PUSH_CHANNELS_INTERVAL_MS = 60 * 60_000;

/** The push-channels job (hourly, and at start); resolves to RenewalCounts. */
export function pushChannelsJob(): Job {
  return {
    name: 'push-channels',
    intervalMs: PUSH_CHANNELS_INTERVAL_MS,
    runOnStart: true,
    async run(deps, ctx): Promise<RenewalCounts> {
      const started = Date.now();
      const counts = await renewPushChannels(deps, ctx.isStopping);
      if (counts.renewed || counts.failed || counts.opened || counts.dropped) {
        deps.logger.info({ job: 'push-channels', ...counts, ms: Date.now() - started }, 'push channels maintained');
      }
      return counts;
    },
  };
}
