/**
 * Retention of the auth module's short-lived rows (run daily by jobs/purge.job.ts): login-throttle
 * rows untouched for a day and not locked, and password-reset codes that expired more than a day
 * ago (a reset code lasts 30 minutes; the day keeps the "expired" answer meaningful meanwhile).
 */
import type { Deps } from '../../http/deps.ts';
import { purgeThrottle } from './login-throttle.repo.ts';
import { LOGIN_THROTTLE_RETENTION_MS } from './login-throttle.service.ts';
import { deleteExpiredResets } from './password-reset.repo.ts';

const DAY_MS = 24 * 60 * 60_000;

/** Deletes what the auth module no longer needs at `deps.now()`; returns the counts per table. */
export async function purgeAuthLeftovers(deps: Pick<Deps, 'db' | 'now'>): Promise<{ loginThrottle: number; passwordResets: number }> {
  const now = deps.now();
  const loginThrottle = await purgeThrottle(deps.db, now - LOGIN_THROTTLE_RETENTION_MS, now);
  const passwordResets = await deleteExpiredResets(deps.db, now - DAY_MS);
  return { loginThrottle, passwordResets };
}
