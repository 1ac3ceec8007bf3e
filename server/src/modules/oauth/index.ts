/**
 * Front door of the oauth module (Google and Microsoft connections, their grants and push
 * channels): what other modules, the jobs and the app may use. Everything else is internal.
 */
export { oauthRouter } from './oauth.routes.ts';
export { revokeAllGrants } from './oauth.service.ts';
export {
  checkNotificationChannel,
  openMissingChannels,
  renewChannelNow,
  renewPushChannels,
  replaceRemovedChannel,
  stopChannelsAndRevoke,
  type RenewalCounts,
} from './push.service.ts';
