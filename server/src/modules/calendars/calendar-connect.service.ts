/**
 * Connecting pull calendars (ICS feeds, CalDAV, Apple iCloud): the first sync must succeed before
 * anything is stored (connectPull), duplicates are refused (409), ICS feed URLs are secrets
 * (stored encrypted, recognised by their HMAC), and the start-up pass that seals feed URLs stored
 * in clear by earlier versions. OAuth connections (Google, Microsoft) connect in modules/oauth.
 */
import type { UserRow } from '../../db/schema.ts';
import { HttpError, conflict } from '../../http/errors.ts';
import { encryptSecret, secretFingerprint } from '../../lib/crypto.ts';
import { APPLE_INVALID_CREDENTIALS } from '../../providers/apple/apple.provider.ts';
import { calendarFetchFor } from '../../providers/calendar-fetch.ts';
import { pullProviders } from '../../providers/index.ts';
import { ProviderAuthError, ProviderError, type ProviderSyncResult } from '../../providers/provider.ts';
import { replicatedWrite } from '../../store/repl-clock.repo.ts';
import * as repo from '../../store/calendars.repo.ts';
import { DeriveError, deriveOffThread, excludedCalendarIds, mergeCalendarList, ownerEmailsFor, readChoices, sealCalendarList, type SyncDeps } from '../sync/index.ts';
import { presentConnection, type ConnectionView } from './calendars.service.ts';

type PullId = 'ics' | 'caldav' | 'apple';

interface ConnectRequest {
  provider: PullId;
  /** Id of the new connection (default: a fresh UUID). */
  id?: string;
  /** Stored in config_json and given to the provider: never a secret. */
  config: Record<string, string>;
  /** Given to the provider decrypted; stored only encrypted (secret_enc). */
  secret: string | null;
  name?: string;
  account: string | null;
  /** Message for refused credentials (400). */
  authMessage: string;
}

/**
 * Runs the first sync; only when it succeeds (data fetched AND readable AND within the
 * per-connection budgets, derived in the worker pool) are the connection, its sources and derived
 * busy time stored, in one transaction. Failures are 400s with clear messages
 * (`calendar_unreachable`, `calendar_unreadable`: unreadable data, a budget exceeded, the worker's
 * time or memory limit) and leave nothing behind.
 */
async function connectPull(deps: SyncDeps, user: UserRow, req: ConnectRequest): Promise<ConnectionView> {
  let result: ProviderSyncResult;
  try {
    result = await pullProviders[req.provider].sync(
      { config: req.config, secret: req.secret, state: null, known: [] },
      { fetch: calendarFetchFor(deps) },
    );
  } catch (err) {
    if (err instanceof ProviderAuthError) throw new HttpError(400, 'invalid_credentials', req.authMessage);
    if (err instanceof ProviderError) throw new HttpError(400, 'calendar_unreachable', err.message);
    deps.logger.error({ provider: req.provider, errName: (err as Error)?.name }, 'calendar connect crashed');
    throw new HttpError(400, 'calendar_unreachable', 'Could not connect to the calendar. Please check the details and try again.');
  }
  const now = deps.now();
  // The provider defaults decide which calendars count until the owner switches them (issue 23).
  const calendarList = mergeCalendarList([], result.calendars, now);
  const excludedCalendars = excludedCalendarIds(calendarList, readChoices({ calendar_choices: null }, deps.config.AVAIL_SECRET_KEY));
  let derived;
  try {
    derived = await deriveOffThread(result.upserts, {
      ownerZone: user.timezone,
      ownerEmails: ownerEmailsFor(user.email, result.ownerEmails),
      now,
      excludedCalendars,
    });
  } catch (err) {
    if (err instanceof DeriveError) throw new HttpError(400, 'calendar_unreadable', err.message);
    throw err;
  }
  const id = req.id ?? crypto.randomUUID();
  const row = {
    id,
    user_id: user.id,
    provider: req.provider,
    name: (req.name?.trim() || result.suggestedName || req.provider).slice(0, 100),
    status: 'active' as const,
    account: req.account,
    config_json: JSON.stringify(req.config),
    secret_enc: req.secret ? encryptSecret(req.secret, deps.config.AVAIL_SECRET_KEY) : null,
    sync_state_json: JSON.stringify({
      provider: result.newState,
      ownerEmails: result.ownerEmails,
      derivedAt: now,
      ...(calendarList.length ? { calendarsSealed: sealCalendarList(calendarList, deps.config.AVAIL_SECRET_KEY) } : {}),
    }),
    calendars_count: result.calendarsCount,
    included_calendars_count: calendarList.length ? calendarList.length - excludedCalendars.length : result.calendarsCount,
    warnings_json: derived.warnings.length ? JSON.stringify(derived.warnings) : null,
    last_error: null,
    last_synced_at: now,
    connected_at: now,
    busy_rules_json: null,
    calendar_choices: null,
  };
  const updatedAt = await replicatedWrite(deps, user.id, async (trx, stamp) => {
    if (req.provider === 'apple') {
      // One Apple connection per user: reconnecting replaces the old one.
      for (const old of await repo.findConnectionsByProvider(trx, user.id, 'apple', deps.config.AVAIL_SECRET_KEY)) await repo.deleteConnectionCascade(trx, old, stamp);
    }
    await repo.insertConnection(trx, row, stamp, deps.config.AVAIL_SECRET_KEY);
    await repo.applySourceChanges(trx, row, result, now, deps.config.AVAIL_SECRET_KEY);
    await repo.replaceDerived(trx, row, derived, stamp, deps.config.AVAIL_SECRET_KEY);
    return stamp('calendar_connections');
  });
  deps.logger.info(
    { connectionId: id, provider: req.provider, objects: result.upserts.length, busyIntervals: derived.intervals.length },
    'calendar connected',
  );
  return presentConnection({ ...row, updated_at: updatedAt });
}

