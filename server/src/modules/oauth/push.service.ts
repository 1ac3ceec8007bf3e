/**
 * Push channels of OAuth connections: Google Calendar `events.watch` channels
 * (https://developers.google.com/calendar/api/guides/push) and Microsoft Graph subscriptions
 * (https://learn.microsoft.com/graph/change-notifications-delivery-webhooks). One channel per
 * watched calendar, all pointing at `${WEBHOOK_BASE_URL}/api/webhooks/{provider}`. Google delivers
 * only to https: with an http WEBHOOK_BASE_URL (a local setup) no Google channel is opened, the
 * log says so once, and the 15-minute backup sync keeps those calendars current.
 *
 * Push is an accelerator, never a requirement: every failure here is logged (ids, provider, error
 * name; never tokens) and swallowed — the 15-minute backup sync keeps the calendar current, and the
 * channel-renewal job re-creates missing channels — except a refused authorization
 * (ProviderAuthError), which marks the connection 'expired' so the owner sees "reconnect". A refreshed token set (`newSecret`) is stored
 * encrypted in the same transaction as the channel rows.
 */
import type { Transaction } from 'kysely';
import type { CalendarConnectionRow, Database, PushChannelRow } from '../../db/schema.ts';
import { encryptSecret } from '../../lib/crypto.ts';
import type { OAuthCalendarProvider, OAuthProviderId } from '../../providers/oauth-provider.ts';
import { isOAuthProvider, oauthProviderFor } from '../../providers/oauth-registry.ts';
import { ProviderAuthError, ProviderError } from '../../providers/provider.ts';
import * as calendarsRepo from '../../store/calendars.repo.ts';
import { markConnectionExpired, readState, secretOf, type SyncDeps } from '../sync/index.ts';
import * as repo from '../../store/oauth.repo.ts';

/** Channels expiring within this window are renewed (ms). */
const PUSH_RENEW_BEFORE_MS = 24 * 60 * 60_000;
/** Longest we wait for a provider during stop/revoke on disconnect (ms). */
const BEST_EFFORT_TIMEOUT_MS = 10_000;

/** `${WEBHOOK_BASE_URL}/api/webhooks/{provider}`: where providers send notifications. */
function webhookUrlFor(deps: Pick<SyncDeps, 'config'>, provider: OAuthProviderId): string {
  return `${deps.config.WEBHOOK_BASE_URL}/api/webhooks/${provider}`;
}

const labels: Record<OAuthProviderId, string> = { google: 'Google Calendar', microsoft: 'Outlook Calendar' };
/** Per server config: the `provider base-url` pairs already reported as unable to push. */
const noPushReported = new WeakMap<object, Set<string>>();

/**
 * The webhook URL `adapter` should be given, or null when it cannot deliver there: a provider that
 * needs https (Google, `pushNeedsHttps`) with an http WEBHOOK_BASE_URL. Then no channel is opened
 * or renewed and the 15-minute backup sync keeps those calendars current; that is logged once
 * (warn) per server configuration and base URL.
 */
function pushAddress(deps: SyncDeps, adapter: OAuthCalendarProvider, provider: OAuthProviderId): string | null {
  const url = webhookUrlFor(deps, provider);
  if (!adapter.pushNeedsHttps || url.startsWith('https://')) return url;
  let reported = noPushReported.get(deps.config);
  if (!reported) noPushReported.set(deps.config, (reported = new Set()));
  const key = `${provider} ${deps.config.WEBHOOK_BASE_URL}`;
  if (!reported.has(key)) {
    reported.add(key);
    deps.logger.warn(
      { provider, webhookBaseUrl: deps.config.WEBHOOK_BASE_URL },
      `${labels[provider]} sends change notifications only to https: WEBHOOK_BASE_URL is not https, so no push channels are opened and these calendars follow the 15-minute backup sync`,
    );
  }
  return null;
}

