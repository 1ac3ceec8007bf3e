/**
 * Migrations: a static provider (no filesystem scan, works under tsx and vitest) run by Kysely's
 * Migrator at start. Add new migrations to `migrations` in order: `NNNN_name`.
 */
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as m0001 from './migrations/0001_initial.ts';

export const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
};

const provider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};

/** Brings the database to the latest schema; throws the first failure. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
