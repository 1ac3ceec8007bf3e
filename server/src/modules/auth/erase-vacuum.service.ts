/**
 * "Deletes leave nothing" on PostgreSQL (issue 26). A DELETE leaves the row's bytes in the table's
 * heap pages (and its index entries in the index pages) until the space is reused; a plain VACUUM
 * marks the space reusable but does not zero it. `VACUUM FULL` copies the live rows into new files
 * (heap, TOAST and every index rebuilt) and unlinks the old ones, so nothing of a deleted owner is
 * left in the table files.
 *
 * After an account deletion on PostgreSQL, `scheduleEraseVacuum` asks for one run of
 * `vacuumErasedTables` ERASE_VACUUM_DELAY_S seconds later (default 60), off the request:
 * - with the job engine running (pg-boss, jobs/pg-boss.runner.ts) it is a job on the `erase-vacuum`
 *   queue (policy `stately`, one singleton key): deletions while a run is waiting join it, so many
 *   deletions in a minute cause one run, on one instance;
 * - without it (a process that did not start the jobs) an in-process timer does the same, debounced.
 * On SQLite nothing is scheduled: `secure_delete` and the checkpoint did it (db/kysely.ts
 * purgeDeletedRows).
 *
 * Each table is vacuumed on its own (`VACUUM (FULL, ANALYZE) <table>`: VACUUM cannot run inside a
 * transaction, and each takes an ACCESS EXCLUSIVE lock on its table only, for as long as copying
 * that table takes — proportional to the table's size: measured in review, 5.8 s for 400,000
 * events — during which the table can be neither read nor written). Waiting for that lock is
 * bounded (ERASE_VACUUM_LOCK_TIMEOUT_MS): a table whose lock is not free is left for the retry. ANALYZE refreshes the planner's sampled values
 * (pg_statistic), which could otherwise still name a deleted owner.
 * What still holds copies afterwards: the WAL segments until PostgreSQL recycles them, backups and
 * replicas (README, "What is stored").
 */
import { sql } from 'kysely';
import type { Db } from '../../db/kysely.ts';
import type { Database } from '../../db/schema.ts';
import type { Deps } from '../../http/deps.ts';
import { USER_TABLES } from './account.repo.ts';

/** The pg-boss queue of the vacuum after account deletions. */
export const ERASE_VACUUM_QUEUE = 'erase-vacuum';

/**
 * Tables that held a deleted owner's rows: every USER_TABLES table, `users`, the views of their
 * personal links (deleted by cascade) and the login throttle (keyed by an HMAC of the e-mail,
 * vacuumed all the same).
 */
export const ERASED_TABLES: readonly (keyof Database)[] = [...USER_TABLES, 'share_link_views', 'login_throttle', 'users'];

/** Sends a vacuum request to the job engine (delay in seconds); set by the pg-boss runner. */
export type EraseVacuumDispatcher = (delaySeconds: number) => Promise<void>;

const dispatchers = new WeakMap<Db, EraseVacuumDispatcher>();
const localTimers = new WeakMap<Db, NodeJS.Timeout>();

/** Routes `scheduleEraseVacuum` for `db` to the job engine (pg-boss runner start), or back to the in-process timer (null, at stop). */
export function setEraseVacuumDispatcher(db: Db, dispatcher: EraseVacuumDispatcher | null): void {
  if (dispatcher) dispatchers.set(db, dispatcher);
  else dispatchers.delete(db);
}

/**
 * After an account deletion: on PostgreSQL, one `vacuumErasedTables` run ERASE_VACUUM_DELAY_S
 * seconds from now, unless one is already waiting (then that one covers this deletion too).
 * Never throws (a failure to queue is logged; the deletion itself has happened). SQLite: nothing.
 */
export async function scheduleEraseVacuum(deps: Pick<Deps, 'db' | 'config' | 'logger'>): Promise<void> {
  if (!deps.config.DATABASE_URL) return;
  const delaySeconds = deps.config.ERASE_VACUUM_DELAY_S;
  const dispatcher = dispatchers.get(deps.db);
  if (dispatcher) {
    try {
      await dispatcher(delaySeconds);
      return;
    } catch (err) {
      deps.logger.warn({ job: ERASE_VACUUM_QUEUE, errName: (err as Error)?.name, errMessage: (err as Error)?.message }, 'erase vacuum could not be queued; running it in this process');
    }
  }
  if (localTimers.has(deps.db)) return; // a waiting run covers this deletion
  const timer = setTimeout(() => {
    localTimers.delete(deps.db);
    vacuumErasedTables(deps).catch((err: Error) => deps.logger.error({ job: ERASE_VACUUM_QUEUE, errName: err?.name, errMessage: err?.message }, 'erase vacuum failed'));
  }, delaySeconds * 1000);
  timer.unref();
  localTimers.set(deps.db, timer);
}

/** How long (ms) a table's VACUUM FULL may wait for its ACCESS EXCLUSIVE lock before giving up (the job retries later). */
export const ERASE_VACUUM_LOCK_TIMEOUT_MS = 2_000;

/**
 * Rewrites every ERASED_TABLES table with `VACUUM (FULL, ANALYZE)`, one table at a time, outside
 * any transaction (module comment), on one connection with `lock_timeout` ERASE_VACUUM_LOCK_TIMEOUT_MS:
 * a VACUUM waiting for its lock would queue every later query on that table behind it (even
 * `auth_tokens`, read by every request) for as long as some open transaction holds the table, so
 * it gives up instead and the other tables go on. PostgreSQL only (a no-op on SQLite). Resolves to
 * the tables vacuumed and the time taken (ms).
 * @throws Error naming the tables that could not be rewritten (the job is retried with back-off).
 */
export async function vacuumErasedTables(deps: Pick<Deps, 'db' | 'config' | 'logger'>): Promise<{ tables: number; ms: number }> {
  if (!deps.config.DATABASE_URL) return { tables: 0, ms: 0 };
  const started = Date.now();
  const failed: string[] = [];
  await deps.db.connection().execute(async (conn) => {
    await sql`SET lock_timeout = ${sql.lit(`${ERASE_VACUUM_LOCK_TIMEOUT_MS}ms`)}`.execute(conn);
    try {
      for (const table of ERASED_TABLES) {
        try {
          await sql`VACUUM (FULL, ANALYZE) ${sql.table(table)}`.execute(conn);
        } catch (err) {
          failed.push(table);
          deps.logger.warn({ job: ERASE_VACUUM_QUEUE, table, errName: (err as Error)?.name, errMessage: (err as Error)?.message }, 'erase vacuum: table not rewritten (retried later)');
        }
      }
    } finally {
      await sql`RESET lock_timeout`.execute(conn);
    }
  });
  const result = { tables: ERASED_TABLES.length - failed.length, ms: Date.now() - started };
  deps.logger.info({ job: ERASE_VACUUM_QUEUE, ...result, failed: failed.length }, 'tables of deleted accounts rewritten');
  if (failed.length > 0) throw new Error(`erase vacuum: ${failed.length} table(s) not rewritten: ${failed.join(', ')}`);
  return result;
}
