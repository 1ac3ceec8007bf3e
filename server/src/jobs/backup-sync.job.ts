/**
 * Backup sync (every 15 minutes): every pull connection whose status is active or error is
 * synced, a few at a time (Promise.allSettled per batch), with counts in the log. Expired
 * connections wait for the owner to reconnect (retrying refused credentials can lock accounts).
 */
import { BACKUP_SYNC_INTERVAL_MS } from '@avail/shared/constants.ts';
import { listBackupSyncCandidates } from '../modules/calendars/calendars.repo.ts';
import { syncConnection } from '../modules/sync/sync.service.ts';
import type { Job } from './scheduler.ts';

export const BACKUP_SYNC_BATCH_SIZE = 5;

export interface BackupSyncCounts {
  total: number;
  synced: number;
  unchanged: number;
  failed: number;
}

export function backupSyncJob(): Job {
  return {
    name: 'backup-sync',
    intervalMs: BACKUP_SYNC_INTERVAL_MS,
    async run(deps, ctx): Promise<BackupSyncCounts> {
      const started = Date.now();
      const candidates = await listBackupSyncCandidates(deps.db);
      const counts: BackupSyncCounts = { total: candidates.length, synced: 0, unchanged: 0, failed: 0 };
      for (let i = 0; i < candidates.length; i += BACKUP_SYNC_BATCH_SIZE) {
        if (ctx.isStopping()) break;
        const batch = candidates.slice(i, i + BACKUP_SYNC_BATCH_SIZE);
        const settled = await Promise.allSettled(batch.map((c) => syncConnection(deps, c.id)));
        for (const s of settled) {
          if (s.status === 'rejected' || !s.value.ok) counts.failed++;
          else if (s.value.notModified) counts.unchanged++;
          else counts.synced++;
        }
      }
      deps.logger.info({ job: 'backup-sync', ...counts, ms: Date.now() - started }, 'backup sync finished');
      return counts;
    },
  };
}
