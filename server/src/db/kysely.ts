/**
 * Database connection: SQLite (better-sqlite3, WAL, foreign keys ON) when DATABASE_URL is unset,
 * PostgreSQL (pg Pool, int8 parsed to Number) when it is a postgres:// URL.
 * All SQL goes through Kysely so the same code runs on both.
 */
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
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
  return new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
}

/**
 * The database holds owners' data: its file, WAL and shared-memory file are readable by this user
 * only (0600; SQLite creates them with the process umask, usually 0644), existing installs
 * included. A file that cannot be changed (another owner) is left as is.
 */
export function restrictSqliteFiles(file: string): void {
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
