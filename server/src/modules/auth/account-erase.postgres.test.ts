/**
 * Issue 26, "deletes leave nothing", on PostgreSQL's own pages: an owner with a profile, a busy
 * block note, a calendar connection and event, a personal link and a visitor's proposal deletes the
 * account. Right after the DELETE their bytes are still in the tables' pages (dead tuples, index
 * entries); once the erase-vacuum job (pg-boss, ERASE_VACUUM_DELAY_S later) has rewritten the
 * tables with VACUUM FULL, not one byte of the e-mail, username, name, note, connection name, event
 * UID or the visitor's name, e-mail and note is left in any page of those tables, their TOAST
 * tables or their indexes (read raw with the `pageinspect` extension: the test connects as the
 * superuser). PostgreSQL only (`*.postgres.test.ts`).
 */
import { sql } from 'kysely';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePageInspect, erasedRelations, markersOnDisk } from '../../../test/db-bytes.ts';
import { buildUser } from '../../../test/factories.ts';
import { ownerWithMarkers } from '../../../test/owner-markers.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { startJobs, type JobRunner } from '../../jobs/scheduler.ts';
import { ERASE_VACUUM_LOCK_TIMEOUT_MS, ERASED_TABLES, vacuumErasedTables } from './erase-vacuum.service.ts';

let t: TestApp;
let jobs: JobRunner;
const logLines: string[] = [];
const vacuumRuns = () => logLines.filter((l) => l.includes('tables of deleted accounts rewritten')).length;
beforeAll(async () => {
  t = await createTestApp({ env: { ERASE_VACUUM_DELAY_S: '2' }, logStream: { write: (line) => void logLines.push(line) } });
  await ensurePageInspect(t);
  jobs = await startJobs(t.deps);
});
afterAll(async () => {
  await jobs?.stop();
  await t?.close();
});

describe('deleting an account on PostgreSQL', () => {
  it('leaves the owner in the pages right after the DELETE, and no byte of them after the erase vacuum', async () => {
    const { owner, markers: m } = await ownerWithMarkers(t, Math.random().toString(36).slice(2, 10));
    // The scan sees the clear markers of rows written in clear (a sealed field is looked for in its clear form: none may be found later).
    const relations = await erasedRelations(t);
    expect(relations.length).toBeGreaterThan(ERASED_TABLES.length); // the indexes (users' e-mail and username) are read too

    await request(t.app).delete('/api/me').set(owner.auth).send({ password: owner.password }).expect(204);
    const afterDelete = await markersOnDisk(t, [m.email, m.username]);
    // Deleted, but still in the pages (heap and index) until the job has run.
    expect(afterDelete).toEqual([m.email, m.username]);

    // The job runs ERASE_VACUUM_DELAY_S (2 s) later; the rewritten tables get new files (new names for get_raw_page are the same regclass).
    const deadline = Date.now() + 25_000;
    let left = Object.values(m);
    while (Date.now() < deadline) {
      left = await markersOnDisk(t, Object.values(m));
      if (left.length === 0) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(left).toEqual([]);
  });

  it('runs the vacuum once for several deletions within the delay, off the request', async () => {
    const owners = await Promise.all([0, 1, 2].map(() => buildUser(t)));
    const before = vacuumRuns();
    for (const o of owners) await request(t.app).delete('/api/me').set(o.auth).send({ password: o.password }).expect(204);
    expect(vacuumRuns()).toBe(before); // the DELETE answered before any vacuum ran
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && vacuumRuns() === before) await new Promise((r) => setTimeout(r, 200));
    await new Promise((r) => setTimeout(r, 3_000)); // a second run would have started by now
    expect(vacuumRuns() - before).toBe(1);
  });

  it('never holds up the app behind a busy table: the wait for a lock is bounded, the other tables are rewritten, the busy one is retried', async () => {
    // Another connection holds a transaction that read auth_tokens (as a long request would).
    const holder = await t.db.connection().execute(async (conn) => {
      await sql`BEGIN`.execute(conn);
      await sql`SELECT count(*) FROM ${sql.table('auth_tokens')}`.execute(conn);
      const started = Date.now();
      const run = vacuumErasedTables(t.deps).then(
        () => null,
        (err: Error) => err,
      );
      // Meanwhile a request reads auth_tokens: it waits at most for the lock timeout, not for the holder.
      await new Promise((r) => setTimeout(r, 200));
      const readStarted = Date.now();
      await t.db.selectFrom('auth_tokens').select('id').limit(1).execute();
      const readMs = Date.now() - readStarted;
      const err = await run;
      await sql`ROLLBACK`.execute(conn);
      return { err, readMs, ms: Date.now() - started };
    });
    expect(holder.err?.message).toMatch(/not rewritten: .*auth_tokens/);
    expect(holder.err?.message).not.toMatch(/users/);
    expect(holder.readMs).toBeLessThan(ERASE_VACUUM_LOCK_TIMEOUT_MS + 1_000);
    // Free again: the retry rewrites every table.
    await expect(vacuumErasedTables(t.deps)).resolves.toMatchObject({ tables: ERASED_TABLES.length });
  });
});