function usable(deps: SyncDeps, conn: CalendarConnectionRow): { adapter: OAuthCalendarProvider; secret: string } | null {
  if (!isOAuthProvider(conn.provider)) return null;
  const adapter = oauthProviderFor(deps, conn.provider);
  if (!adapter || adapter.unavailableReason(deps.config)) return null;
  try {
    const secret = secretOf(deps, conn);
    return secret ? { adapter, secret } : null;
  } catch {
    // The stored token set cannot be decrypted (the server key changed): no push for it; the
    // next sync reports the same failure to the owner as 'expired' with the reconnect message.
    return null;
  }
}

async function storeNewSecret(deps: SyncDeps, trx: Transaction<Database>, conn: { id: string }, newSecret: string | undefined) {
  if (!newSecret) return;
  await calendarsRepo.setConnectionSecret(trx, conn.id, encryptSecret(newSecret, deps.config.AVAIL_SECRET_KEY));
}

/** How long a claim to open a channel may stay unfinished before another instance may take it (ms). */
const CHANNEL_CLAIM_MS = 2 * 60_000;

/**
 * Opens channels for the connection's calendars (`sync_state_json.calendarIds`) that have none yet.
 * Each calendar's slot is claimed in the database first (unique (connection_id, calendar_id),
 * oauth.repo.ts claimChannelSlots): only the calendars this call claimed are asked of the provider,
 * so instances running this at the same moment open one channel per calendar between them.
 * @returns how many channels were opened (0 on any failure, which is logged; the claims are dropped).
 */
export async function openMissingChannels(deps: SyncDeps, connectionId: string): Promise<number> {
  const conn = await calendarsRepo.findConnectionById(deps.db, connectionId, deps.config.AVAIL_SECRET_KEY);
  if (!conn || conn.status === 'expired') return 0;
  const u = usable(deps, conn);
  if (!u) return 0;
  const calendarIds = readState(conn)?.calendarIds ?? [];
  if (calendarIds.length === 0) return 0;
  const provider = conn.provider as OAuthProviderId;
  const webhookUrl = pushAddress(deps, u.adapter, provider);
  if (!webhookUrl) return 0;
  const now = deps.now();
  const claimed = await repo.claimChannelSlots(deps.db, { id: conn.id, user_id: conn.user_id, provider }, calendarIds, now, now + CHANNEL_CLAIM_MS);
  if (claimed.length === 0) return 0;
  try {
    const { channels, newSecret } = await u.adapter.startPush(deps.config, {
      secret: u.secret,
      webhookUrl,
      calendarIds: claimed,
    });
    let stored = 0;
    await deps.db.transaction().execute(async (trx) => {
      stored = await repo.storeOpenedChannels(trx, conn.id, channels, deps.now());
      await storeNewSecret(deps, trx, conn, newSecret);
    });
    // Claims the provider opened nothing for are dropped, so the next upkeep tries them again.
    await repo.releaseChannelSlots(deps.db, conn.id, claimed.filter((c) => !channels.some((ch) => ch.calendar_id === c)));
    deps.logger.info({ connectionId: conn.id, provider, opened: stored }, 'push channels opened');
    return stored;
  } catch (err) {
    await repo.releaseChannelSlots(deps.db, conn.id, claimed).catch(() => undefined); // a claim left behind runs out after CHANNEL_CLAIM_MS
    // A refused authorization is the owner's to fix: the connection shows 'expired' and the
    // reconnect message, as a sync would, instead of failing quietly until the next sync.
    if (err instanceof ProviderAuthError) {
      await markConnectionExpired(deps, conn, err.message);
      return 0;
    }
    deps.logger.warn(
      // ProviderError messages are written to be shown; other messages are not logged (they could quote a response).
      { connectionId: conn.id, provider, errName: (err as Error)?.name, ...(err instanceof ProviderError ? { errMessage: err.message } : {}) },
      'push channels could not be opened; the backup sync covers this connection',
    );
    return 0;
  }
}

