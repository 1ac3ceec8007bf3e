import { createHash } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
const NOW = Date.UTC(2026, 2, 20, 12); // Friday 2026-03-20 12:00Z
beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(NOW);
});
afterAll(async () => {
  await t.close();
});

let seq = 0;
async function owner() {
  const username = `share${++seq}x${Math.random().toString(36).slice(2, 6)}`;
  const built = await buildUser(t, { username, timezone: 'Europe/Brussels', name: 'Olivia Owner' });
  await request(t.app).post('/api/me/availability-rules').set(built.auth).send({ weekday: 0, start_time_local: '09:00', end_time_local: '17:00' });
  return { ...built, username };
}

const create = (auth: { Authorization: string }, body: Record<string, unknown>) => request(t.app).post('/api/me/share-links').set(auth).send(body);
const keyOf = (url: string) => new URL(url).searchParams.get('key')!;
const availability = (slug: string, key?: string, ua = 'visitor-a') =>
  request(t.app)
    .get(`/api/public/${slug}/availability`)
    .query({ range: '2026-03-23..2026-03-29', ...(key !== undefined ? { key } : {}) })
    .set('User-Agent', ua);

/** What an unknown username answers: the one 404 every refused link must equal. */
async function unknownAnswer() {
  const res = await availability(`nobody${Math.random().toString(36).slice(2, 8)}`);
  return { status: res.status, body: res.body, type: res.get('content-type') };
}
const answerOf = (res: request.Response) => ({ status: res.status, body: res.body, type: res.get('content-type') });

