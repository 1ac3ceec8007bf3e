/**
 * Retention of account data (run daily by jobs/purge.job.ts). The legal pages promise account data
 * is removed within 30 days of account deletion; DELETE /api/me already removes it at once, and
 * this sweep removes whatever is left or kept only for a while:
 * - rows of a user that no longer exists (any table with `user_id`, e.g. a page view or tombstone
 *   written by a request that raced the deletion): at once;
 * - login-throttle rows untouched for a day and not locked;
 * - password-reset codes that expired more than a day ago (a code lasts 30 minutes; the day keeps
 *   the "expired" answer meaningful meanwhile);
 * - e-mail verification codes and OAuth consent states that expired / started more than a day ago;
 * - replication conflict logs older than 30 days.
 * - sessions (bearer tokens) 30 days past their absolute end (SESSION_MAX_DAYS after sign-in; until
 *   then an expired one answers 401 session_expired, idle or not: sessions.service.ts purgeCutoffs);
 * - e-mail changes whose code expired more than a day ago.
 */
import type { Deps } from '../../http/deps.ts';
import { deleteConflictsBefore, deleteOAuthStatesBefore, deleteOrphanRows, deleteVerificationsExpiredBefore } from './account.repo.ts';
import { purgeThrottle } from './login-throttle.repo.ts';
import { LOGIN_THROTTLE_RETENTION_MS } from './login-throttle.service.ts';
import { deleteExpiredResets } from './password-reset.repo.ts';
import { deleteChangesExpiredBefore } from './email-change.repo.ts';
import { deleteExpiredSessions } from './sessions.repo.ts';
import { purgeCutoffs } from './sessions.service.ts';

const DAY_MS = 24 * 60 * 60_000;
/** Conflict logs are kept this long (ms) for diagnosis, then deleted. */
const CONFLICT_RETENTION_MS = 30 * DAY_MS;

export interface PurgeCounts {
  loginThrottle: number;
  passwordResets: number;
  emailVerifications: number;
  oauthStates: number;
  replicationConflicts: number;
  /** Sessions past their idle or absolute expiry. */
  expiredSessions: number;
  emailChanges: number;
  /** Rows of deleted users, per table (only tables that had some). */
  orphans: Record<string, number>;
}

/** Deletes what is no longer needed at `deps.now()` (UTC ms); returns the counts (no ids, no content). */
export async function purgeAuthLeftovers(deps: Pick<Deps, 'db' | 'now' | 'config'>): Promise<PurgeCounts> {
  const now = deps.now();
  return {
    loginThrottle: await purgeThrottle(deps.db, now - LOGIN_THROTTLE_RETENTION_MS, now),
    passwordResets: await deleteExpiredResets(deps.db, now - DAY_MS),
    emailVerifications: await deleteVerificationsExpiredBefore(deps.db, now - DAY_MS),
    oauthStates: await deleteOAuthStatesBefore(deps.db, now - DAY_MS),
    replicationConflicts: await deleteConflictsBefore(deps.db, now - CONFLICT_RETENTION_MS),
    expiredSessions: await deleteExpiredSessions(deps.db, purgeCutoffs(deps.config, now)),
    emailChanges: await deleteChangesExpiredBefore(deps.db, now - DAY_MS),
    orphans: await deleteOrphanRows(deps.db),
  };
}
