/**
 * Migrations: a static provider (no filesystem scan, works under tsx and vitest) run by Kysely's
 * Migrator at start. Add new migrations to `migrations` in order: `NNNN_name`.
 */
import { Migrator, PostgresAdapter, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as m0001 from './migrations/0001_initial.ts';
import * as m0002 from './migrations/0002_replication.ts';
import * as m0003 from './migrations/0003_oauth_push.ts';
import * as m0004 from './migrations/0004_reset_proposals.ts';
import * as m0005 from './migrations/0005_busy_blocks.ts';
import * as m0006 from './migrations/0006_login_throttle.ts';
import * as m0007 from './migrations/0007_claims.ts';
import * as m0008 from './migrations/0008_share_links.ts';
import * as m0009 from './migrations/0009_busy_rules.ts';
import * as m0010 from './migrations/0010_event_origin.ts';
import * as m0011 from './migrations/0011_host_profile.ts';
import * as m0012 from './migrations/0012_owner_formats.ts';
import * as m0013 from './migrations/0013_calendar_selection.ts';
import * as m0014 from './migrations/0014_proposal_decisions.ts';
import * as m0015 from './migrations/0015_sessions.ts';
import * as m0016 from './migrations/0016_two_factor.ts';
import * as m0017 from './migrations/0017_sealed_text.ts';
import * as m0018 from './migrations/0018_event_uid_key.ts';

export const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_replication': m0002,
  '0003_oauth_push': m0003,
  '0004_reset_proposals': m0004,
  '0005_busy_blocks': m0005,
  '0006_login_throttle': m0006,
  '0007_claims': m0007,
  '0008_share_links': m0008,
  '0009_busy_rules': m0009,
  '0010_event_origin': m0010,
  '0011_host_profile': m0011,
  '0012_owner_formats': m0012,
  '0013_calendar_selection': m0013,
  '0014_proposal_decisions': m0014,
  '0015_sessions': m0015,
  '0016_two_factor': m0016,
  '0017_sealed_text': m0017,
  '0018_event_uid_key': m0018,
};

const provider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};

async function migratorFor(db: Kysely<any>): Promise<Migrator> {
  // On PostgreSQL, pin Kysely's bookkeeping tables to the current schema: otherwise the Migrator
  // sees kysely_migration tables of *other* schemas in the database and thinks they are ours.
  let migrationTableSchema: string | undefined;
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    migrationTableSchema = rows[0]?.schema ?? undefined;
  }
  return new Migrator({ db, provider, ...(migrationTableSchema ? { migrationTableSchema } : {}) });
}

/**
 * Names of the migrations in `migrations` not yet applied to `db` (empty when the schema is
 * current). Reads Kysely's bookkeeping table; throws when the database cannot be queried.
 */
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  const infos = await (await migratorFor(db)).getMigrations();
  return infos.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/** Brings the database to the latest schema; throws the first failure. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = await migratorFor(db);
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
