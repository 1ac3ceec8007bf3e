import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
// Monday 2026-11-23 12:00Z = 13:00 in Brussels (UTC+1 in November).
const NOW = Date.UTC(2026, 10, 23, 12);
beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(NOW);
});
afterAll(async () => {
  await t.close();
});

const NOT_FREE = { error: 'That time is no longer free. Please pick another time.', code: 'not_free' };

let seq = 0;
/** An onboarded owner in Brussels whose weekly rules (Mon + Tue 09:00–17:00 by default) are set through the API. */
async function owner(opts: { name?: string; rules?: Array<[number, string, string]> } = {}) {
  const username = `prop${++seq}${Math.random().toString(36).slice(2, 7)}`;
  const built = await buildUser(t, { username, timezone: 'Europe/Brussels', name: opts.name ?? 'Olivia Owner' });
  const rules = (opts.rules ?? [[0, '09:00', '17:00'], [1, '09:00', '17:00']]).map(([weekday, start_time_local, end_time_local]) => ({
    weekday,
    start_time_local,
    end_time_local,
  }));
  const res = await request(t.app).post('/api/me/availability-rules').set(built.auth).send({ rules });
  expect(res.status).toBe(200);
  return { ...built, username };
}

let ipSeq = 0;
/** A distinct client IP per call (the app trusts X-Forwarded-For from loopback), so the per-IP limit only bites where a test wants it. */
const freshIp = () => `198.51.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

const proposal = (extra: Record<string, unknown> = {}) => ({
  start: '2026-11-24T09:00:00Z',
  end: '2026-11-24T09:30:00Z',
  name: 'Vera Visitor',
  email: 'Vera.Visitor@example.org',
  note: 'Coffee & a chat about <the project>?',
  visitor_timezone: 'America/New_York',
  ...extra,
});

const propose = (slug: string, body: Record<string, unknown>, ip = freshIp()) =>
  request(t.app).post(`/api/public/${slug}/proposals`).set('X-Forwarded-For', ip).send(body);

async function addBusy(userId: string, start: string, end: string) {
  const connection_id = crypto.randomUUID();
  await t.db
    .insertInto('calendar_connections')
    .values({ id: connection_id, user_id: userId, provider: 'ics', name: 'Private', status: 'active', connected_at: NOW, updated_at: NOW })
    .execute();
  await t.db
    .insertInto('calendar_events')
    .values({ id: crypto.randomUUID(), user_id: userId, connection_id, uid: 'u1', title: 'Secret merger talks', start_ms: Date.parse(start), end_ms: Date.parse(end), all_day: 0, is_busy: 1, depends_on_owner_zone: 0 })
    .execute();
  await t.db
    .insertInto('busy_intervals')
    .values({ id: crypto.randomUUID(), user_id: userId, connection_id, start_ms: Date.parse(start), end_ms: Date.parse(end), depends_on_owner_zone: 0 })
    .execute();
}

describe('POST /api/public/:slug/proposals', () => {
  it('stores a proposal inside a free window and e-mails the owner (Reply-To the visitor, both zones)', async () => {
    const o = await owner({ name: 'Olivia Owner' });
    const before = t.outbox.length;
    const res = await propose(o.username, proposal());
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ success: true, message: 'Your proposal was sent. Olivia Owner will confirm by email.' });
    expect(JSON.stringify(res.body) + JSON.stringify(res.headers)).not.toContain(o.user.email);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-robots-tag']).toBe('noindex');
    expect(res.headers['referrer-policy']).toBe('no-referrer');

    expect(t.outbox).toHaveLength(before + 1);
    const mail = t.outbox.at(-1)!;
    expect(mail.to).toBe(o.user.email);
    expect(mail.replyTo).toBe('vera.visitor@example.org');
    expect(mail.subject).toBe('New time proposed: Tue 24 Nov, 10:00–10:30');
    expect(mail.text).toContain('Tue 24 Nov, 10:00–10:30 (your time, Europe/Brussels)');
    expect(mail.text).toContain('Tue 24 Nov, 04:00–04:30 (their time, America/New_York)');
    expect(mail.text).toContain('Vera Visitor <vera.visitor@example.org>');
    expect(mail.text).toContain('Coffee & a chat about <the project>?');
    expect(mail.text).toContain('Nothing is booked until you confirm. Confirm or decline with the links below, or on your dashboard.');
    expect(mail.text).toContain('http://avail.test/app/dashboard');
    // The HTML part escapes the visitor's words.
    expect(mail.html).toContain('Coffee &#38; a chat about &#60;the project&#62;?');
    expect(mail.html).not.toContain('<the project>');

    const list = await request(t.app).get('/api/me/proposals').set(o.auth);
    expect(list.status).toBe(200);
    expect(list.body.proposals).toEqual([
      {
        id: expect.any(String),
        start: '2026-11-24T09:00:00Z',
        end: '2026-11-24T09:30:00Z',
        name: 'Vera Visitor',
        email: 'vera.visitor@example.org',
        note: 'Coffee & a chat about <the project>?',
        visitor_timezone: 'America/New_York',
        visitor_language: 'en',
        created_at: '2026-11-23T12:00:00Z',
        status: 'pending',
        uid: null,
        sequence: 0,
        decided_at: null,
        message: '',
        calendar: null,
        pending_action: null,
        error: null,
      },
    ]);
  });

  it('accepts offsets, shows one time when the visitor shares the owner clock, and never books anything', async () => {
    const o = await owner();
    // 16:30–17:00 Brussels written with the +01:00 offset: exactly at the end of the window.
    const res = await propose(o.username, proposal({ start: '2026-11-24T16:30:00+01:00', end: '2026-11-24T17:00:00+01:00', visitor_timezone: 'Europe/Paris', note: undefined }));
    expect(res.status).toBe(201);
    const mail = t.outbox.at(-1)!;
    expect(mail.subject).toBe('New time proposed: Tue 24 Nov, 16:30–17:00');
    expect(mail.text).not.toContain('their time');
    expect(mail.text).toContain('Note: (none)');
    // Still free afterwards: the public page shows the same window (nothing reserved).
    const page = await request(t.app).get(`/api/public/${o.username}/availability?range=2026-11-24..2026-11-24`);
    expect(page.body.availability.windows).toEqual([{ start: '2026-11-24T08:00:00Z', end: '2026-11-24T16:00:00Z' }]);
  });

  it('refuses busy time, times outside the rules, across a window edge and in the past with 422 not_free', async () => {
    const o = await owner();
    await addBusy(o.user.id, '2026-11-24T10:00:00Z', '2026-11-24T11:00:00Z');
    const cases: Array<[string, string]> = [
      ['2026-11-24T10:15:00Z', '2026-11-24T10:45:00Z'], // busy
      ['2026-11-24T09:45:00Z', '2026-11-24T10:15:00Z'], // overlaps the busy start
      ['2026-11-25T09:00:00Z', '2026-11-25T09:30:00Z'], // Wednesday: no rule
      ['2026-11-24T15:45:00Z', '2026-11-24T16:15:00Z'], // past 17:00 Brussels
      ['2026-11-24T07:30:00Z', '2026-11-24T08:00:00Z'], // 08:30 Brussels, before the rule
      ['2026-11-23T09:00:00Z', '2026-11-23T09:30:00Z'], // Monday 10:00 Brussels: free by the rule, but past
      ['2026-11-23T11:45:00Z', '2026-11-23T12:15:00Z'], // starts 15 minutes ago
    ];
    for (const [start, end] of cases) {
      const res = await propose(o.username, proposal({ start, end }));
      expect(res.status, `${start}..${end}`).toBe(422);
      expect(res.body, `${start}..${end}`).toEqual(NOT_FREE);
    }
    // Monday after now is fine; so is the time right after the busy block.
    expect((await propose(o.username, proposal({ start: '2026-11-23T12:00:00Z', end: '2026-11-23T12:30:00Z' }))).status).toBe(201);
    expect((await propose(o.username, proposal({ start: '2026-11-24T11:00:00Z', end: '2026-11-24T12:00:00Z' }))).status).toBe(201);
    const list = await request(t.app).get('/api/me/proposals').set(o.auth);
    expect(list.body.proposals).toHaveLength(2);
    // The busy event's title never reaches the owner's mail.
    expect(t.outbox.some((m) => m.text.includes('Secret merger talks') || (m.html ?? '').includes('Secret merger'))).toBe(false);
  });

  it('answers 404 for an unknown link', async () => {
    const res = await propose('no-such-owner-xyz', proposal());
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'This availability link could not be found.', code: 'not_found' });
  });

  it('validates the input with field messages', async () => {
    const o = await owner();
    const expectations: Array<[Record<string, unknown>, string, string]> = [
      [{ name: '   ' }, 'name', 'Name is required'],
      [{ name: 'x'.repeat(101) }, 'name', 'Name must be no more than 100 characters'],
      [{ email: '' }, 'email', 'Email is required'],
      [{ email: 'not-an-address' }, 'email', 'Email is invalid'],
      [{ email: 'a@b.co,c@d.co' }, 'email', 'Email is invalid'],
      [{ email: `${'a'.repeat(250)}@b.co` }, 'email', 'Email is invalid'],
      [{ note: 'n'.repeat(1001) }, 'note', 'Note must be no more than 1000 characters'],
      [{ visitor_timezone: 'Mars/Olympus_Mons' }, 'visitor_timezone', 'Unknown timezone'],
      [{ start: '2026-11-24T09:00' }, 'start', 'Start time is invalid'],
      [{ end: 'tomorrow' }, 'end', 'End time is invalid'],
      [{ end: '2026-11-24T09:00:00Z' }, 'end', 'End time must be after start time'],
      [{ end: '2026-11-24T09:10:00Z' }, 'end', 'A proposal must be at least 15 minutes long'],
      [{ end: '2026-11-24T17:01:00Z' }, 'end', 'A proposal can be at most 8 hours long'],
    ];
    for (const [patch, field, message] of expectations) {
      const res = await propose(o.username, proposal(patch));
      expect(res.status, JSON.stringify(patch).slice(0, 60)).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors[field], field).toBe(message);
    }
    // Exactly 15 minutes and a note of 1000 characters are fine.
    expect((await propose(o.username, proposal({ end: '2026-11-24T09:15:00Z', note: 'n'.repeat(1000) }))).status).toBe(201);
    const list = await request(t.app).get('/api/me/proposals').set(o.auth);
    expect(list.body.proposals).toHaveLength(1);
  });

  it('limits one IP to 5 proposals an hour (429 for the 6th, nothing stored or mailed)', async () => {
    const o = await owner();
    const ip = '203.0.113.77';
    for (let i = 0; i < 5; i++) {
      const start = Date.UTC(2026, 10, 24, 8 + i);
      const res = await propose(o.username, proposal({ start: new Date(start).toISOString(), end: new Date(start + 30 * 60_000).toISOString() }), ip);
      expect(res.status).toBe(201);
    }
    const mails = t.outbox.length;
    const sixth = await propose(o.username, proposal({ start: '2026-11-24T14:00:00Z', end: '2026-11-24T14:30:00Z' }), ip);
    expect(sixth.status).toBe(429);
    expect(sixth.body.error).toBe('Too many proposals. Please try again later.');
    expect(t.outbox).toHaveLength(mails);
    expect((await request(t.app).get('/api/me/proposals').set(o.auth)).body.proposals).toHaveLength(5);
    // Another visitor is not affected.
    expect((await propose(o.username, proposal({ start: '2026-11-24T14:00:00Z', end: '2026-11-24T14:30:00Z' }))).status).toBe(201);
  });

  it('limits one owner to 30 proposals per 24 hours', async () => {
    const o = await owner();
    const row = (i: number, createdAt: number) => ({
      id: crypto.randomUUID(),
      user_id: o.user.id,
      start_ms: Date.UTC(2026, 10, 24, 9),
      end_ms: Date.UTC(2026, 10, 24, 9, 30),
      name: `V${i}`,
      email: `v${i}@example.org`,
      visitor_timezone: 'UTC',
      created_at: createdAt,
    });
    // 29 in the last 24 h, and older ones that no longer count.
    for (let i = 0; i < 29; i++) await t.db.insertInto('proposals').values(row(i, NOW - 23 * 3_600_000)).execute();
    for (let i = 0; i < 5; i++) await t.db.insertInto('proposals').values(row(100 + i, NOW - 25 * 3_600_000)).execute();
    expect((await propose(o.username, proposal())).status).toBe(201); // the 30th
    const res = await propose(o.username, proposal());
    expect(res.status).toBe(429);
    expect(res.body.error).toBe('Too many proposals. Please try again later.');
  });

  it('still counts dismissed proposals toward the daily cap (dismissing frees no room)', async () => {
    const o = await owner();
    const listed = await request(t.app).get('/api/me/proposals').set(o.auth);
    expect(listed.body.proposals).toEqual([]);
    const row = (i: number) => ({
      id: crypto.randomUUID(), user_id: o.user.id, start_ms: Date.UTC(2026, 10, 24, 9), end_ms: Date.UTC(2026, 10, 24, 9, 30),
      name: `V${i}`, email: `v${i}@example.org`, visitor_timezone: 'UTC', created_at: NOW - 3_600_000,
    });
    for (let i = 0; i < 30; i++) await t.db.insertInto('proposals').values(row(i)).execute();
    const all = (await request(t.app).get('/api/me/proposals').set(o.auth)).body.proposals as { id: string }[];
    for (const p of all.slice(0, 10)) expect((await request(t.app).delete(`/api/me/proposals/${p.id}`).set(o.auth)).status).toBe(204);
    expect((await request(t.app).get('/api/me/proposals').set(o.auth)).body.proposals).toHaveLength(20);
    expect((await propose(o.username, proposal())).status).toBe(429);
  });

  it('keeps the proposal and still answers 201 when the e-mail cannot be sent', async () => {
    const o = await owner();
    const mailer = t.deps.mailer;
    const send = mailer.send;
    mailer.send = async () => {
      throw new Error('SMTP down');
    };
    try {
      const res = await propose(o.username, proposal());
      expect(res.status).toBe(201);
      expect(res.body.message).toBe('Your proposal was sent. Olivia Owner will confirm by email.');
    } finally {
      mailer.send = send;
    }
    const list = await request(t.app).get('/api/me/proposals').set(o.auth);
    expect(list.body.proposals.map((p: { name: string }) => p.name)).toEqual(['Vera Visitor']);
  });
});

describe('GET and DELETE /api/me/proposals', () => {
  it("lists only the owner's proposals, newest first; others can neither see nor dismiss them", async () => {
    const o = await owner();
    const other = await owner();
    await propose(o.username, proposal({ start: '2026-11-23T13:00:00Z', end: '2026-11-23T13:30:00Z', name: 'Sooner' }));
    t.clock.set(NOW + 60_000);
    await propose(o.username, proposal({ start: '2026-11-24T13:00:00Z', end: '2026-11-24T14:00:00Z', name: 'Later' }));
    t.clock.set(NOW);
    await propose(other.username, proposal({ name: 'For the other owner' }));

    const mine = await request(t.app).get('/api/me/proposals').set(o.auth);
    expect(mine.body.proposals.map((p: { name: string }) => p.name)).toEqual(['Later', 'Sooner']);
    expect(mine.body.proposals[0]).toMatchObject({ status: 'pending', uid: null, sequence: 0, decided_at: null, calendar: null, pending_action: null, error: null, visitor_language: 'en' });
    const theirs = await request(t.app).get('/api/me/proposals').set(other.auth);
    expect(theirs.body.proposals.map((p: { name: string }) => p.name)).toEqual(['For the other owner']);

    const id = mine.body.proposals[0].id;
    const foreign = await request(t.app).delete(`/api/me/proposals/${id}`).set(other.auth);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'Proposal not found', code: 'not_found' });
    expect((await request(t.app).get('/api/me/proposals').set(o.auth)).body.proposals).toHaveLength(2);

    const dismissed = await request(t.app).delete(`/api/me/proposals/${id}`).set(o.auth);
    expect(dismissed.status).toBe(204);
    expect(dismissed.text).toBe('');
    expect((await request(t.app).get('/api/me/proposals').set(o.auth)).body.proposals.map((p: { name: string }) => p.name)).toEqual(['Sooner']);
    expect((await request(t.app).delete(`/api/me/proposals/${id}`).set(o.auth)).status).toBe(404);
  });

  it('keeps proposals listed after their time, with their status (the owner sees what happened)', async () => {
    const o = await owner();
    await propose(o.username, proposal({ start: '2026-11-23T13:00:00Z', end: '2026-11-23T13:30:00Z', name: 'Today' }));
    try {
      t.clock.set(Date.UTC(2026, 10, 23, 13, 30)); // it has ended
      const list = (await request(t.app).get('/api/me/proposals').set(o.auth)).body.proposals;
      expect(list.map((p: { name: string; status: string }) => [p.name, p.status])).toEqual([['Today', 'pending']]);
    } finally {
      t.clock.set(NOW);
    }
  });

  it('lists at most 50, the newest', async () => {
    const o = await owner();
    for (let i = 0; i < 55; i++) {
      await t.db
        .insertInto('proposals')
        .values({ id: crypto.randomUUID(), user_id: o.user.id, start_ms: Date.UTC(2026, 11, 1) + i * 3_600_000, end_ms: Date.UTC(2026, 11, 1) + i * 3_600_000 + 1_800_000, name: `V${i}`, email: 'v@example.org', visitor_timezone: 'UTC', created_at: NOW - i })
        .execute();
    }
    const res = await request(t.app).get('/api/me/proposals').set(o.auth);
    expect(res.body.proposals).toHaveLength(50);
    expect(res.body.proposals[0].name).toBe('V0');
    expect(res.body.proposals[49].name).toBe('V49');
  });

  it('needs a verified owner', async () => {
    expect((await request(t.app).get('/api/me/proposals')).status).toBe(401);
    const unverified = await buildUser(t, { verified: false });
    expect((await request(t.app).get('/api/me/proposals').set(unverified.auth)).status).toBe(403);
    expect((await request(t.app).delete(`/api/me/proposals/${crypto.randomUUID()}`)).status).toBe(401);
  });
});
