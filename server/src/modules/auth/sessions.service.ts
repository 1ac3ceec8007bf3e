/**
 * Sessions (issue 26; docs/account-security.md "Sessions"): every bearer token is a session the
 * owner can list and end. Expiry itself is checked on each request (http/authenticate.ts).
 */
import type { Config } from '../../config.ts';
import type { Deps } from '../../http/deps.ts';
import { notFound } from '../../http/errors.ts';
import * as sessionsRepo from './sessions.repo.ts';

const DAY_MS = 86_400_000;

/** A session in answers: times as ISO 8601 UTC strings; `current` = the token of this request. */
export interface SessionJson {
  id: string;
  label: string;
  created_at: string;
  last_used_at: string;
  current: boolean;
}

/**
 * The expiry cut-offs at `now` (UTC ms): a session last used at or before `usedAfter` is idle for
 * SESSION_IDLE_DAYS, one created at or before `createdAfter` is SESSION_MAX_DAYS old.
 * Same rule as http/authenticate.ts sessionExpired.
 */
function expiryCutoffs(config: Pick<Config, 'SESSION_IDLE_DAYS' | 'SESSION_MAX_DAYS'>, now: number) {
  return { usedAfter: now - config.SESSION_IDLE_DAYS * DAY_MS, createdAfter: now - config.SESSION_MAX_DAYS * DAY_MS };
}

/** How long (ms) an expired session's row is kept past its absolute end, answering `session_expired`. */
const EXPIRED_SESSION_KEEP_MS = 30 * DAY_MS;

/**
 * The purge's cut-offs: a session row is deleted once its absolute end (`SESSION_MAX_DAYS` after
 * sign-in) is EXPIRED_SESSION_KEEP_MS past — every expired session, idle or not, is past it by
 * then at the latest. Until then an expired token answers 401 `session_expired` (not a plain
 * `unauthenticated`, which the app reads as "signed out elsewhere" and deletes the device's data).
 */
export function purgeCutoffs(config: Pick<Config, 'SESSION_MAX_DAYS'>, now: number) {
  const end = now - config.SESSION_MAX_DAYS * DAY_MS - EXPIRED_SESSION_KEEP_MS;
  // last_used_at ≥ created_at: a row last used before `end` was also created before it.
  return { usedAfter: end, createdAfter: end };
}

/**
 * GET /api/me/sessions: the user's live sessions, the current one (`currentId`) first, then by
 * `last_used_at` newest first. Expired sessions not yet purged are left out.
 * @returns `{ sessions: SessionJson[] }`.
 */
export async function listSessions(deps: Pick<Deps, 'db' | 'config' | 'now'>, userId: string, currentId: string): Promise<{ sessions: SessionJson[] }> {
  const rows = await sessionsRepo.listSessions(deps.db, userId, expiryCutoffs(deps.config, deps.now()));
  const sessions = rows.map((r) => ({
    id: r.id,
    label: r.label,
    created_at: new Date(r.created_at).toISOString(),
    last_used_at: new Date(r.last_used_at).toISOString(),
    current: r.id === currentId,
  }));
  sessions.sort((a, b) => Number(b.current) - Number(a.current));
  return { sessions };
}

/**
 * DELETE /api/me/sessions/{id}: ends one of the user's sessions (the current one too: its token
 * stops working at once). @throws 404 `not_found` when `sessionId` is not one of the user's.
 */
export async function endSession(deps: Pick<Deps, 'db' | 'logger'>, userId: string, sessionId: string): Promise<void> {
  if (!(await sessionsRepo.deleteSession(deps.db, userId, sessionId))) throw notFound();
  deps.logger.info({ userId }, 'session ended by its owner');
}

/** DELETE /api/me/sessions: ends every session of the user but `currentId`. @returns `{ ended: n }`. */
export async function endOtherSessions(deps: Pick<Deps, 'db' | 'logger'>, userId: string, currentId: string): Promise<{ ended: number }> {
  const ended = await sessionsRepo.deleteOtherSessions(deps.db, userId, currentId);
  if (ended > 0) deps.logger.info({ userId, ended }, 'other sessions ended by their owner');
  return { ended };
}
