/**
 * A fresh, migrated database for one test file: a SQLite file in a temp dir, or — when
 * TEST_POSTGRES_URL is set — a PostgreSQL schema of its own, dropped by `destroy()`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createDb, type Db, type DbDialect } from '../src/db/kysely.ts';
import { migrateToLatest } from '../src/db/migrate.ts';

export interface TestDb {
  db: Db;
  dialect: DbDialect;
  /** Temp directory of this test database (also usable as DATA_DIR). */
  dir: string;
  /** DATABASE_URL to put in a Config (undefined for SQLite). */
  databaseUrl: string | undefined;
  /** SQLite file path (':memory:'-free), or the schema name on PostgreSQL. */
  location: string;
  destroy(): Promise<void>;
}

/**
 * Creates and migrates a database: PostgreSQL when TEST_POSTGRES_URL is set, else a SQLite file;
 * `{ dialect: 'sqlite' }` always a SQLite file (a test of SQLite's own files). Always
 * `await destroy()` (e.g. in afterAll).
 */
export async function createTestDb(options: { dialect?: 'sqlite' } = {}): Promise<TestDb> {
  const dir = mkdtempSync(path.join(tmpdir(), 'avail-test-'));
  const pgUrl = options.dialect === 'sqlite' ? undefined : process.env.TEST_POSTGRES_URL;
  if (pgUrl) {
    const schema = `t_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    const db = createDb({ DATABASE_URL: pgUrl, SQLITE_PATH: '' }, { pgSchema: schema });
    const dropSchema = async () => {
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.query(`DROP SCHEMA IF EXISTS ${schema}_pgboss CASCADE`); // the job engine's, when a test started it
      await c.end();
    };
    try {
      await migrateToLatest(db);
    } catch (err) {
      await db.destroy();
      await dropSchema();
      rmSync(dir, { recursive: true, force: true });
      throw err;
    }
    return {
      db,
      dialect: 'postgres',
      dir,
      databaseUrl: pgUrl,
      location: schema,
      async destroy() {
        await db.destroy();
        await dropSchema();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const file = path.join(dir, 'avail.sqlite');
  const db = createDb({ DATABASE_URL: undefined, SQLITE_PATH: file });
  await migrateToLatest(db);
  return {
    db,
    dialect: 'sqlite',
    dir,
    databaseUrl: undefined,
    location: file,
    async destroy() {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
