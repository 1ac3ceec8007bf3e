/**
 * Database connection: SQLite (better-sqlite3, WAL, foreign keys ON) when DATABASE_URL is unset,
 * PostgreSQL (pg Pool, int8 parsed to Number) when it is a postgres:// URL.
 * All SQL goes through Kysely so the same code runs on both.
 */
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

/** Connection settings of a PostgreSQL Db, for a dedicated LISTEN client (replication change bus). */
export interface PgConnectionInfo {
  connectionString: string;
  /** `-c search_path=…` when the Db was opened with a pgSchema. */
  options?: string;
  /** The schema the Db works in (`public` unless pgSchema was given). */
  schema: string;
}
const pgInfo = new WeakMap<object, PgConnectionInfo>();

/** PostgreSQL connection settings of a Db made by createDb; undefined for SQLite. */
export function pgConnectionInfo(db: Db): PgConnectionInfo | undefined {
  return pgInfo.get(db);
}
export type DbDialect = 'sqlite' | 'postgres';

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/** pg type parsers for this pool only: int8 (bigint columns, COUNT) → Number. */
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => (value === null ? null : Number(value));
    return (pg.types.getTypeParser as (oid: number, format?: string) => unknown)(oid, format);
  },
} as unknown as pg.CustomTypesConfig;

export interface CreateDbOptions {
  /** PostgreSQL only: schema put first on the search_path of every connection (tests isolate with it). */
  pgSchema?: string;
}

/** The dialect a config selects. */
export function dialectOf(config: Pick<Config, 'DATABASE_URL'>): DbDialect {
  return config.DATABASE_URL ? 'postgres' : 'sqlite';
}

/** Opens the database the config names. The caller owns it: `await db.destroy()` on shutdown. */
export function createDb(config: Pick<Config, 'DATABASE_URL' | 'SQLITE_PATH'>, options: CreateDbOptions = {}): Db {
  if (config.DATABASE_URL) {
    const pool = new pg.Pool({
      connectionString: config.DATABASE_URL,
      types: pgTypes,
      max: 10,
      ...(options.pgSchema ? { options: `-c search_path=${quoteIdent(options.pgSchema)}` } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    pgInfo.set(db, {
      connectionString: config.DATABASE_URL,
      ...(options.pgSchema ? { options: `-c search_path=${quoteIdent(options.pgSchema)}` } : {}),
      schema: options.pgSchema ?? 'public',
    });
    return db;
  }
  if (config.SQLITE_PATH !== ':memory:') mkdirSync(path.dirname(config.SQLITE_PATH), { recursive: true, mode: 0o700 });
  const database = new SQLite(config.SQLITE_PATH);
  database.pragma('journal_mode = WAL');
  if (config.SQLITE_PATH !== ':memory:') restrictSqliteFiles(config.SQLITE_PATH);
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = NORMAL');
  // Deleted rows are overwritten with zeros, not left readable in free space (issue 26): an owner
  // who deletes their account leaves no readable byte, in the file and in any later backup.
  database.pragma('secure_delete = ON');
  if (config.SQLITE_PATH !== ':memory:') vacuumOnceForSecureDelete(database);
  return new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
}

/** `PRAGMA user_version` from which the file has had `secure_delete` on since its last VACUUM. */
const SECURE_DELETE_SINCE_VERSION = 1;

/**
 * A database file written before `secure_delete` was on still holds deleted rows in its free
 * space: rewritten once with VACUUM (which copies only live rows), then marked with
 * `PRAGMA user_version` (not used otherwise; Kysely's migrations have their own table).
 */
function vacuumOnceForSecureDelete(database: SQLite.Database): void {
  if (Number(database.pragma('user_version', { simple: true })) >= SECURE_DELETE_SINCE_VERSION) return;
  database.exec('VACUUM');
  database.pragma(`user_version = ${SECURE_DELETE_SINCE_VERSION}`);
}

/**
 * After an account deletion: on SQLite, the write-ahead log is checkpointed into the database file
 * and truncated to zero bytes (`wal_checkpoint(TRUNCATE)`), so the owner's rows survive neither in
 * the log nor — with `secure_delete` on — in the file's free space. A reader holding an old snapshot
 * can keep the log from being reset; the next checkpoint then does it. On PostgreSQL nothing is
 * done here: deleted rows stay in the table files until the erase-vacuum job rewrites the tables
 * with VACUUM FULL (modules/auth/erase-vacuum.service.ts; README, "What is stored").
 */
export async function purgeDeletedRows(db: Db): Promise<void> {
  if (pgConnectionInfo(db)) return;
  await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
}

/**
 * The database holds owners' data: its file, WAL and shared-memory file are readable by this user
 * only (0600; SQLite creates them with the process umask, usually 0644), existing installs
 * included. A file that cannot be changed (another owner) is left as is.
 */
function restrictSqliteFiles(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      if (existsSync(f)) chmodSync(f, 0o600);
    } catch {
      // not ours to change (e.g. a read-only mount): the server still runs
    }
  }
}

function quoteIdent(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`Invalid schema name: ${name}`);
  return name;
}