async function refuseDuplicate(deps: SyncDeps, userId: string, provider: PullId, sameAs: (config: Record<string, string>) => boolean) {
  for (const c of await repo.findConnectionsByProvider(deps.db, userId, provider, deps.config.AVAIL_SECRET_KEY)) {
    let config: Record<string, string> = {};
    try {
      config = JSON.parse(c.config_json || '{}');
    } catch {
      config = {}; // unreadable config: it cannot be the same calendar, so it does not block this one
    }
    if (sameAs(config)) throw conflict('This calendar is already connected.', 'already_connected');
  }
}

/**
 * The form of a feed URL used to recognise the same feed: WHATWG-parsed (scheme and host
 * lower-cased, default port dropped, dot segments resolved), without the fragment (never sent).
 */
function normaliseFeedUrl(url: string): string {
  const u = new URL(url.trim());
  u.hash = '';
  return u.href;
}

/** HMAC-SHA256 (hex) of the normalised feed URL keyed with the server key: config_json.url_hmac. */
export function feedUrlHmac(url: string, key: Uint8Array): string {
  return secretFingerprint(normaliseFeedUrl(url), key);
}

/** Id of an ICS connection's one source row (calendar_sources.calendar_url / object_href). */
function icsSourceId(connectionId: string): string {
  return `ics:${connectionId}`;
}

/**
 * Connects an ICS feed. The URL is treated as a secret (private feed addresses carry a token):
 * stored only encrypted in secret_enc; config_json holds `{ sourceId, url_hmac }`, `account` the
 * host, and the source row is keyed `ics:<connection id>`. 409 when the same feed (same
 * url_hmac) is already connected for this user.
 */
export async function connectIcs(deps: SyncDeps, user: UserRow, input: { url: string; name?: string }) {
  const urlHmac = feedUrlHmac(input.url, deps.config.AVAIL_SECRET_KEY);
  await refuseDuplicate(deps, user.id, 'ics', (c) => c.url_hmac === urlHmac);
  const id = crypto.randomUUID();
  return connectPull(deps, user, {
    provider: 'ics',
    id,
    config: { sourceId: icsSourceId(id), url_hmac: urlHmac },
    secret: input.url,
    name: input.name,
    account: new URL(input.url).host,
    authMessage: 'The calendar feed refused access. Check that the link is still valid.',
  });
}

/**
 * ICS connections stored before feed URLs were secrets (`config_json` `{ url }`, source rows keyed
 * by the URL): moves the URL into secret_enc, config to `{ sourceId, url_hmac }` and the source
 * rows to `ics:<id>` (ETag kept, so the next sync is still conditional). Idempotent; run at start.
 * @returns how many connections were sealed.
 */
export async function sealLegacyIcsFeeds(deps: Pick<SyncDeps, 'db' | 'config' | 'now'>): Promise<number> {
  const rows = await repo.listLegacyIcsConnections(deps.db);
  let sealed = 0;
  for (const row of rows) {
    let config: Record<string, unknown>;
    try {
      config = JSON.parse(row.config_json || '{}');
    } catch {
      continue;
    }
    const url = config.url;
    if (typeof url !== 'string' || !url) continue;
    let urlHmac: string;
    try {
      urlHmac = feedUrlHmac(url, deps.config.AVAIL_SECRET_KEY);
    } catch {
      continue; // not a URL: such a connection never synced; the owner can remove it
    }
    const sourceId = icsSourceId(row.id);
    await replicatedWrite(deps, row.user_id, async (trx, stamp) => {
      const change = { configJson: JSON.stringify({ sourceId, url_hmac: urlHmac }), secretEnc: encryptSecret(url, deps.config.AVAIL_SECRET_KEY), sourceId };
      if (await repo.sealLegacyIcsConnection(trx, row, change, stamp, deps.config.AVAIL_SECRET_KEY)) sealed++;
    });
  }
  return sealed;
}

export async function connectCaldav(deps: SyncDeps, user: UserRow, input: { server_url: string; username: string; password: string }) {
  await refuseDuplicate(deps, user.id, 'caldav', (c) => c.serverUrl === input.server_url && c.username === input.username);
  return connectPull(deps, user, {
    provider: 'caldav',
    config: { serverUrl: input.server_url, username: input.username },
    secret: input.password,
    account: input.username,
    authMessage: 'Invalid credentials. Please check your CalDAV username and password.',
  });
}

export async function connectApple(deps: SyncDeps, user: UserRow, input: { apple_id: string; app_specific_password: string }) {
  return connectPull(deps, user, {
    provider: 'apple',
    config: { serverUrl: deps.config.APPLE_CALDAV_URL, username: input.apple_id },
    secret: input.app_specific_password,
    name: 'iCloud',
    account: input.apple_id,
    authMessage: APPLE_INVALID_CREDENTIALS,
  });
}
