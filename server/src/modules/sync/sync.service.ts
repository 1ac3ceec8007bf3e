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
 * - syncUser: every connection of a user (Sync Now).
 * - Re-deriving from stored sources without the network (zone, busy rules, calendar switches):
 *   rederive.service.ts; the stored sync state and owner this builds on: sync-state.ts.
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
import { encryptSecret, sealContent } from '../../lib/crypto.ts';
import { calendarFetchFor } from '../../providers/calendar-fetch.ts';
import { isPullProvider, pullProviders } from '../../providers/index.ts';
import { ProviderRateLimitError, secretOfError, type OAuthSyncResult } from '../../providers/oauth-provider.ts';
import { isOAuthProvider, notConfiguredReason, oauthProviderFor } from '../../providers/oauth-registry.ts';
import { ProviderAuthError, ProviderError, type ProviderSyncResult } from '../../providers/provider.ts';
import { acquireSyncLease, releaseSyncLease, type SyncClaim } from './sync-lease.repo.ts';
import * as repo from '../../store/calendars.repo.ts';
import { replicatedWrite } from '../../store/repl-clock.repo.ts';
import { DeriveError } from './derive.ts';
import { mergeCalendarList, openCalendarList, sealCalendarList } from './calendar-selection.ts';
import { deriveOffThread } from './derive-pool.ts';
import { rederiveIfInputsChanged } from './rederive.service.ts';
import { ownerEmailsFor, ownerOf, readState, secretOf, selectionOf, type StoredSyncState, type SyncDeps, type SyncOutcome } from './sync-state.ts';

const DAY_MS = 86_400_000;
/** Unchanged data is still re-derived once a day so the horizon keeps moving forward. */
const REDERIVE_UNCHANGED_AFTER_MS = DAY_MS;

/** Back-off after the first failure; doubles per consecutive failure. */
const SYNC_BACKOFF_BASE_MS = 60_000;
/** Longest back-off: the backup-sync period. */
export const SYNC_BACKOFF_MAX_MS = 15 * 60_000;

/**
 * Delay (ms) before the next attempt after a failed sync: ProviderRateLimitError → its
 * `retryAfterMs` (at least 1 s); anything else → 1 min × 2^(previous consecutive failures), at
 * most 15 min; ProviderAuthError → null (not retried until the owner reconnects).
 */
function backoffDelayMs(err: unknown, previousFailures: number): number | null {
  if (err instanceof ProviderAuthError) return null;
  if (err instanceof ProviderRateLimitError) return Math.max(1_000, Math.round(err.retryAfterMs));
  const n = Math.max(0, Math.min(previousFailures, 20));
  return Math.min(SYNC_BACKOFF_MAX_MS, SYNC_BACKOFF_BASE_MS * 2 ** n);
}

/** Applies a provider result to the in-memory source set, the way applySourceChanges does in SQL. */
function mergeSources(
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