describe('POST /api/me/share-links', () => {
  it('creates a labelled link with an unguessable key that is stored only hashed', async () => {
    const o = await owner();
    const res = await create(o.auth, { label: 'Acme Corp', expires_at: '2026-04-01T00:00:00Z' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ label: 'Acme Corp', expires_at: '2026-04-01T00:00:00Z', created_at: '2026-03-20T12:00:00Z', expired: false, views: 0, last_viewed_at: null });
    expect(res.body.url).toMatch(new RegExp(`^http://avail\\.test/${o.username}\\?key=[A-Za-z0-9_-]{43}$`));
    const key = keyOf(res.body.url);
    expect(Buffer.from(key, 'base64url')).toHaveLength(32); // 256 bits
    const row = await t.db.selectFrom('share_links').selectAll().where('id', '=', res.body.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(key);
    // Listed again later with the same URL (the owner can copy it again).
    const list = await request(t.app).get('/api/me/share-links').set(o.auth);
    expect(list.body).toEqual({ share_links: [res.body], plain_link_enabled: true });
  });

  it('gives every link its own key', async () => {
    const o = await owner();
    const a = await create(o.auth, { label: 'A' });
    const b = await create(o.auth, { label: 'B' });
    expect(keyOf(a.body.url)).not.toBe(keyOf(b.body.url));
    expect(a.body.expires_at).toBeNull();
  });

  it('refuses a missing label, a past expiry and an owner without a username, and stores nothing', async () => {
    const o = await owner();
    const noLabel = await create(o.auth, { label: '   ' });
    expect(noLabel.status).toBe(422);
    expect(noLabel.body.errors).toEqual({ label: 'Give the link a label, e.g. who it is for.' });
    const past = await create(o.auth, { label: 'Late', expires_at: '2026-03-20T11:59:00Z' });
    expect(past.status).toBe(422);
    expect(past.body.errors).toEqual({ expires_at: 'The expiry must be in the future.' });
    const bad = await create(o.auth, { label: 'Bad', expires_at: 'next week' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ expires_at: 'The expiry must be a date and time.' });
    const nameless = await buildUser(t);
    const noName = await create(nameless.auth, { label: 'X' });
    expect(noName.status).toBe(409);
    expect(noName.body).toMatchObject({ code: 'no_username', error: 'Choose a username first.' });
    expect((await request(t.app).get('/api/me/share-links').set(o.auth)).body.share_links).toEqual([]);
  });

  it('needs a signed-in, verified owner', async () => {
    expect((await request(t.app).get('/api/me/share-links')).status).toBe(401);
    const unverified = await buildUser(t, { verified: false, username: `unv${++seq}x` });
    expect((await create(unverified.auth, { label: 'X' })).status).toBe(403);
  });
});

describe('opening a personal link', () => {
  it('shows the same windows as the plain link, and proposals and the feed accept the key', async () => {
    const o = await owner();
    const key = keyOf((await create(o.auth, { label: 'Acme' })).body.url);
    const plain = await availability(o.username);
    const viaKey = await availability(o.username, key);
    expect(viaKey.status).toBe(200);
    expect(viaKey.body.availability).toEqual(plain.body.availability);
    const feed = await request(t.app).get(`/api/public/${o.username}/free-busy.ics`).query({ key });
    expect(feed.status).toBe(200);
    const proposal = await request(t.app)
      .post(`/api/public/${o.username}/proposals`)
      .query({ key })
      .send({ start: '2026-03-23T09:00:00Z', end: '2026-03-23T09:30:00Z', name: 'Vera', email: 'vera@example.com', visitor_timezone: 'Europe/Brussels' });
    expect(proposal.status).toBe(201);
  });

  it('answers a revoked link exactly like an unknown username, from the next request on', async () => {
    const o = await owner();
    const link = (await create(o.auth, { label: 'Temp' })).body;
    expect((await availability(o.username, keyOf(link.url))).status).toBe(200);
    const del = await request(t.app).delete(`/api/me/share-links/${link.id}`).set(o.auth);
    expect(del.status).toBe(204);
    expect(answerOf(await availability(o.username, keyOf(link.url)))).toEqual(await unknownAnswer());
    expect((await request(t.app).get('/api/me/share-links').set(o.auth)).body.share_links).toEqual([]);
    // Revoking again, or another owner's link, is a 404 for the owner.
    expect((await request(t.app).delete(`/api/me/share-links/${link.id}`).set(o.auth)).status).toBe(404);
  });

  it('answers an expired link exactly like an unknown username and lists it as expired', async () => {
    const o = await owner();
    const link = (await create(o.auth, { label: 'Week', expires_at: '2026-03-21T12:00:00Z' })).body;
    expect((await availability(o.username, keyOf(link.url))).status).toBe(200);
    t.clock.set(Date.parse('2026-03-21T12:00:00Z'));
    try {
      expect(answerOf(await availability(o.username, keyOf(link.url)))).toEqual(await unknownAnswer());
      const proposal = await request(t.app)
        .post(`/api/public/${o.username}/proposals`)
        .query({ key: keyOf(link.url) })
        .send({ start: '2026-03-23T09:00:00Z', end: '2026-03-23T09:30:00Z', name: 'Vera', email: 'vera@example.com', visitor_timezone: 'Europe/Brussels' });
      expect(proposal.status).toBe(404);
      const listed = (await request(t.app).get('/api/me/share-links').set(o.auth)).body.share_links;
      expect(listed).toMatchObject([{ id: link.id, expired: true }]);
    } finally {
      t.clock.set(NOW);
    }
  });

  it("refuses another owner's key, a made-up key and a repeated key like an unknown username", async () => {
    const a = await owner();
    const b = await owner();
    const bKey = keyOf((await create(b.auth, { label: 'For B' })).body.url);
    const unknown = await unknownAnswer();
    expect(answerOf(await availability(a.username, bKey))).toEqual(unknown);
    expect(answerOf(await availability(a.username, 'A'.repeat(43)))).toEqual(unknown);
    const twice = await request(t.app).get(`/api/public/${b.username}/availability?key=${bKey}&key=${bKey}`);
    expect(answerOf(twice)).toEqual(unknown);
  });

  it('with the plain link off, only personal links open the page; switching it on again restores it', async () => {
    const o = await owner();
    const key = keyOf((await create(o.auth, { label: 'Client' })).body.url);
    expect((await availability(o.username)).status).toBe(200); // cached owner, before the switch
    const off = await request(t.app).put('/api/me/share-links/plain-link').set(o.auth).send({ enabled: false });
    expect(off.body).toEqual({ plain_link_enabled: false });
    const unknown = await unknownAnswer();
    expect(answerOf(await availability(o.username))).toEqual(unknown);
    expect(answerOf(await request(t.app).get(`/api/public/${o.username}/free-busy.ics`))).toMatchObject({ status: 404, body: unknown.body });
    expect((await availability(o.username, key)).status).toBe(200);
    expect((await request(t.app).get('/api/me/share-links').set(o.auth)).body.plain_link_enabled).toBe(false);
    await request(t.app).put('/api/me/share-links/plain-link').set(o.auth).send({ enabled: true });
    expect((await availability(o.username)).status).toBe(200);
    const bad = await request(t.app).put('/api/me/share-links/plain-link').set(o.auth).send({ enabled: 'no' });
    expect(bad.status).toBe(422);
  });

  it('counts distinct visitors per day per link, apart from the plain link', async () => {
    const o = await owner();
    const a = (await create(o.auth, { label: 'A' })).body;
    const b = (await create(o.auth, { label: 'B' })).body;
    await availability(o.username, keyOf(a.url), 'visitor-1');
    await availability(o.username, keyOf(a.url), 'visitor-1'); // same visitor, same day
    await availability(o.username, keyOf(a.url), 'visitor-2');
    await availability(o.username, undefined, 'visitor-3'); // the plain link
    t.clock.set(NOW + 86_400_000);
    try {
      await availability(o.username, keyOf(a.url), 'visitor-1'); // next day counts again
    } finally {
      t.clock.set(NOW);
    }
    const listed = (await request(t.app).get('/api/me/share-links').set(o.auth)).body.share_links;
    const byId = Object.fromEntries(listed.map((l: { id: string }) => [l.id, l]));
    expect(byId[a.id]).toMatchObject({ views: 3, last_viewed_at: '2026-03-21T12:00:00Z' });
    expect(byId[b.id]).toMatchObject({ views: 0, last_viewed_at: null });
  });
});
