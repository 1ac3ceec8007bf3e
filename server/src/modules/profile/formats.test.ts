/** The owner's date and time format (issue 22 item 3): PUT/GET /api/me/profile, GET /api/me, validation. */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLICATION_SCHEMA_VERSION, SCHEMA_HEADER } from '@avail/shared/rx/replication-protocol.ts';
import { buildUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const put = (auth: Record<string, string>, body: object) => request(t.app).put('/api/me/profile').set(auth).send(body);

describe("the owner's date and time format", () => {
  it('starts automatic, saves the three fields, and answers them on /api/me and /api/me/profile', async () => {
    const { auth } = await buildUser(t, { timezone: 'Europe/Brussels' });
    expect((await request(t.app).get('/api/me').set(auth)).body.user).toMatchObject({ format_locale: null, hour12: null, week_start: null });

    const res = await put(auth, { format_locale: 'en-us', hour12: true, week_start: 0 }).expect(200);
    expect(res.body.message).toBe('Date and time format updated!');
    expect(res.body.profile).toMatchObject({ format_locale: 'en-US', hour12: true, week_start: 0, timezone: 'Europe/Brussels' });

    const me = (await request(t.app).get('/api/me').set(auth)).body.user;
    expect(me).toMatchObject({ format_locale: 'en-US', hour12: true, week_start: 0, timezone: 'Europe/Brussels' });
    const profile = (await request(t.app).get('/api/me/profile').set(auth)).body.profile;
    expect(profile).toMatchObject({ format_locale: 'en-US', hour12: true, week_start: 0 });
  });

  it('changes only the given fields; null goes back to automatic; false is the 24-hour clock', async () => {
    const { auth } = await buildUser(t);
    await put(auth, { format_locale: 'de-DE', hour12: true, week_start: 1 }).expect(200);
    const a = await put(auth, { hour12: false }).expect(200);
    expect(a.body.profile).toMatchObject({ format_locale: 'de-DE', hour12: false, week_start: 1 });
    const b = await put(auth, { format_locale: null, week_start: null }).expect(200);
    expect(b.body.profile).toMatchObject({ format_locale: null, hour12: false, week_start: null });
    const c = await put(auth, { format_locale: '', hour12: null }).expect(200);
    expect(c.body.profile).toMatchObject({ format_locale: null, hour12: null, week_start: null });
  });

  it('keeps the older answers: a timezone or intro update alongside still says so', async () => {
    const { auth } = await buildUser(t);
    const a = await put(auth, { timezone: 'Asia/Tokyo', week_start: 6 }).expect(200);
    expect(a.body.message).toBe('Timezone updated to Asia/Tokyo!');
    expect(a.body.profile).toMatchObject({ timezone: 'Asia/Tokyo', week_start: 6 });
    const b = await put(auth, { intro: 'Hello', format_locale: 'ja-JP' }).expect(200);
    expect(b.body.message).toBe('Introduction updated!');
    expect(b.body.profile).toMatchObject({ intro: 'Hello', format_locale: 'ja-JP', week_start: 6 });
  });

  it.each([
    ['an unknown locale', { format_locale: 'not a locale!' }, 'format_locale', 'Unknown format language'],
    ['a number as locale', { format_locale: 12 }, 'format_locale', 'Format must be a language tag such as en-US'],
    ['a string clock', { hour12: 'yes' }, 'hour12', 'Clock must be 12-hour, 24-hour or automatic'],
    ['week_start 7', { week_start: 7 }, 'week_start', 'First day of week must be a whole number from 0 (Sunday) to 6 (Saturday)'],
    ['week_start -1', { week_start: -1 }, 'week_start', 'First day of week must be a whole number from 0 (Sunday) to 6 (Saturday)'],
    ['week_start 1.5', { week_start: 1.5 }, 'week_start', 'First day of week must be a whole number from 0 (Sunday) to 6 (Saturday)'],
    ['week_start as text', { week_start: '1' }, 'week_start', 'First day of week must be a whole number from 0 (Sunday) to 6 (Saturday)'],
  ])('refuses %s with 422 on its field and saves nothing', async (_name, body, field, message) => {
    const { auth } = await buildUser(t);
    const res = await put(auth, { ...body, format_locale: 'format_locale' in body ? body.format_locale : 'fr-FR' }).expect(422);
    expect(res.body.errors[field]).toBe(message);
    expect((await request(t.app).get('/api/me/profile').set(auth)).body.profile).toMatchObject({ format_locale: null, hour12: null, week_start: null });
  });

  it('moves the profile past a replication checkpoint (other devices hear of it)', async () => {
    const u = await buildUser(t);
    await put(u.auth, { week_start: 0 }).expect(200);
    const pulled = await request(t.app)
      .get('/api/replication/profile/pull')
      .query({ id: u.user.id, updated_at: u.user.updated_at })
      .set(u.auth)
      .set(SCHEMA_HEADER, String(REPLICATION_SCHEMA_VERSION))
      .expect(200);
    expect(pulled.body.documents.map((d: { id: string }) => d.id)).toEqual([u.user.id]);
  });
});
