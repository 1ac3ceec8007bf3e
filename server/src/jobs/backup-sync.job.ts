/**
 * Backup sync (spec §1/§9: "a backup sync every 15 minutes alongside real-time webhooks"), for
 * every provider (ICS, CalDAV, Apple, Google, Microsoft). Instead of syncing every connection at
 * once every 15 minutes, the job runs every minute and syncs the connections that are due, so the
 * load is spread over the interval:
 *
 * - each connection has a stable slot = sha256(id) mod 15 (minutes); its backup times are
 *   slot + k·15 min (UTC epoch ms). It is due when its last successful sync (`last_synced_at`) is
 *   older than its latest backup time — so never more than 15 minutes stale, and a connection just
 *   synced by a webhook or Sync Now is not synced again before its next slot;
 * - after a failure the back-off decides instead: due once `next_sync_at` ≤ now (Retry-After, or
 *   1, 2, 4 … 15 min — see sync.service.ts);
 * - status 'expired' is never synced here (retrying refused credentials can lock accounts; the
 *   owner reconnects).
 *
 * Exactly once per window across instances: whether a connection is still due is checked again
 * when its sync takes the lease, in the same compare-and-set (sync-lease.repo.ts, claim `backup`).
 *
 * Where the runner has a shared sync queue (pg-boss on PostgreSQL), the job only plans: it queues
 * one backup sync per due connection and every instance's workers run them (`syncDueConnection`).
 * Otherwise (one process, SQLite) it syncs them itself, SYNC_WORKERS at a time. After a successful
 * sync of an OAuth connection, push channels missing for its calendars are opened.
 */
import { createHash } from 'node:crypto';
import { BACKUP_SYNC_INTERVAL_MS } from '@avail/shared/constants.ts';
import { openMissingChannels } from '../modules/oauth/index.ts';
import { isOAuthProvider } from '../providers/oauth-registry.ts';
import { backupSyncCandidates, providerOfConnection, syncConnection, type SyncOutcome } from '../modules/sync/index.ts';
import type { Job, JobDeps } from './job-runner.ts';

const BACKUP_SYNC_BATCH_SIZE = 5;
/** The job's tick (ms): every minute, the connections whose slot came up are synced. */
const BACKUP_SYNC_TICK_MS = 60_000;
/** Number of slots in the 15-minute interval (one per minute). */
const BACKUP_SYNC_SLOTS = BACKUP_SYNC_INTERVAL_MS / BACKUP_SYNC_TICK_MS;

export interface BackupSyncCounts {
  /** Connections due in this run. */
  total: number;
  synced: number;
  unchanged: number;
  failed: number;
  /** Already synced in this window by another instance (or taken by its lease): nothing fetched. */
  skipped: number;
  /** Queued on the shared sync queue (pg-boss); the counts above are then 0. */
  queued: number;
}

/** Stable slot (0–14) of a connection id: its backup minute within each 15-minute interval. */
export function backupSlotOf(connectionId: string): number {
  return createHash('sha256').update(connectionId).digest().readUInt32BE(0) % BACKUP_SYNC_SLOTS;
}

/** The latest backup time of `connectionId` at or before `now` (UTC epoch ms). */
export function lastBackupTime(connectionId: string, now: number): number {
  const phase = backupSlotOf(connectionId) * BACKUP_SYNC_TICK_MS;
  return Math.floor((now - phase) / BACKUP_SYNC_INTERVAL_MS) * BACKUP_SYNC_INTERVAL_MS + phase;
}

/**
 * Whether the backup sync should sync this connection at `now` (UTC epoch ms); see the module
 * comment. Expects a candidate row (status active or error).
 */
function isBackupDue(c: { id: string; last_synced_at: number | null; next_sync_at: number | null }, now: number): boolean {
  if (c.next_sync_at != null) return Number(c.next_sync_at) <= now;
  if (c.last_synced_at == null) return true;
  return Number(c.last_synced_at) < lastBackupTime(c.id, now);
}

/**
 * One backup sync of `connectionId`, if it is still due when its lease is taken (claim `backup`
 * with its latest backup time at `deps.now()`); then, for a synced OAuth connection, opens missing
 * push channels (never throws for that part). Resolves to the sync's outcome.
 */
export async function syncDueConnection(deps: JobDeps, connectionId: string, provider?: string): Promise<SyncOutcome> {
  const outcome = await syncConnection(deps, connectionId, { kind: 'backup', lastBackupAt: lastBackupTime(connectionId, deps.now()) });
  if (outcome.ok && !outcome.busy && !outcome.skipped) {
    // OAuth: calendars without a push channel (first connect could not open one, a calendar was
    // added) get one now rather than at the next hourly upkeep.
    const p = provider ?? (await providerOfConnection(deps, connectionId));
    if (p && isOAuthProvider(p)) await openMissingChannels(deps, connectionId);
  }
  return outcome;
}

/** The backup-sync job: every tick (BACKUP_SYNC_TICK_MS, default a minute), the due connections are queued or synced (module comment); resolves to its counts. */
export function backupSyncJob(tickMs: number = BACKUP_SYNC_TICK_MS): Job {
  return {
    name: 'backup-sync',
    intervalMs: tickMs,
    async run(deps, ctx): Promise<BackupSyncCounts> {
      const started = Date.now();
      const now = deps.now();
      const candidates = (await backupSyncCandidates(deps)).filter((c) => isBackupDue(c, now));
      const counts: BackupSyncCounts = { total: candidates.length, synced: 0, unchanged: 0, failed: 0, skipped: 0, queued: 0 };
      if (ctx.enqueueBackupSyncs) {
        counts.queued = await ctx.enqueueBackupSyncs(candidates.map((c) => c.id));
      } else {
        const size = Math.max(1, deps.config.SYNC_WORKERS ?? BACKUP_SYNC_BATCH_SIZE);
        for (let i = 0; i < candidates.length; i += size) {
          if (ctx.isStopping()) break;
          const batch = candidates.slice(i, i + size);
          const settled = await Promise.allSettled(batch.map((c) => syncDueConnection(deps, c.id, c.provider)));
          for (const s of settled) {
            if (s.status === 'rejected' || !s.value.ok) counts.failed++;
            else if (s.value.busy || s.value.skipped) counts.skipped++;
            else if (s.value.notModified) counts.unchanged++;
            else counts.synced++;
          }
        }
      }
      if (counts.total > 0) deps.logger.info({ job: 'backup-sync', ...counts, ms: Date.now() - started }, 'backup sync finished');
      return counts;
    },
  };
}
