/**
 * Calendar sync: provider fetch → stored raw sources → derived events and busy intervals.
 *
 * - syncConnection: asks the provider what changed, then re-derives the connection's events and
 *   busy intervals by running the shared engine (parseCalendar + expandBusy) over ALL the
 *   connection's sources for [now − 30 d, now + 400 d) — in the worker-thread pool
 *   (derive-pool.ts: time and memory limits), never on the thread that answers visitors, and
 *   within the per-connection budgets (derive.ts: over a budget the sync is refused, not
 *   truncated) — and writes sources + derived rows + status in one transaction (in batches that
 *   yield to the event loop, calendars.repo.ts). On any failure the last good busy intervals stay untouched and the
 *   connection shows 'error' (or 'expired' when the server refused the credentials) with a clear
 *   message; the owner never looks fully free or fully booked because a provider failed.
 * - rederiveZoneDependentBusy: after the owner's zone changes, re-derives every connection of the
 *   user from the stored sources with the new zone (no network).
 * - syncUser: every connection of a user (Sync Now).
 *
 * OAuth connections (Google, Microsoft) run through the same pipeline: the adapter's
 * `sync(config, input)` gets the decrypted token JSON, and a refreshed `newSecret` is re-encrypted
 * in the same transaction as the result. Every failed sync sets a back-off (`next_sync_at`,
 * `failure_count`): the provider's Retry-After for ProviderRateLimitError, otherwise 1, 2, 4 … up
 * to 15 minutes; ProviderAuthError marks the connection 'expired' and it is not retried until the
 * owner reconnects. A sync runs only while it holds the connection's DB lease (sync-lease.repo.ts)
 * and, in this process, at most once at a time (in-flight map).
 *
 * Never logs titles, feed URLs or secrets: only ids, provider, counts and error codes.
 */
import { readBusyRules } from '@avail/shared/ical/busy-rules.ts';
import type { CalendarConnectionRow } from '../../db/schema.ts';
import type { Deps } from '../../http/deps.ts';
import { decryptSecret, encryptSecret, openContent, sealContent } from '../../lib/crypto.ts';
import { SafeFetchError, createSafeFetch, type SafeFetch } from '../../lib/safe-fetch.ts';
import { isPullProvider, pullProviders } from '../../providers/index.ts';
import { ProviderRateLimitError, secretOfError, type OAuthSyncResult } from '../../providers/oauth-provider.ts';
import { isOAuthProvider, notConfiguredReason, oauthProviderFor } from '../../providers/oauth-registry.ts';
import { ProviderAuthError, ProviderError, type ProviderSyncResult } from '../../providers/provider.ts';
import { acquireSyncLease, releaseSyncLease, type SyncClaim } from './sync-lease.repo.ts';
import * as repo from '../../store/calendars.repo.ts';
import { findSyncOwner } from '../../store/users.repo.ts';
import { replicatedWrite } from '../../store/repl-clock.repo.ts';
import { DeriveError } from './derive.ts';
import {
  excludedCalendarIds,
  mergeCalendarList,
  openCalendarList,
  readChoices,
  sealCalendarList,
  type ListedCalendar,
} from './calendar-selection.ts';
import { deriveOffThread } from './derive-pool.ts';

const DAY_MS = 86_400_000;
/** Unchanged data is still re-derived once a day so the horizon keeps moving forward. */
const REDERIVE_UNCHANGED_AFTER_MS = DAY_MS;

/** Deps of the sync code; `calendarFetch` lets tests inject a guarded fetch (e.g. a short timeout). */
export type SyncDeps = Pick<Deps, 'db' | 'config' | 'logger' | 'now' | 'oauthProviders'> & { calendarFetch?: SafeFetch };

