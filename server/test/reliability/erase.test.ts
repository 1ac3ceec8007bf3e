/**
 * Deletes leave nothing (issue 26), on SQLite and PostgreSQL: 4 × RELIABILITY_SCALE owners, each
 * with a profile, a busy-block note, a calendar connection with an event, a personal link and a
 * visitor's proposal; every other one deletes the account (`DELETE /api/me`). Afterwards no byte of
 * a deleted owner's e-mail, username, name, note, connection name, event UID, link label or their
 * visitor's name, e-mail and note is left in the database's bytes on disk (test/db-bytes.ts: SQLite's
 * file and log; PostgreSQL's table, TOAST and index pages once the erase-vacuum job has run), while
 * the kept owners' e-mail and username (stored in clear) are still found — the scan sees what it
 * looks for. A trial is one deleted owner; a failure, one with a byte left.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJobs, type JobRunner } from '../../src/jobs/scheduler.ts';
import { ensurePageInspect, markersOnDisk } from '../db-bytes.ts';
import { ownerWithMarkers } from '../owner-markers.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { reportReliability, SCALE } from './reliability-report.ts';

let t: TestApp;
let jobs: JobRunner | undefined;
const logLines: string[] = [];
beforeAll(async () => {
  t = await createTestApp({
    env: { ERASE_VACUUM_DELAY_S: '1' },
    logStream: { write: (line) => void logLines.push(line) },
    // Every visitor proposes from the loopback address: the per-IP limit would stop the 6th.
    rateLimits: { proposalsPerIp: { windowMs: 60_000, limit: 1_000_000 } },
  });
  await ensurePageInspect(t);
  // PostgreSQL: the erase-vacuum job runs on pg-boss (SQLite needs no job: secure_delete and the checkpoint).
  if (t.testDb.dialect === 'postgres') jobs = await startJobs(t.deps);
}, 60_000);
afterAll(async () => {
  await jobs?.stop();
  await t?.close();
});

describe('reliability: deleted owners leave no byte on disk', () => {
  it('every deleted owner and their visitors are gone from the database bytes; kept owners are not', async () => {
    const owners = 4 * SCALE;
    let requests = 0;
    const built: Array<{ auth: Record<string, string>; password: string; markers: Record<string, string>; deleted: boolean }> = [];
    for (let i = 0; i < owners; i++) {
      const tag = `${i}x${Math.random().toString(36).slice(2, 9)}`;
      const { owner, markers: mk } = await ownerWithMarkers(t, tag, { label: true });
      requests += 3;
      built.push({ auth: owner.auth, password: owner.password, markers: mk, deleted: i % 2 === 0 });
    }
    const vacuumsBefore = logLines.filter((l) => l.includes('tables of deleted accounts rewritten')).length;
    for (const o of built.filter((b) => b.deleted)) {
      await request(t.app).delete('/api/me').set(o.auth).send({ password: o.password }).expect(204);
      requests++;
    }
    if (jobs) {
      // The job runs ERASE_VACUUM_DELAY_S (1 s) after the deletions.
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && logLines.filter((l) => l.includes('tables of deleted accounts rewritten')).length === vacuumsBefore) {
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    const deletedMarkers = built.filter((b) => b.deleted).flatMap((b) => Object.values(b.markers));
    const left = new Set(await markersOnDisk(t, deletedMarkers));
    const failures = built.filter((b) => b.deleted && Object.values(b.markers).some((m) => left.has(m))).length;
    const kept = built.filter((b) => !b.deleted).flatMap((b) => [b.markers.email, b.markers.username]);
    const keptFound = await markersOnDisk(t, kept);
    reportReliability({ check: 'erase: deleted owners on disk', requests, trials: built.filter((b) => b.deleted).length, failures });
    expect([...left]).toEqual([]);
    expect(keptFound).toEqual(kept);
  }, 60_000 * SCALE);
});
