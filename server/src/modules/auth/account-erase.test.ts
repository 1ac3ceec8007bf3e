/**
 * Issue 26, "deletes leave nothing", on SQLite's own files: an owner with a profile, a busy block
 * note, a calendar connection and event, a personal link and a visitor's proposal deletes the
 * account; afterwards not one byte of their e-mail, username, name, note, connection name, event
 * UID or the visitor's name, e-mail and note is left in the database file or its write-ahead log —
 * the freed space is zeroed (`secure_delete`) and the log is checkpointed and truncated.
 * (Before: the e-mail twice, the username three times and the rest once each, in free pages.)
 */
import { readFileSync, existsSync } from 'node:fs';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerWithMarkers } from '../../../test/owner-markers.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ dialect: 'sqlite' });
});
afterAll(async () => {
  await t?.close();
});

/** Every marker found in the database file and its WAL (as UTF-8 bytes). */
function markersOnDisk(markers: string[]): string[] {
  const files = [t.testDb.location, `${t.testDb.location}-wal`].filter((f) => existsSync(f));
  const bytes = files.map((f) => readFileSync(f));
  return markers.filter((m) => bytes.some((b) => b.includes(Buffer.from(m, 'utf8'))));
}

describe('deleting an account on SQLite', () => {
  it('leaves no byte of the owner or their visitors in the database file or its log', async () => {
    const { owner, markers: m } = await ownerWithMarkers(t, Math.random().toString(36).slice(2, 10));
    // Before the deletion the texts kept in clear are on disk (the test can see what it looks for);
    // the ones sealed at rest are not, even before (issue 26: personal-text-at-rest.test.ts).
    await import('kysely').then(({ sql }) => sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(t.db));
    const sealed = [m.note, m.visitorName, m.visitorEmail, m.visitorNote]; // the connection and event are written here in clear, as an earlier version did
    expect(markersOnDisk(Object.values(m)).sort()).toEqual(Object.values(m).filter((v) => !sealed.includes(v)).sort());

    await request(t.app).delete('/api/me').set(owner.auth).send({ password: owner.password }).expect(204);
    expect(markersOnDisk(Object.values(m))).toEqual([]);
  });
});
