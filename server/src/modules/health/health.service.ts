/**
 * Liveness and readiness of this instance, for load balancers, orchestrators and the desktop app's
 * "Avail server" check.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/kysely.ts';
import { pendingMigrations } from '../../db/migrate.ts';

export type Readiness = { ready: true } | { ready: false; reason: string };

/**
 * Ready when the database answers a query and every migration is applied.
 * Never throws: a failure is `{ ready: false, reason }` with a short reason that names no secret
 * (no connection string, no driver message).
 */
export async function checkReadiness(db: Db): Promise<Readiness> {
  try {
    await sql`select 1`.execute(db);
  } catch {
    return { ready: false, reason: 'database unreachable' };
  }
  try {
    const pending = await pendingMigrations(db);
    if (pending.length) return { ready: false, reason: `migrations pending: ${pending.join(', ')}` };
  } catch {
    return { ready: false, reason: 'migration state unreadable' };
  }
  return { ready: true };
}
