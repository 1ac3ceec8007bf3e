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
import { buildUser } from '../factories.ts';
import { openAllWeek } from '../oauth-kit.ts';
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
      const mk = {
        email: `erase-${tag}@owner-mail.test`,
        username: `er${tag}`,
        name: `Olga Owner ${tag}`,
        note: `dentist-${tag}`,
        connection: `Workcal ${tag}`,
        uid: `uid-${tag}@calendar-host.test`,
        label: `For Grandma ${tag}`,
        visitorName: `Vera Visit ${tag}`,
        visitorEmail: `vera-${tag}@visitor-mail.test`,
        visitorNote: `roof repair ${tag}`,
      };
      const owner = await buildUser(t, { email: mk.email, username: mk.username, name: mk.name, timezone: 'UTC' });
      await openAllWeek(t, owner.user.id);
      const now = Date.now();
      await request(t.app).post('/api/me/blocks').set(owner.auth).send({ start_ms: now + 3_600_000, end_ms: now + 7_200_000, note: mk.note }).expect(201);
      await request(t.app).post('/api/me/share-links').set(owner.auth).send({ label: mk.label }).expect(201);
      // As an earlier version wrote them: in clear (the scan must find them before the deletion too).
      const connId = crypto.randomUUID();
      await t.db.insertInto('calendar_connections').values({ id: connId, user_id: owner.user.id, provider: 'ics', name: mk.connection, status: 'active', account: null, connected_at: now, updated_at: now }).execute();
      await t.db
        .insertInto('calendar_events')
        .values({ id: crypto.randomUUID(), user_id: owner.user.id, connection_id: connId, uid: mk.uid, title: 'x', start_ms: now, end_ms: now + 1_800_000, all_day: 0, is_busy: 1, depends_on_owner_zone: 0, updated_at: now })
        .execute();
      const day = new Date(now + 3 * 86_400_000).toISOString().slice(0, 10);
      await request(t.app)
        .post(`/api/public/${mk.username}/proposals`)
        .send({ start: `${day}T10:00:00Z`, end: `${day}T10:30:00Z`, name: mk.visitorName, email: mk.visitorEmail, note: mk.visitorNote, visitor_timezone: 'UTC' })
        .expect(201);
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
