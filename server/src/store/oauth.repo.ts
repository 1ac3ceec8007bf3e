/**
 * SQL of OAuth consents (oauth_states) and push channels (push_channels). Secrets never reach
 * these tables in clear: states and channel tokens are stored as sha256 hex, PKCE verifiers
 * AES-256-GCM encrypted by the caller.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database, OAuthStateRow, PushChannelRow } from '../db/schema.ts';
import type { OAuthProviderId, PushChannel } from '../providers/oauth-provider.ts';

type Q = Kysely<Database> | Transaction<Database>;

/** A consent must come back within 10 minutes (ms). */
const OAUTH_STATE_TTL_MS = 10 * 60_000;

/** sha256 (hex) of a state or channel token. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Constant-time check of a presented token against a stored sha256 hex (false for a missing token). */
export function tokenMatches(presented: string | undefined | null, storedHash: string): boolean {
  if (typeof presented !== 'string' || presented.length === 0) return false;
  const a = Buffer.from(sha256Hex(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Most consents one user may have open at once; starting another drops the oldest. */
const MAX_OPEN_STATES_PER_USER = 10;

/**
 * Stores a started consent; also drops consents older than the TTL (housekeeping) and the user's
 * oldest open ones beyond MAX_OPEN_STATES_PER_USER (a user clicking Connect repeatedly).
 */
export async function insertState(
  db: Q,
  row: { state: string; userId: string; provider: OAuthProviderId; codeVerifierEnc: string; now: number },
): Promise<void> {
  await db.deleteFrom('oauth_states').where('created_at', '<', row.now - OAUTH_STATE_TTL_MS).execute();
  const open = await db.selectFrom('oauth_states').select('state_hash').where('user_id', '=', row.userId).orderBy('created_at', 'desc').execute();
  const surplus = open.slice(MAX_OPEN_STATES_PER_USER - 1).map((r) => r.state_hash);
  if (surplus.length) await db.deleteFrom('oauth_states').where('state_hash', 'in', surplus).execute();
  await db
    .insertInto('oauth_states')
    .values({
      state_hash: sha256Hex(row.state),
      user_id: row.userId,
      provider: row.provider,
      code_verifier_enc: row.codeVerifierEnc,
      created_at: row.now,
    })
    .execute();
}

/**
 * Takes (deletes and returns) the consent of `state` for `provider`: single use, even when two
 * callbacks race (one DELETE … RETURNING wins). Undefined when unknown, of another provider, or
 * older than 10 minutes (an expired row is deleted too).
 */
export async function consumeState(db: Q, provider: OAuthProviderId, state: string, now: number): Promise<OAuthStateRow | undefined> {
  const row = await db
    .deleteFrom('oauth_states')
    .where('state_hash', '=', sha256Hex(state))
    .where('provider', '=', provider)
    .returningAll()
    .executeTakeFirst();
  if (!row) return undefined;
  if (Number(row.created_at) < now - OAUTH_STATE_TTL_MS) return undefined;
  return row;
}

/** Open push channels of one connection (claims still being opened excluded), by calendar id. */
export async function listChannelsOfConnection(db: Q, connectionId: string): Promise<PushChannelRow[]> {
  return db
    .selectFrom('push_channels')
    .selectAll()
    .where('connection_id', '=', connectionId)
    .where('opening_until', 'is', null)
    .orderBy('calendar_id')
    .execute();
}

/** Prefix of the placeholder channel id of a claim (never a Google channel id or Graph subscription id: those are UUIDs/GUIDs). */
const CLAIM_PREFIX = 'opening:';

/**
 * Claims the (connection, calendar) slots of `calendarIds` that have no row (open channel or live
 * claim): one INSERT … ON CONFLICT DO NOTHING per calendar against the unique index
 * (connection_id, calendar_id), so of two instances claiming at once exactly one gets each slot.
 * Claims whose `opening_until` ≤ `now` (their opener died) are dropped first. A claim runs out at
 * `until` (UTC epoch ms).
 * @returns the calendar ids this call claimed.
 */
export async function claimChannelSlots(
  db: Q,
  conn: { id: string; user_id: string; provider: OAuthProviderId },
  calendarIds: readonly string[],
  now: number,
  until: number,
): Promise<string[]> {
  await db.deleteFrom('push_channels').where('connection_id', '=', conn.id).where('opening_until', '<=', now).execute();
  const claimed: string[] = [];
  for (const calendarId of calendarIds) {
    const row = await db
      .insertInto('push_channels')
      .values({
        id: crypto.randomUUID(),
        user_id: conn.user_id,
        connection_id: conn.id,
        provider: conn.provider,
        channel_id: `${CLAIM_PREFIX}${crypto.randomUUID()}`,
        resource_id: null,
        calendar_id: calendarId,
        token_hash: '',
        expires_at: until,
        created_at: now,
        opening_until: until,
      })
      .onConflict((oc) => oc.columns(['connection_id', 'calendar_id']).doNothing())
      .returning('calendar_id')
      .executeTakeFirst();
    if (row) claimed.push(calendarId);
  }
  return claimed;
}

/** Drops this connection's live claims of `calendarIds` (opening failed). */
export async function releaseChannelSlots(db: Q, connectionId: string, calendarIds: readonly string[]): Promise<void> {
  if (calendarIds.length === 0) return;
  await db
    .deleteFrom('push_channels')
    .where('connection_id', '=', connectionId)
    .where('calendar_id', 'in', [...calendarIds])
    .where('opening_until', 'is not', null)
    .execute();
}

/** The channel a webhook names (Google channel id / Graph subscription id), or undefined. */
export async function findChannel(db: Q, provider: OAuthProviderId, channelId: string): Promise<PushChannelRow | undefined> {
  return db.selectFrom('push_channels').selectAll().where('provider', '=', provider).where('channel_id', '=', channelId).executeTakeFirst();
}

/** Open channels expiring before `before` (UTC epoch ms), soonest first (claims being opened are not channels yet). */
export async function listChannelsExpiringBefore(db: Q, before: number): Promise<PushChannelRow[]> {
  return db
    .selectFrom('push_channels')
    .selectAll()
    .where('expires_at', '<', before)
    .where('opening_until', 'is', null)
    .orderBy('expires_at')
    .execute();
}

/**
 * Stores channels just opened by the adapter over the claims of their calendars (claimChannelSlots);
 * tokens only as sha256 hex. `now` = created_at (UTC epoch ms). A channel whose claim is gone
 * (the connection was disconnected meanwhile) is not stored.
 * @returns how many channels were stored.
 */
export async function storeOpenedChannels(db: Q, connectionId: string, channels: PushChannel[], now: number): Promise<number> {
  let stored = 0;
  for (const ch of channels) {
    const res = await db
      .updateTable('push_channels')
      .set({
        channel_id: ch.channel_id,
        resource_id: ch.resource_id,
        token_hash: sha256Hex(ch.token),
        expires_at: ch.expires_at,
        created_at: now,
        opening_until: null,
      })
      .where('connection_id', '=', connectionId)
      .where('calendar_id', '=', ch.calendar_id)
      .where('opening_until', 'is not', null)
      .executeTakeFirst();
    stored += Number(res.numUpdatedRows);
  }
  return stored;
}

/** Writes a renewed channel over row `id`; an empty token keeps the stored hash (same channel). */
export async function updateChannel(db: Q, id: string, ch: PushChannel): Promise<void> {
  await db
    .updateTable('push_channels')
    .set({
      channel_id: ch.channel_id,
      resource_id: ch.resource_id,
      calendar_id: ch.calendar_id,
      expires_at: ch.expires_at,
      ...(ch.token ? { token_hash: sha256Hex(ch.token) } : {}),
    })
    .where('id', '=', id)
    .execute();
}

/** Deletes channel rows by row id. */
export async function deleteChannels(db: Q, ids: string[]): Promise<void> {
  if (ids.length) await db.deleteFrom('push_channels').where('id', 'in', ids).execute();
}

/** Deletes every channel row of a connection (disconnect, reconnect). */
export async function deleteChannelsOfConnection(db: Q, connectionId: string): Promise<void> {
  await db.deleteFrom('push_channels').where('connection_id', '=', connectionId).execute();
}

/** A stored channel as the adapter sees it; the token is not kept, so it is ''. */
export function toPushChannel(row: PushChannelRow): PushChannel {
  return {
    channel_id: row.channel_id,
    resource_id: row.resource_id,
    calendar_id: row.calendar_id,
    token: '',
    expires_at: Number(row.expires_at),
  };
}
