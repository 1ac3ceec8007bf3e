/**
 * An owner whose every kind of personal text carries a unique marker, for the "deletes leave
 * nothing" scans (issue 26; account-erase tests on both databases and the reliability erase check):
 * the e-mail, username and name; a busy-block note; a personal link's label (optional); a
 * connection name and an event UID, written in clear as an earlier version did (so the scan must
 * find them before the deletion); and a visitor's proposal with name, e-mail and note.
 */
import request from 'supertest';
import { buildUser, type BuiltUser } from './factories.ts';
import { openAllWeek } from './oauth-kit.ts';
import type { TestApp } from './test-app.ts';

/** The markers by kind (`label` only when asked for). */
export interface OwnerMarkers {
  [kind: string]: string;
  email: string;
  username: string;
  name: string;
  note: string;
  connection: string;
  uid: string;
  visitorName: string;
  visitorEmail: string;
  visitorNote: string;
}

/**
 * Builds the owner and their rows through the API (block, link, proposal) and the database
 * (connection and event, in clear). `tag` makes the markers unique; `label` adds a personal link.
 * Resolves to the owner and the markers. HTTP requests made: 2, or 3 with a label.
 */
export async function ownerWithMarkers(t: TestApp, tag: string, opts: { label?: boolean } = {}): Promise<{ owner: BuiltUser; markers: OwnerMarkers }> {
  const m: OwnerMarkers = {
    email: `erase-${tag}@owner-mail.test`,
    username: `er${tag}`,
    name: `Ottilie Erasmus ${tag}`,
    note: `dentist-${tag}-appointment`,
    connection: `Workcal ${tag}`,
    uid: `uid-${tag}@calendar-host.test`,
    ...(opts.label ? { label: `For Grandma ${tag}` } : {}),
    visitorName: `Vera Visit ${tag}`,
    visitorEmail: `vera-${tag}@visitor-mail.test`,
    visitorNote: `roof repair ${tag}`,
  };
  const owner = await buildUser(t, { email: m.email, username: m.username, name: m.name, timezone: 'UTC' });
  await openAllWeek(t, owner.user.id);
  const now = Date.now();
  await request(t.app).post('/api/me/blocks').set(owner.auth).send({ start_ms: now + 3_600_000, end_ms: now + 7_200_000, note: m.note }).expect(201);
  if (m.label) await request(t.app).post('/api/me/share-links').set(owner.auth).send({ label: m.label }).expect(201);
  const connId = crypto.randomUUID();
  await t.db.insertInto('calendar_connections').values({ id: connId, user_id: owner.user.id, provider: 'ics', name: m.connection, status: 'active', account: null, connected_at: now, updated_at: now }).execute();
  await t.db
    .insertInto('calendar_events')
    .values({ id: crypto.randomUUID(), user_id: owner.user.id, connection_id: connId, uid: m.uid, title: 'sealed elsewhere', start_ms: now, end_ms: now + 1_800_000, all_day: 0, is_busy: 1, depends_on_owner_zone: 0, updated_at: now })
    .execute();
  const day = new Date(now + 3 * 86_400_000).toISOString().slice(0, 10);
  await request(t.app)
    .post(`/api/public/${m.username}/proposals`)
    .send({ start: `${day}T10:00:00Z`, end: `${day}T10:30:00Z`, name: m.visitorName, email: m.visitorEmail, note: m.visitorNote, visitor_timezone: 'UTC' })
    .expect(201);
  return { owner, markers: m };
}
