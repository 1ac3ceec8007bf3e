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
 * Due connections are synced a few at a time (Promise.allSettled per batch) with counts in the log;
 * after a successful sync of an OAuth connection, push channels missing for its calendars are opened.
 */
import { createHash } from 'node:crypto';
import { BACKUP_SYNC_INTERVAL_MS } from '@avail/shared/constants.ts';
import { listBackupSyncCandidates } from '../modules/calendars/calendars.repo.ts';
import { openMissingChannels } from '../modules/oauth/push.service.ts';
import { syncConnection } from '../modules/sync/sync.service.ts';
import { isOAuthProvider } from '../providers/oauth-registry.ts';
import type { Job } from './scheduler.ts';

export const BACKUP_SYNC_BATCH_SIZE = 5;
/** The job's tick (ms): every minute, the connections whose slot came up are synced. */
export const BACKUP_SYNC_TICK_MS = 60_000;
/** Number of slots in the 15-minute interval (one per minute). */
export const BACKUP_SYNC_SLOTS = BACKUP_SYNC_INTERVAL_MS / BACKUP_SYNC_TICK_MS;

export interface BackupSyncCounts {
  /** Connections due in this run. */
  total: number;
  synced: number;
  unchanged: number;
  failed: number;
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
export function isBackupDue(c: { id: string; last_synced_at: number | null; next_sync_at: number | null }, now: number): boolean {
  if (c.next_sync_at != null) return Number(c.next_sync_at) <= now;
  if (c.last_synced_at == null) return true;
  return Number(c.last_synced_at) < lastBackupTime(c.id, now);
}

/** The backup-sync job: every minute, syncs the due connections (module comment); resolves to its counts. */
export function backupSyncJob(): Job {
  return {
    name: 'backup-sync',
    intervalMs: BACKUP_SYNC_TICK_MS,
    async run(deps, ctx): Promise<BackupSyncCounts> {
      const started = Date.now();
      const now = deps.now();
      const candidates = (await listBackupSyncCandidates(deps.db)).filter((c) => isBackupDue(c, now));
      const counts: BackupSyncCounts = { total: candidates.length, synced: 0, unchanged: 0, failed: 0 };
      for (let i = 0; i < candidates.length; i += BACKUP_SYNC_BATCH_SIZE) {
        if (ctx.isStopping()) break;
        const batch = candidates.slice(i, i + BACKUP_SYNC_BATCH_SIZE);
        const settled = await Promise.allSettled(batch.map((c) => syncConnection(deps, c.id)));
        for (const [k, s] of settled.entries()) {
          if (s.status === 'rejected' || !s.value.ok) counts.failed++;
          else if (s.value.notModified) counts.unchanged++;
          else counts.synced++;
          // OAuth: calendars without a push channel (first connect could not open one, a calendar
          // was added) get one now rather than at the next hourly upkeep. Never throws.
          if (s.status === 'fulfilled' && s.value.ok && !s.value.busy && isOAuthProvider(batch[k]!.provider)) {
            await openMissingChannels(deps, batch[k]!.id);
          }
        }
      }
      if (counts.total > 0) deps.logger.info({ job: 'backup-sync', ...counts, ms: Date.now() - started }, 'backup sync finished');
      return counts;
    },
  };
}
