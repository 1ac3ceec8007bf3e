/**
 * Google push channels (https://developers.google.com/calendar/api/guides/push): one events.watch
 * channel per calendar (id = random UUID, token = 32 random bytes base64url, ttl 7 days, expiry in
 * UTC epoch ms); renewal = a new watch then channels.stop of the old one (google.provider.ts).
 * Calls go through GoogleSession (google-session.ts: `@googleapis/calendar`, no hidden retries).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { PushChannel } from '../oauth-provider.ts';
import { ProviderError } from '../provider.ts';
import { GoogleHttpError, toProviderError, type Clock, type GoogleSession } from './google-session.ts';

/** Push channel lifetime requested from Google (seconds): 7 days. */
const GOOGLE_CHANNEL_TTL_SEC = 7 * 24 * 3600;


/** events.watch (https://developers.google.com/calendar/api/v3/reference/events/watch). */
export async function watch(session: GoogleSession, webhookUrl: string, calendarId: string, now: Clock): Promise<PushChannel> {
  const id = randomUUID();
  const token = randomBytes(32).toString('base64url');
  let body: { id?: string | null; resourceId?: string | null; expiration?: string | null } | null;
  try {
    body = await session.call((api) =>
      api.events.watch({
        calendarId,
        requestBody: { id, type: 'web_hook', address: webhookUrl, token, params: { ttl: String(GOOGLE_CHANNEL_TTL_SEC) } },
      }),
    );
  } catch (err) {
    if (err instanceof GoogleHttpError && err.status === 400) {
      throw new ProviderError('Google Calendar refused the webhook address (it must be a public HTTPS URL of a verified domain).');
    }
    toProviderError(err, 'open a push channel');
  }
  const expiration = Number(body?.expiration);
  if (!body?.resourceId) throw new ProviderError('Google Calendar answered the watch request without a resource id.');
  return {
    channel_id: body.id ?? id,
    resource_id: body.resourceId,
    calendar_id: calendarId,
    token,
    expires_at: Number.isFinite(expiration) && expiration > 0 ? expiration : now() + GOOGLE_CHANNEL_TTL_SEC * 1000,
  };
}

/** channels.stop (https://developers.google.com/calendar/api/v3/reference/channels/stop); 404 = already gone. */
export async function stopChannel(session: GoogleSession, channel: PushChannel): Promise<void> {
  try {
    await session.call((api) => api.channels.stop({ requestBody: { id: channel.channel_id, resourceId: channel.resource_id } }));
  } catch (err) {
    if (err instanceof GoogleHttpError && err.status === 404) return;
    toProviderError(err, 'stop a push channel');
  }
}
