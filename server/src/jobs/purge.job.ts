/**
 * The daily purge (issue 12): rows kept only for a while are deleted when their time is up, so
 * nothing lingers past what the privacy page promises (modules' own retention rules; see
 * modules/auth/auth-purge.service.ts). Logs counts only.
 */
import { purgeAuthLeftovers } from '../modules/auth/auth-purge.service.ts';
import type { Job } from './scheduler.ts';

export const PURGE_INTERVAL_MS = 24 * 60 * 60_000;

/** The purge job (daily, and once shortly after start); resolves to the counts per table. */
export function purgeJob(): Job {
  return {
    name: 'purge',
    intervalMs: PURGE_INTERVAL_MS,
    runOnStart: true,
    async run(deps) {
      const counts = await purgeAuthLeftovers(deps);
      if (counts.loginThrottle || counts.passwordResets) deps.logger.info({ job: 'purge', ...counts }, 'expired rows purged');
      return counts;
    },
  };
}
