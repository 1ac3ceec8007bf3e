/**
 * SQL of deleting an account: every row that belongs to the user, children before parents (the
 * foreign keys), in the caller's transaction. The list is every table with a `user_id` column;
 * account.test.ts reads the schema and fails when a new one is missing here. Also the retention
 * sweeps of the daily purge (orphans of deleted users, expired short-lived rows).
 */
import type { Kysely, Transaction } from 'kysely';
import type { Db } from '../../db/kysely.ts';
import type { Database } from '../../db/schema.ts';

/** Tables holding a user's rows, in deletion order (children first); `users` comes last, separately. */
export const USER_TABLES = [
  'push_channels',
  'calendar_events',
  'busy_intervals',
  'calendar_sources',
  'calendar_connections',
  'availability_rules',
  'availability_exceptions',
  'busy_blocks',
  'proposals',
  // Its share_link_views go with it (foreign key, on delete cascade, on both databases).
  'share_links',
  // The owner's picture (issue 22; also on delete cascade).
  'user_avatars',
  'page_views',
  'replication_tombstones',
  'replication_conflicts',
  'oauth_states',
  'password_resets',
  'email_verifications',
  // A pending e-mail change (issue 26; also on delete cascade).
  'email_changes',
  // Two-factor sign-in (issue 26): the sealed TOTP secrets and the hashed recovery codes (also on delete cascade).
  'two_factor_recovery_codes',
  'two_factor_secrets',
  'auth_tokens',
] as const satisfies ReadonlyArray<keyof Database>;

/** Deletes the user and all their rows; returns the number of rows deleted per table. */
export async function deleteAccountRows(trx: Transaction<Database>, userId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of USER_TABLES) {
    const res = await trx.deleteFrom(table).where('user_id', '=', userId).executeTakeFirst();
    counts[table] = Number(res.numDeletedRows);
  }
  const res = await trx.deleteFrom('users').where('id', '=', userId).executeTakeFirst();
  counts.users = Number(res.numDeletedRows);
  return counts;
}

/**
 * Retention sweep (the daily purge job): rows of USER_TABLES whose `user_id` names no user any
 * more — e.g. a page view or tombstone written by a request that raced an account deletion, or a
 * row of a table without a foreign key to `users`. Deleted at once (no grace period: the account
 * is gone). Returns the count per table (tables with none left out).
 */
export async function deleteOrphanRows(db: Db): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const anyDb = db as unknown as Kysely<Record<string, { user_id: string }> & { users: { id: string } }>;
  for (const table of USER_TABLES) {
    const res = await anyDb
      .deleteFrom(table)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('users').select('users.id').whereRef('users.id', '=', `${table}.user_id`))))
      .executeTakeFirst();
    const n = Number(res.numDeletedRows);
    if (n > 0) out[table] = n;
  }
  return out;
}

/**
 * Time-based retention of rows kept only for a while (the daily purge job); each deletes rows
 * strictly older than `before` (UTC ms) and returns how many:
 * - replication conflicts (the losing state of a push, kept for diagnosis) by `created_at`;
 * - OAuth consent states (valid 10 minutes; normally cleaned when the next consent starts) by `created_at`;
 * - e-mail verification codes by `expires_at` (the "code expired" answer stays until then; after it,
 *   the code is answered as invalid and a new one can be requested as before).
 */
export async function deleteConflictsBefore(db: Db, before: number): Promise<number> {
  return Number((await db.deleteFrom('replication_conflicts').where('created_at', '<', before).executeTakeFirst()).numDeletedRows);
}
export async function deleteOAuthStatesBefore(db: Db, before: number): Promise<number> {
  return Number((await db.deleteFrom('oauth_states').where('created_at', '<', before).executeTakeFirst()).numDeletedRows);
}
export async function deleteVerificationsExpiredBefore(db: Db, before: number): Promise<number> {
  return Number((await db.deleteFrom('email_verifications').where('expires_at', '<', before).executeTakeFirst()).numDeletedRows);
}
