/**
 * Push side of the Microsoft adapter: Graph change-notification subscriptions, one per calendar on
 * `me/calendars/{id}/events`, over the session's Graph client (microsoft-session.ts; 401/403/429/
 * 503 and network errors as listed there).
 *
 * - create: POST /subscriptions (https://learn.microsoft.com/graph/api/subscription-post-subscriptions)
 *   { changeType 'created,updated,deleted', notificationUrl = webhookUrl, lifecycleNotificationUrl =
 *   `${webhookUrl}/lifecycle`, resource, expirationDateTime now + SUBSCRIPTION_MINUTES, clientState
 *   = 32 random bytes base64url }. Graph first POSTs `?validationToken=` to each URL, which must
 *   echo it (text/plain, 200, within 10 s).
 * - renew: PATCH /subscriptions/{id} { expirationDateTime } (https://learn.microsoft.com/graph/api/subscription-update);
 *   a subscription Graph no longer knows (404) is replaced by a new one for the same calendar.
 * - delete: DELETE /subscriptions/{id} (https://learn.microsoft.com/graph/api/subscription-delete);
 *   404 / 410 (unknown or expired) are ignored.
 * PushChannel: channel_id = subscription id, resource_id null, token = clientState, expires_at UTC epoch ms.
 */
import { randomBytes } from 'node:crypto';
import type { PushChannel } from '../oauth-provider.ts';
import { ProviderError } from '../provider.ts';
import { GraphStatusError, errorCodeOf, type MicrosoftSession } from './microsoft-session.ts';

/** Subscription lifetime asked for: under Graph's 4230-minute maximum for Outlook events. */
const SUBSCRIPTION_MINUTES = 4200;

interface GraphSubscription {
  id?: string;
  expirationDateTime?: string;
}

function subscriptionExpiry(now: number): string {
  return new Date(now + SUBSCRIPTION_MINUTES * 60_000).toISOString();
}

/** POST /subscriptions for one calendar (Graph validates `notificationUrl` before answering). */
async function createSubscription(s: MicrosoftSession, webhookUrl: string, calendarId: string): Promise<PushChannel> {
  const clientState = randomBytes(32).toString('base64url');
  const requested = subscriptionExpiry(s.now());
  const res = await s.graph('POST', s.graphUrl('/subscriptions'), {
    body: {
      changeType: 'created,updated,deleted',
      notificationUrl: webhookUrl,
      // Lifecycle events (reauthorizationRequired, subscriptionRemoved, missed) go to their own
      // endpoint: https://learn.microsoft.com/graph/change-notifications-lifecycle-events
      lifecycleNotificationUrl: `${webhookUrl}/lifecycle`,
      resource: `me/calendars/${calendarId}/events`,
      expirationDateTime: requested,
      clientState,
    },
  });
  const body = (await res.json().catch(() => null)) as GraphSubscription | null;
  if (!res.ok || !body || typeof body.id !== 'string') {
    const code = errorCodeOf(body);
    throw new ProviderError(
      `Microsoft could not start live updates for a calendar (HTTP ${res.status}${code ? `, ${code}` : ''}); the 15-minute sync continues.`,
    );
  }
  const expires = Date.parse(body.expirationDateTime ?? requested);
  return { channel_id: body.id, resource_id: null, calendar_id: calendarId, token: clientState, expires_at: Number.isFinite(expires) ? expires : Date.parse(requested) };
}

async function deleteSubscription(s: MicrosoftSession, id: string): Promise<void> {
  const res = await s.graph('DELETE', s.graphUrl(`/subscriptions/${encodeURIComponent(id)}`));
  await res.body?.cancel();
  if (res.ok || res.status === 404 || res.status === 410) return;
  throw new GraphStatusError(res.status, undefined);
}

/** One subscription per calendar; if one fails, those already created are deleted and the error thrown. */
export async function startSubscriptions(s: MicrosoftSession, webhookUrl: string, calendarIds: string[]): Promise<PushChannel[]> {
  const channels: PushChannel[] = [];
  try {
    for (const calendarId of calendarIds) channels.push(await createSubscription(s, webhookUrl, calendarId));
  } catch (err) {
    for (const c of channels) await deleteSubscription(s, c.channel_id).catch(() => undefined);
    throw err;
  }
  return channels;
}

/** PATCHes the expiry (token and id kept); a forgotten subscription (404) is replaced by a new one. */
export async function renewSubscription(s: MicrosoftSession, webhookUrl: string, channel: PushChannel): Promise<PushChannel> {
  const expirationDateTime = subscriptionExpiry(s.now());
  const res = await s.graph('PATCH', s.graphUrl(`/subscriptions/${encodeURIComponent(channel.channel_id)}`), { body: { expirationDateTime } });
  if (res.status === 404) {
    await res.body?.cancel();
    return createSubscription(s, webhookUrl, channel.calendar_id);
  }
  const body = (await res.json().catch(() => null)) as GraphSubscription | null;
  if (!res.ok) throw new GraphStatusError(res.status, errorCodeOf(body));
  const expires = Date.parse(body?.expirationDateTime ?? expirationDateTime);
  return { ...channel, expires_at: Number.isFinite(expires) ? expires : Date.parse(expirationDateTime) };
}

/** Deletes each subscription; unknown/expired ones are ignored, other failures throw. */
export async function stopSubscriptions(s: MicrosoftSession, channels: PushChannel[]): Promise<void> {
  for (const c of channels) await deleteSubscription(s, c.channel_id);
}