/** What a log line may say about an error: its name, and the message of a ProviderError (written to be shown; others could quote a response). */
function errFields(err: unknown): { errName: string | undefined; errMessage?: string } {
  return { errName: (err as Error)?.name, ...(err instanceof ProviderError ? { errMessage: err.message } : {}) };
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), ms);
      timer.unref();
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Disconnect of an OAuth connection, the provider side: stops its channels and revokes the grant
 * (both best effort, each at most 10 s). The caller deletes the rows (push_channels, connection).
 * Never throws.
 */
export async function stopChannelsAndRevoke(deps: SyncDeps, conn: CalendarConnectionRow, opts: { revoke: boolean } = { revoke: true }): Promise<void> {
  if (!isOAuthProvider(conn.provider)) return;
  const rows = await repo.listChannelsOfConnection(deps.db, conn.id);
  const u = usable(deps, conn);
  if (!u) return;
  if (rows.length) {
    try {
      await withTimeout(u.adapter.stopPush(deps.config, { secret: u.secret, channels: rows.map(repo.toPushChannel) }), BEST_EFFORT_TIMEOUT_MS);
    } catch (err) {
      deps.logger.warn({ connectionId: conn.id, provider: conn.provider, ...errFields(err) }, 'push channels could not be stopped');
    }
  }
  if (opts.revoke) {
    try {
      await withTimeout(u.adapter.revoke(deps.config, { secret: u.secret }), BEST_EFFORT_TIMEOUT_MS);
    } catch (err) {
      deps.logger.warn({ connectionId: conn.id, provider: conn.provider, ...errFields(err) }, 'grant could not be revoked');
    }
  }
}

export interface RenewalCounts {
  renewed: number;
  failed: number;
  /** Deleted channels: expired ones whose renewal failed (re-created below), and channels of calendars no longer in the account. */
  dropped: number;
  /** Channels opened for calendars without one. */
  opened: number;
}

/**
 * Channel upkeep (the push-channels job): renews every channel expiring within 24 h (a channel of a
 * calendar the last sync no longer saw is stopped and deleted instead), then opens
 * channels for active OAuth connections' calendars that have none (first connect failed, a channel
 * expired, a calendar was added). Expired connections are left alone. Never throws per channel.
 */
export async function renewPushChannels(deps: SyncDeps, isStopping: () => boolean = () => false): Promise<RenewalCounts> {
  const counts: RenewalCounts = { renewed: 0, failed: 0, dropped: 0, opened: 0 };
  const now = deps.now();
  for (const row of await repo.listChannelsExpiringBefore(deps.db, now + PUSH_RENEW_BEFORE_MS)) {
    if (isStopping()) return counts;
    const conn = await calendarsRepo.findConnectionById(deps.db, row.connection_id, deps.config.AVAIL_SECRET_KEY);
    const u = conn && conn.status !== 'expired' ? usable(deps, conn) : null;
    const watched = conn ? readState(conn)?.calendarIds : undefined;
    if (conn && u && watched && !watched.includes(row.calendar_id)) {
      // The calendar is gone from the account: stop its channel instead of renewing it.
      await u.adapter.stopPush(deps.config, { secret: u.secret, channels: [repo.toPushChannel(row)] }).catch((err) =>
        // Best effort: a channel left open expires by itself and names an unknown channel id.
        deps.logger.warn({ connectionId: row.connection_id, provider: row.provider, errName: (err as Error)?.name }, 'push channel of a removed calendar could not be stopped'),
      );
      await repo.deleteChannels(deps.db, [row.id]);
      counts.dropped++;
      continue;
    }
    const webhookUrl = u ? pushAddress(deps, u.adapter, row.provider) : undefined;
    if (webhookUrl === null) {
      // Push is not possible at this base URL (logged once): let the channel run out.
      if (Number(row.expires_at) <= deps.now()) {
        await repo.deleteChannels(deps.db, [row.id]);
        counts.dropped++;
      }
      continue;
    }
    try {
      if (!conn || !u || !webhookUrl) throw new Error('connection not usable');
      const { channel, newSecret } = await u.adapter.renewPush(deps.config, {
        secret: u.secret,
        webhookUrl,
        channel: repo.toPushChannel(row),
      });
      await deps.db.transaction().execute(async (trx) => {
        await repo.updateChannel(trx, row.id, channel);
        await storeNewSecret(deps, trx, conn, newSecret);
      });
      counts.renewed++;
    } catch (err) {
      counts.failed++;
      if (err instanceof ProviderAuthError && conn) await markConnectionExpired(deps, conn, err.message);
      deps.logger.warn({ connectionId: row.connection_id, provider: row.provider, errName: (err as Error)?.name }, 'push channel renewal failed');
      if (Number(row.expires_at) <= deps.now()) {
        await repo.deleteChannels(deps.db, [row.id]);
        counts.dropped++;
      }
    }
  }
  const active = await calendarsRepo.listPushCapableConnectionIds(deps.db);
  for (const c of active) {
    if (isStopping()) break;
    counts.opened += await openMissingChannels(deps, c.id);
  }
  return counts;
}


