/** SQL for sessions (`auth_tokens` rows: one per bearer token; only the token's SHA-256 is stored). */
import type { Db } from '../../db/kysely.ts';

/** A session as listed: id, label, `created_at` / `last_used_at` UTC epoch ms. */
export interface SessionRow {
  id: string;
  label: string;
  created_at: number;
  last_used_at: number;
}

/**
 * The user's sessions still alive at the cut-offs: used at or after `idleBefore` and created at
 * or after `createdBefore` (UTC ms; older ones are expired and not listed), newest use first.
 */
export async function listSessions(db: Db, userId: string, cutoffs: { usedAfter: number; createdAfter: number }): Promise<SessionRow[]> {
  const rows = await db
    .selectFrom('auth_tokens')
    .select(['id', 'label', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .where('last_used_at', '>', cutoffs.usedAfter)
    .where('created_at', '>', cutoffs.createdAfter)
    .orderBy('last_used_at', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, label: r.label, created_at: Number(r.created_at), last_used_at: Number(r.last_used_at) }));
}

/** Ends one session of the user. @returns false when `sessionId` is not one of the user's sessions. */
export async function deleteSession(db: Db, userId: string, sessionId: string): Promise<boolean> {
  const res = await db.deleteFrom('auth_tokens').where('id', '=', sessionId).where('user_id', '=', userId).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** Ends every session of the user except `keepId`; returns how many ended. */
export async function deleteOtherSessions(db: Db, userId: string, keepId: string): Promise<number> {
  const res = await db.deleteFrom('auth_tokens').where('user_id', '=', userId).where('id', '!=', keepId).executeTakeFirst();
  return Number(res.numDeletedRows);
}

/**
 * Deletes every session expired at the cut-offs (last used at or before `usedAfter`, or created at
 * or before `createdAfter`, UTC ms) of any user (the purge job); returns how many.
 */
export async function deleteExpiredSessions(db: Db, cutoffs: { usedAfter: number; createdAfter: number }): Promise<number> {
  const res = await db
    .deleteFrom('auth_tokens')
    .where((eb) => eb.or([eb('last_used_at', '<=', cutoffs.usedAfter), eb('created_at', '<=', cutoffs.createdAfter)]))
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
