/**
 * The daily purge (issue 12): rows kept only for a while are deleted when their time is up, so
 * nothing lingers past what the privacy page promises (modules' own retention rules; see
 * modules/auth/auth-purge.service.ts). Logs counts only.
 */
import { purgeAuthLeftovers } from '../modules/auth/index.ts';
import type { Job } from './job-runner.ts';

const PURGE_INTERVAL_MS = 24 * 60 * 60_000;

/**
 * The purge job (daily, and once at start): keeps the promise "account data deleted within 30 days
 * of account deletion" and drops short-lived rows once useless (see auth-purge.service.ts for each
 * table's rule). Resolves to PurgeCounts.
 */
export function purgeJob(): Job {
  return {
    name: 'purge',
    intervalMs: PURGE_INTERVAL_MS,
    runOnStart: true,
    async run(deps) {
      const counts = await purgeAuthLeftovers(deps);
      const { orphans, ...expired } = counts;
      const total = [...Object.values(expired), ...Object.values(orphans)].reduce((a, b) => a + b, 0);
      if (total > 0) deps.logger.info({ job: 'purge', ...counts }, 'expired rows purged');
      return counts;
    },
  };
}
