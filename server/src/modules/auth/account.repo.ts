/**
 * SQL of deleting an account: every row that belongs to the user, children before parents (the
 * foreign keys), in the caller's transaction. The list is every table with a `user_id` column;
 * account.test.ts reads the schema and fails when a new one is missing here.
 */
import type { Transaction } from 'kysely';
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
  'page_views',
  'replication_tombstones',
  'replication_conflicts',
  'oauth_states',
  'password_resets',
  'email_verifications',
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