/**
 * Renews one channel now (Graph's `reauthorizationRequired` lifecycle event): the provider's renew
 * (Graph: PATCH the subscription's expiration, which also re-authorizes it), stored with a
 * refreshed token set. A refused authorization marks the connection expired; other failures are
 * logged and left to the hourly upkeep. Returns true when renewed. Never throws.
 */
export async function renewChannelNow(deps: SyncDeps, row: PushChannelRow): Promise<boolean> {
  const conn = await calendarsRepo.findConnectionById(deps.db, row.connection_id, deps.config.AVAIL_SECRET_KEY);
  const u = conn && conn.status !== 'expired' ? usable(deps, conn) : null;
  const webhookUrl = conn && u ? pushAddress(deps, u.adapter, row.provider) : null;
  if (!conn || !u || !webhookUrl) return false;
  try {
    const { channel, newSecret } = await u.adapter.renewPush(deps.config, { secret: u.secret, webhookUrl, channel: repo.toPushChannel(row) });
    await deps.db.transaction().execute(async (trx) => {
      await repo.updateChannel(trx, row.id, channel);
      await storeNewSecret(deps, trx, conn, newSecret);
    });
    return true;
  } catch (err) {
    if (err instanceof ProviderAuthError) await markConnectionExpired(deps, conn, err.message);
    deps.logger.warn({ connectionId: row.connection_id, provider: row.provider, errName: (err as Error)?.name }, 'push channel reauthorization failed');
    return false;
  }
}

/**
 * The provider removed a channel (Graph's `subscriptionRemoved`): forgets it and opens a new one
 * for its calendar. Returns how many channels were opened. Never throws.
 */
export async function replaceRemovedChannel(deps: SyncDeps, row: PushChannelRow): Promise<number> {
  await repo.deleteChannels(deps.db, [row.id]);
  return openMissingChannels(deps, row.connection_id);
}

/**
 * The push channel a provider notification names, checked against the secret it carries (Google
 * `X-Goog-Channel-Token`, Graph `clientState`; compared as sha256 in constant time):
 * `{ channel }` when both match, `{ unknown: true }` for no such channel, `{ badToken: channel }` when
 * the secret is wrong or missing. For the webhooks module (it never reads channels itself).
 */
export async function checkNotificationChannel(
  deps: Pick<SyncDeps, 'db'>,
  provider: OAuthProviderId,
  channelId: string,
  secret: string | undefined,
): Promise<{ channel: PushChannelRow } | { unknown: true } | { badToken: PushChannelRow }> {
  const channel = await repo.findChannel(deps.db, provider, channelId);
  if (!channel) return { unknown: true };
  return repo.tokenMatches(secret, channel.token_hash) ? { channel } : { badToken: channel };
}
