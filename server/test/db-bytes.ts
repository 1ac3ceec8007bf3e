/**
 * What a test database holds on disk, byte for byte (issue 26, "deletes leave nothing"):
 * - SQLite: the database file and its write-ahead log;
 * - PostgreSQL: every page (main fork, every block) of the tables that hold owners' rows
 *   (modules/auth/erase-vacuum.service.ts ERASED_TABLES), their TOAST tables and all their
 *   indexes, read raw with the `pageinspect` extension (the tests connect as the superuser).
 */
import { existsSync, readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { ERASED_TABLES } from '../src/modules/auth/erase-vacuum.service.ts';
import type { TestApp } from './test-app.ts';

/** PostgreSQL: installs pageinspect in `public` (the test's own schema is dropped at the end); a concurrent creation is tolerated. */
export async function ensurePageInspect(t: TestApp): Promise<void> {
  if (t.testDb.dialect !== 'postgres') return;
  await sql`CREATE EXTENSION IF NOT EXISTS pageinspect SCHEMA public`.execute(t.db).catch(() => undefined);
}

/** PostgreSQL: the relations that can hold a row's bytes — ERASED_TABLES, their TOAST tables, and all their indexes (regclass names). */
export async function erasedRelations(t: TestApp): Promise<string[]> {
  const { rows } = await sql<{ rel: string }>`
    with tbl as (
      select c.oid, c.reltoastrelid from pg_class c
      where c.relnamespace = current_schema()::regnamespace and c.relname in (${sql.join([...ERASED_TABLES])})
    ), heap as (
      select oid from tbl
      union all select reltoastrelid from tbl where reltoastrelid <> 0
    )
    select h.oid::regclass::text as rel from heap h
    union all
    select i.indexrelid::regclass::text from pg_index i join heap h on i.indrelid = h.oid`.execute(t.db);
  return rows.map((r) => r.rel);
}

/** The markers (UTF-8) found in the database's bytes on disk (module comment), in input order. */
export async function markersOnDisk(t: TestApp, markers: string[]): Promise<string[]> {
  const found = new Set<string>();
  const scan = (bytes: Buffer) => {
    for (const m of markers) if (bytes.includes(Buffer.from(m, 'utf8'))) found.add(m);
  };
  if (t.testDb.dialect === 'sqlite') {
    for (const f of [t.testDb.location, `${t.testDb.location}-wal`]) if (existsSync(f)) scan(readFileSync(f));
  } else {
    for (const rel of await erasedRelations(t)) {
      const { rows } = await sql<{ blocks: number }>`select (pg_relation_size(${rel}::regclass) / current_setting('block_size')::int)::int as blocks`.execute(t.db);
      for (let blk = 0; blk < (rows[0]?.blocks ?? 0); blk++) {
        scan((await sql<{ page: Buffer }>`select public.get_raw_page(${rel}, ${blk}) as page`.execute(t.db)).rows[0]!.page);
      }
    }
  }
  return markers.filter((m) => found.has(m));
}