/** What we keep in calendar_connections.sync_state_json. */
export interface StoredSyncState {
  provider: unknown;
  ownerEmails: string[];
  derivedAt: number;
  /** OAuth connections: calendars to watch with push channels. */
  calendarIds?: string[];
  /** Legacy (before issue 23): the calendars' display names (`Record<calendarUrl, name>` as JSON), sealed. Read, no longer written. */
  calendarNamesSealed?: string;
  /** The calendars the last sync listed (calendar-selection.ts ListedCalendar[] as JSON), sealed (lib/crypto.ts sealContent): owner-only. */
  calendarsSealed?: string;
}

export interface SyncOutcome {
  connectionId: string;
  ok: boolean;
  /** True when the provider reported no change. */
  notModified: boolean;
  error?: string;
  /** True when another sync of this connection held the lease (nothing was done). */
  busy?: boolean;
  /** True when the claim no longer held: the connection was already synced (in this window, or after the request). */
  skipped?: boolean;
  /** After a failure: the earliest next attempt (UTC epoch ms), null when not retried (expired). */
  nextSyncAt?: number | null;
}

/** Back-off after the first failure; doubles per consecutive failure. */
export const SYNC_BACKOFF_BASE_MS = 60_000;
/** Longest back-off: the backup-sync period. */
export const SYNC_BACKOFF_MAX_MS = 15 * 60_000;

/**
 * Delay (ms) before the next attempt after a failed sync: ProviderRateLimitError → its
 * `retryAfterMs` (at least 1 s); anything else → 1 min × 2^(previous consecutive failures), at
 * most 15 min; ProviderAuthError → null (not retried until the owner reconnects).
 */
export function backoffDelayMs(err: unknown, previousFailures: number): number | null {
  if (err instanceof ProviderAuthError) return null;
  if (err instanceof ProviderRateLimitError) return Math.max(1_000, Math.round(err.retryAfterMs));
  const n = Math.max(0, Math.min(previousFailures, 20));
  return Math.min(SYNC_BACKOFF_MAX_MS, SYNC_BACKOFF_BASE_MS * 2 ** n);
}

export { DeriveError, deriveBusy, syncHorizon } from './derive.ts';

/**
 * The guarded fetch of calendar requests (lib/safe-fetch.ts). A refused private-network address
 * gets one warning in the server log that names ALLOW_PRIVATE_CALENDAR_HOSTS, for whoever runs the
 * server (the owner only sees "Address not allowed: private network"); no URL is logged (feed
 * URLs can be secrets).
 */
export function calendarFetchFor(deps: SyncDeps): SafeFetch {
  const guarded = deps.calendarFetch ?? createSafeFetch({ allowPrivate: deps.config.ALLOW_PRIVATE_CALENDAR_HOSTS });
  return async (input, init) => {
    try {
      return await guarded(input, init);
    } catch (err) {
      if (err instanceof SafeFetchError && err.code === 'address_not_allowed') {
        deps.logger.warn(
          { setting: 'ALLOW_PRIVATE_CALENDAR_HOSTS' },
          'calendar address refused: it resolves to a private or loopback network; to sync calendars on your own network (a local CalDAV server or ICS feed), start the server with ALLOW_PRIVATE_CALENDAR_HOSTS=true',
        );
      }
      throw err;
    }
  };
}

/** The connection's stored sync state, or null (never synced, unreadable). */
/**
 * The calendars' display names kept by the last sync (`Record<calendarUrl, name>`), or an empty
 * record (none stored, or unreadable: labels then fall back to derived ones).
 */
export function calendarNamesOf(conn: Pick<CalendarConnectionRow, 'sync_state_json'>, key: Uint8Array): Record<string, string> {
  const state = readState(conn);
  const list = openCalendarList(state?.calendarsSealed, key);
  if (list.length) return Object.fromEntries(list.filter((c) => c.name).map((c) => [c.id, c.name!]));
  const sealed = state?.calendarNamesSealed;
  if (!sealed) return {};
  try {
    const names = JSON.parse(openContent(sealed, key)) as unknown;
    return names && typeof names === 'object' ? (names as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** The calendars the last sync of `conn` listed (names, colours, defaults, first seen), or [] before any. */
export function calendarListOf(conn: Pick<CalendarConnectionRow, 'sync_state_json'>, key: Uint8Array): ListedCalendar[] {
  return openCalendarList(readState(conn)?.calendarsSealed, key);
}

/**
 * What the engine needs of the owner's calendar switches for `conn` with calendar list `list`:
 * the ids to derive as free, and how many calendars count as busy (calendar-selection.ts).
 */
function selectionOf(deps: SyncDeps, conn: Pick<CalendarConnectionRow, 'calendar_choices'>, list: readonly ListedCalendar[]) {
  const excludedCalendars = excludedCalendarIds(list, readChoices(conn, deps.config.AVAIL_SECRET_KEY));
  return { excludedCalendars, included: list.length - excludedCalendars.length };
}

export function readState(conn: Pick<CalendarConnectionRow, 'sync_state_json'>): StoredSyncState | null {
  if (!conn.sync_state_json) return null;
  try {
    const s = JSON.parse(conn.sync_state_json) as StoredSyncState;
    return s && typeof s === 'object' ? s : null;
  } catch {
    // Unreadable state = no state: the next sync is a full one, which rebuilds it.
    return null;
  }
}

async function ownerOf(deps: SyncDeps, userId: string) {
  const user = await findSyncOwner(deps.db, userId);
  if (!user) throw new Error('connection without user');
  return user;
}

export function ownerEmailsFor(userEmail: string, providerEmails: readonly string[]): string[] {
  return [...new Set([userEmail, ...providerEmails].map((e) => e.trim().toLowerCase()).filter(Boolean))];
}

/** Decrypted secret of a connection, or null; an unreadable secret means: reconnect (ProviderAuthError). */
export function secretOf(deps: Pick<SyncDeps, 'config'>, conn: Pick<CalendarConnectionRow, 'secret_enc'>): string | null {
  if (!conn.secret_enc) return null;
  try {
    return decryptSecret(conn.secret_enc, deps.config.AVAIL_SECRET_KEY);
  } catch {
    throw new ProviderAuthError('Saved credentials could not be read (the server key changed). Please reconnect this calendar.');
  }
}

/** Applies a provider result to the in-memory source set, the way applySourceChanges does in SQL. */
export function mergeSources(
  held: ReadonlyArray<{ calendarUrl: string; href: string; etag: string | null; icsText: string }>,
  result: Pick<ProviderSyncResult, 'upserts' | 'removals' | 'removedCalendars'>,
) {
  const key = (c: string, h: string) => `${c}\n${h}`;
  const map = new Map(held.map((s) => [key(s.calendarUrl, s.href), s]));
  for (const cal of result.removedCalendars) for (const [k, s] of map) if (s.calendarUrl === cal) map.delete(k);
  for (const r of result.removals) map.delete(key(r.calendarUrl, r.href));
  for (const u of result.upserts) map.set(key(u.calendarUrl, u.href), { ...u });
  return [...map.values()];
}

const inFlight = new Map<string, Promise<SyncOutcome>>();

/** The sync of `connectionId` running in this process, if any (the sync queue waits for it). */
export function syncInFlight(connectionId: string): Promise<SyncOutcome> | undefined {
  return inFlight.get(connectionId);
}

/**
 * Syncs one connection now (any provider), if `claim` still holds when its lease is taken
 * (sync-lease.repo.ts: `always` by default; `backup` = still due in this window; `requested` = no
 * sync began after the request). Concurrent calls for the same connection in this process share
 * one run (Sync Now during a backup sync does not fetch twice); across instances the DB lease and
 * claim decide, and the loser returns `{ ok: true, notModified: true, busy: true }` (another
 * instance is syncing it) or `{ ok: true, notModified: true, skipped: true }` (already synced)
 * without fetching. Never throws for provider or data problems: they end up on the connection
 * (status, last_error, next_sync_at back-off) and in the outcome.
 */
export function syncConnection(deps: SyncDeps, connectionId: string, claim: SyncClaim = { kind: 'always' }): Promise<SyncOutcome> {
  const running = inFlight.get(connectionId);
  if (running) return running;
  const run = syncConnectionLeased(deps, connectionId, claim).finally(() => inFlight.delete(connectionId));
  inFlight.set(connectionId, run);
  return run;
}

async function syncConnectionLeased(deps: SyncDeps, connectionId: string, claim: SyncClaim): Promise<SyncOutcome> {
  const leased = await acquireSyncLease(deps.db, connectionId, deps.now(), claim, deps.config.SYNC_LEASE_MS);
  if (!leased) {
    const conn = await repo.findConnectionById(deps.db, connectionId, deps.config.AVAIL_SECRET_KEY);
    if (!conn) return { connectionId, ok: false, notModified: false, error: 'Connection not found' };
    const held = conn.sync_lease_until != null && Number(conn.sync_lease_until) > deps.now();
    deps.logger.debug({ connectionId, claim: claim.kind, held }, held ? 'calendar sync skipped: lease held elsewhere' : 'calendar sync skipped: already synced');
    return held ? { connectionId, ok: true, notModified: true, busy: true } : { connectionId, ok: true, notModified: true, skipped: true };
  }
  try {
    return await syncConnectionOnce(deps, connectionId);
  } finally {
    await releaseSyncLease(deps.db, connectionId).catch((err) =>
      deps.logger.warn({ connectionId, errName: (err as Error)?.name }, 'sync lease release failed'),
    );
  }
}

/** Calendars to watch: the adapter's list, else `newState.calendarIds`, else the sources' calendars. */
function calendarIdsOf(result: OAuthSyncResult, sources: ReadonlyArray<{ calendarUrl: string }>): string[] {
  if (Array.isArray(result.calendarIds)) return result.calendarIds.filter((c): c is string => typeof c === 'string');
  const st = result.newState as { calendarIds?: unknown } | null;
  if (st && typeof st === 'object' && Array.isArray(st.calendarIds)) return st.calendarIds.filter((c): c is string => typeof c === 'string');
  return [...new Set(sources.map((s) => s.calendarUrl))];
}

/** Runs the provider of `conn` (pull adapter or OAuth adapter) with its decrypted secret. */
async function fetchChanges(
  deps: SyncDeps,
  conn: CalendarConnectionRow,
  state: unknown,
  known: Array<{ calendarUrl: string; href: string; etag: string | null }>,
): Promise<OAuthSyncResult> {
  const config = JSON.parse(conn.config_json || '{}');
  if (isPullProvider(conn.provider)) {
    return pullProviders[conn.provider].sync(
      { config, secret: secretOf(deps, conn), state, known },
      { fetch: calendarFetchFor(deps) },
    );
  }
  if (isOAuthProvider(conn.provider)) {
    const adapter = oauthProviderFor(deps, conn.provider);
    if (!adapter) throw new ProviderError(notConfiguredReason(conn.provider));
    const reason = adapter.unavailableReason(deps.config);
    if (reason) throw new ProviderError(reason);
    return adapter.sync(deps.config, { config, secret: secretOf(deps, conn), state, known });
  }
  throw new ProviderError('Unknown calendar provider.');
}

async function syncConnectionOnce(deps: SyncDeps, connectionId: string): Promise<SyncOutcome> {
  const conn = await repo.findConnectionById(deps.db, connectionId, deps.config.AVAIL_SECRET_KEY);
  if (!conn) return { connectionId, ok: false, notModified: false, error: 'Connection not found' };
  const started = Date.now();
  const stored = readState(conn);
  const held = (await repo.listSources(deps.db, conn.id, deps.config.AVAIL_SECRET_KEY)).map((s) => ({
    calendarUrl: s.calendar_url,
    href: s.object_href,
    etag: s.etag,
    icsText: s.ics_text,
  }));
  let newSecret: string | undefined;

  const fail = async (err: unknown): Promise<SyncOutcome> => {
    const expired = err instanceof ProviderAuthError;
    const message =
      err instanceof ProviderError || err instanceof DeriveError ? err.message : 'Calendar sync failed. Please try again later.';
    if (!(err instanceof ProviderError || err instanceof DeriveError)) {
      deps.logger.error({ connectionId: conn.id, provider: conn.provider, errName: (err as Error)?.name }, 'calendar sync crashed');
    }
    const failures = Number(conn.failure_count ?? 0);
    const delay = backoffDelayMs(err, failures);
    const nextSyncAt = delay == null ? null : deps.now() + delay;
    await replicatedWrite(deps, conn.user_id, (trx, stamp) =>
      repo.updateConnection(
        trx,
        conn,
        {
          status: expired ? 'expired' : 'error',
          last_error: message,
          failure_count: failures + 1,
          next_sync_at: nextSyncAt,
          ...(newSecret ? { secret_enc: encryptSecret(newSecret, deps.config.AVAIL_SECRET_KEY) } : {}),
        },
        stamp,
      ),
    );
    deps.logger.warn(
      {
        connectionId: conn.id,
        provider: conn.provider,
        status: expired ? 'expired' : 'error',
        errName: (err as Error)?.name,
        retryInMs: delay,
        failures: failures + 1,
        ms: Date.now() - started,
      },
      'calendar sync failed',
    );
    return { connectionId: conn.id, ok: false, notModified: false, error: message, nextSyncAt };
  };

  let result: OAuthSyncResult;
  try {
    result = await fetchChanges(
      deps,
      conn,
      stored?.provider ?? null,
      held.map(({ calendarUrl, href, etag }) => ({ calendarUrl, href, etag })),
    );
    newSecret = result.newSecret;
  } catch (err) {
    newSecret = secretOfError(err); // tokens refreshed before the failure are kept
    return fail(err);
  }

  const now = deps.now();
  try {
    const owner = await ownerOf(deps, conn.user_id);
    const providerEmails = result.ownerEmails.length ? result.ownerEmails : (stored?.ownerEmails ?? []);
    const previousList = openCalendarList(stored?.calendarsSealed, deps.config.AVAIL_SECRET_KEY);
    // A connection synced before calendar lists were recorded had every calendar busy: its calendars
    // keep counting (the owner switches them off); only calendars appearing later get the defaults.
    const upgrading = stored !== null && !stored.calendarsSealed && previousList.length === 0;
    const calendarList = mergeCalendarList(previousList, result.calendars, now).map((c) => (upgrading ? { ...c, busyByDefault: true } : c));
    const selection = selectionOf(deps, conn, calendarList);
    // A calendar's default can change with no event changing (Google access role, Graph canEdit).
    const selectionChanged = selectionOf(deps, conn, previousList).excludedCalendars.join('\n') !== selection.excludedCalendars.join('\n');
    const mustDerive =
      !result.notModified || selectionChanged || conn.status !== 'active' || !stored || now - stored.derivedAt > REDERIVE_UNCHANGED_AFTER_MS;
    const sources = result.notModified ? held : mergeSources(held, result);
    const derived = mustDerive
      ? await deriveOffThread(sources, {
          ownerZone: owner.timezone,
          ownerEmails: ownerEmailsFor(owner.email, providerEmails),
          now,
          busyRules: readBusyRules(conn.busy_rules_json),
          excludedCalendars: selection.excludedCalendars,
        })
      : null;
    const nextState: StoredSyncState = {
      provider: result.newState,
      ownerEmails: providerEmails,
      derivedAt: derived ? now : stored!.derivedAt,
      ...(isOAuthProvider(conn.provider) ? { calendarIds: calendarIdsOf(result, sources) } : {}),
      ...(calendarList.length
        ? { calendarsSealed: result.calendars ? sealCalendarList(calendarList, deps.config.AVAIL_SECRET_KEY) : stored!.calendarsSealed }
        : result.calendarNames
          ? { calendarNamesSealed: sealContent(JSON.stringify(result.calendarNames), deps.config.AVAIL_SECRET_KEY) }
          : stored?.calendarNamesSealed
            ? { calendarNamesSealed: stored.calendarNamesSealed }
            : {}),
    };
    await replicatedWrite(deps, conn.user_id, async (trx, stamp) => {
      if (!result.notModified) await repo.applySourceChanges(trx, conn, result, now, deps.config.AVAIL_SECRET_KEY);
      if (derived) await repo.replaceDerived(trx, conn, derived, stamp, deps.config.AVAIL_SECRET_KEY);
      await repo.updateConnection(trx, conn, {
        status: 'active',
        last_error: null,
        last_synced_at: now,
        failure_count: 0,
        next_sync_at: null,
        sync_state_json: JSON.stringify(nextState),
        calendars_count: result.calendarsCount,
        included_calendars_count: calendarList.length ? selection.included : result.calendarsCount,
        ...(derived ? { warnings_json: derived.warnings.length ? JSON.stringify(derived.warnings) : null } : {}),
        ...(result.newSecret ? { secret_enc: encryptSecret(result.newSecret, deps.config.AVAIL_SECRET_KEY) } : {}),
      }, stamp, deps.config.AVAIL_SECRET_KEY);
    });
    if (derived) await rederiveIfInputsChanged(deps, conn, owner.timezone);
    deps.logger.info(
      {
        connectionId: conn.id,
        provider: conn.provider,
        notModified: result.notModified,
        upserts: result.upserts.length,
        removals: result.removals.length,
        busyIntervals: derived?.intervals.length,
        ms: Date.now() - started,
      },
      'calendar synced',
    );
    return { connectionId: conn.id, ok: true, notModified: result.notModified };
  } catch (err) {
    return fail(err);
  }
}

/**
 * Marks a connection 'expired' with `message` (the provider refused its saved authorization,
 * seen outside a sync, e.g. while opening or renewing push channels): the owner sees the
 * reconnect message, and the backup sync leaves it alone (`next_sync_at` null) until they
 * reconnect — exactly what a sync does on ProviderAuthError.
 */
export async function markConnectionExpired(deps: SyncDeps, conn: Pick<CalendarConnectionRow, 'id' | 'user_id' | 'failure_count'>, message: string): Promise<void> {
  await replicatedWrite(deps, conn.user_id, (trx, stamp) =>
    repo.updateConnection(trx, conn, { status: 'expired', last_error: message, failure_count: Number(conn.failure_count ?? 0) + 1, next_sync_at: null }, stamp),
  );
  deps.logger.warn({ connectionId: conn.id, status: 'expired' }, 'calendar authorization refused; the owner must reconnect');
}

/**
 * After a sync wrote what it derived: when the owner saved other busy rules or another zone while
 * the sync ran (it derived with the values it read at its start), re-derives the connection from
 * the sources just stored with the current values, so the last write follows the owner's last
 * change (a save that lands after this check re-derives by itself).
 */
async function rederiveIfInputsChanged(deps: SyncDeps, conn: CalendarConnectionRow, usedZone: string): Promise<void> {
  const fresh = await repo.findConnectionById(deps.db, conn.id, deps.config.AVAIL_SECRET_KEY);
  if (!fresh) return;
  const owner = await ownerOf(deps, conn.user_id);
  if (fresh.busy_rules_json === conn.busy_rules_json && fresh.calendar_choices === conn.calendar_choices && owner.timezone === usedZone) return;
  deps.logger.info({ connectionId: conn.id }, 'busy rules, calendar switches or zone changed during the sync: re-deriving');
  await rederiveConnection(deps, fresh);
}

/** Re-derives one connection from its stored sources (no network). */
export async function rederiveConnection(deps: SyncDeps, conn: CalendarConnectionRow): Promise<SyncOutcome> {
  const owner = await ownerOf(deps, conn.user_id);
  const stored = readState(conn);
  const sources = (await repo.listSources(deps.db, conn.id, deps.config.AVAIL_SECRET_KEY)).map((s) => ({ icsText: s.ics_text, calendarUrl: s.calendar_url }));
  const now = deps.now();
  const calendarList = openCalendarList(stored?.calendarsSealed, deps.config.AVAIL_SECRET_KEY);
  const selection = selectionOf(deps, conn, calendarList);
  try {
    const derived = await deriveOffThread(sources, {
      ownerZone: owner.timezone,
      ownerEmails: ownerEmailsFor(owner.email, stored?.ownerEmails ?? []),
      now,
      busyRules: readBusyRules(conn.busy_rules_json),
      excludedCalendars: selection.excludedCalendars,
    });
    await replicatedWrite(deps, conn.user_id, async (trx, stamp) => {
      await repo.replaceDerived(trx, conn, derived, stamp, deps.config.AVAIL_SECRET_KEY);
      await repo.updateConnection(
        trx,
        conn,
        {
          warnings_json: derived.warnings.length ? JSON.stringify(derived.warnings) : null,
          ...(stored ? { sync_state_json: JSON.stringify({ ...stored, derivedAt: now }) } : {}),
          ...(calendarList.length ? { included_calendars_count: selection.included } : {}),
        },
        stamp,
        deps.config.AVAIL_SECRET_KEY,
      );
    });
    return { connectionId: conn.id, ok: true, notModified: true };
  } catch (err) {
    const message = err instanceof DeriveError ? err.message : 'Calendar data could not be read.';
    await replicatedWrite(deps, conn.user_id, (trx, stamp) =>
      repo.updateConnection(trx, conn, { status: 'error', last_error: message }, stamp),
    );
    return { connectionId: conn.id, ok: false, notModified: true, error: message };
  }
}

/**
 * The owner's time zone changed: floating and all-day events follow the new zone at once
 * (availability-semantics detail 14). Re-derives every connection of the user from stored
 * sources; no network. Call after the new zone is saved.
 */
export async function rederiveZoneDependentBusy(deps: SyncDeps, userId: string): Promise<SyncOutcome[]> {
  const conns = await repo.listConnections(deps.db, userId, deps.config.AVAIL_SECRET_KEY);
  const out: SyncOutcome[] = [];
  for (const conn of conns) {
    if (!isPullProvider(conn.provider) && !isOAuthProvider(conn.provider)) continue;
    out.push(await rederiveConnection(deps, conn));
  }
  return out;
}

/**
 * Syncs every connection of a user (Sync Now), pull and OAuth alike, in parallel. Expired
 * connections are tried too: Sync Now is the owner's explicit request. A connection whose sync
 * began after this request (another instance asked at the same moment) is not fetched again.
 */
export async function syncUser(deps: SyncDeps, userId: string): Promise<SyncOutcome[]> {
  const requestedAt = deps.now();
  const conns = await repo.listConnections(deps.db, userId, deps.config.AVAIL_SECRET_KEY);
  const pull = conns.filter((c) => isPullProvider(c.provider) || isOAuthProvider(c.provider));
  const settled = await Promise.allSettled(pull.map((c) => syncConnection(deps, c.id, { kind: 'requested', requestedAt })));
  return settled.map((s, i) =>
    s.status === 'fulfilled' ? s.value : { connectionId: pull[i]!.id, ok: false, notModified: false, error: 'Calendar sync failed.' },
  );
}

/**
 * Connections the backup sync plans over (status active or error), least recently synced first:
 * `{ id, provider, last_synced_at, next_sync_at }` (UTC ms or null). For the backup-sync job.
 */
export function backupSyncCandidates(deps: Pick<SyncDeps, 'db'>) {
  return repo.listBackupSyncCandidates(deps.db);
}

/** The provider of connection `id`, or undefined when it is gone. */
export async function providerOfConnection(deps: Pick<SyncDeps, 'db' | 'config'>, id: string): Promise<CalendarConnectionRow['provider'] | undefined> {
  return (await repo.findConnectionById(deps.db, id, deps.config.AVAIL_SECRET_KEY))?.provider;
}
