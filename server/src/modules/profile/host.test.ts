/**
 * The host on the public page (issue 22 item 4): the owner's picture (PUT/DELETE/GET /api/me/avatar,
 * GET /api/public/:slug/avatar.webp) and introduction (PUT /api/me/profile `intro`), and the public
 * answer's `host`.
 */
import sharp from 'sharp';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
const NOW = Date.UTC(2026, 2, 20, 12);
beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(NOW);
});
afterAll(async () => {
  await t.close();
});

let seq = 0;
async function owner() {
  const username = `host${++seq}x${Math.random().toString(36).slice(2, 6)}`;
  const built = await buildUser(t, { username, name: 'Olivia Owner' });
  return { ...built, username };
}

/** A 600×400 picture with a red left half and a blue right half, in `format`. */
function picture(format: 'png' | 'jpeg' | 'webp' | 'gif', width = 600, height = 400) {
  const left = { input: { create: { width: width / 2, height, channels: 3 as const, background: '#d00' } }, left: 0, top: 0 };
  return sharp({ create: { width, height, channels: 3, background: '#00d' } })
    .composite([left])
    .toFormat(format)
    .toBuffer();
}

const upload = (auth: Record<string, string>, body: Buffer | string, type: string) =>
  request(t.app).put('/api/me/avatar').set(auth).set('Content-Type', type).send(body);

async function storedRows(userId: string) {
  return t.db.selectFrom('user_avatars').selectAll().where('user_id', '=', userId).execute();
}
async function versionOf(userId: string) {
  return (await t.db.selectFrom('users').select('avatar_version').where('id', '=', userId).executeTakeFirstOrThrow()).avatar_version;
}
async function answerOf(slug: string, key?: string) {
  return request(t.app).get(`/api/public/${slug}/availability`).query(key ? { key } : {});
}

describe('PUT /api/me/avatar', () => {
  it.each(['png', 'jpeg', 'webp'] as const)('stores a %s as a 256×256 WebP and answers its versioned public URL', async (format) => {
    const o = await owner();
    const res = await upload(o.auth, await picture(format), `image/${format}`);
    expect(res.status).toBe(200);
    expect(res.body.avatar_url).toMatch(new RegExp(`^/api/public/${o.username}/avatar\\.webp\\?v=[0-9a-f]{16}$`));
    expect(res.body.avatar_url).toBe(`/api/public/${o.username}/avatar.webp?v=${res.body.avatar_version}`);
    const [row] = await storedRows(o.user.id);
    expect(row.version).toBe(res.body.avatar_version);
    expect(await versionOf(o.user.id)).toBe(res.body.avatar_version);
    const meta = await sharp(Buffer.from(row.image)).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 });
    // Cover-cropped around the centre: the 3:2 picture keeps both halves, red on the left, blue on the right.
    const { data, info } = await sharp(Buffer.from(row.image)).raw().toBuffer({ resolveWithObject: true });
    const px = (x: number, y: number) => Array.from(data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3));
    expect(px(10, 128)[0]).toBeGreaterThan(180);
    expect(px(245, 128)[2]).toBeGreaterThan(180);
  });

  it('strips EXIF and other metadata (a JPEG with EXIF comes out with none)', async () => {
    const o = await owner();
    const withExif = await sharp(await picture('jpeg'))
      .withMetadata({ exif: { IFD0: { Copyright: 'Olivia Owner', ImageDescription: 'home-address-42' } } })
      .jpeg()
      .toBuffer();
    expect((await sharp(withExif).metadata()).exif).toBeDefined();
    expect(withExif.includes('home-address-42')).toBe(true);
    const res = await upload(o.auth, withExif, 'image/jpeg');
    expect(res.status).toBe(200);
    const image = Buffer.from((await storedRows(o.user.id))[0].image);
    const meta = await sharp(image).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(image.includes('home-address-42')).toBe(false);
    expect(image.includes('EXIF')).toBe(false);
  });

  it('replaces the picture with a new version', async () => {
    const o = await owner();
    const first = await upload(o.auth, await picture('png'), 'image/png');
    const second = await upload(o.auth, await picture('png', 300, 600), 'image/png');
    expect(second.status).toBe(200);
    expect(second.body.avatar_version).not.toBe(first.body.avatar_version);
    expect(await storedRows(o.user.id)).toHaveLength(1);
    // The old URL is gone; the new one serves.
    expect((await request(t.app).get(first.body.avatar_url)).status).toBe(404);
    expect((await request(t.app).get(second.body.avatar_url)).status).toBe(200);
  });

  const refusals: Array<[string, () => Promise<Buffer | string>, string, number, string]> = [
    ['a GIF', () => picture('gif'), 'image/gif', 422, 'The picture must be a PNG, JPEG or WebP image'],
    ['text declared as text', async () => 'not a picture', 'text/plain', 422, 'The picture must be a PNG, JPEG or WebP image'],
    ['text declared as PNG', async () => 'not a picture at all', 'image/png', 422, 'The file is not a valid PNG image'],
    ['a GIF declared as PNG', () => picture('gif'), 'image/png', 422, 'The file is not a valid PNG image'],
    ['a PNG declared as JPEG', () => picture('png'), 'image/jpeg', 422, 'The file is not a valid JPEG image'],
    ['a truncated JPEG', async () => (await picture('jpeg')).subarray(0, 1500), 'image/jpeg', 422, 'The file is not a valid JPEG image'],
    ['a truncated PNG', async () => (await picture('png')).subarray(0, 400), 'image/png', 422, 'The file is not a valid PNG image'],
    ['a JPEG sent as JSON', async () => JSON.stringify({ avatar: 'x' }), 'application/json', 422, 'The picture must be a PNG, JPEG or WebP image'],
    ['an empty body', async () => Buffer.alloc(0), 'image/png', 422, 'The picture must be a PNG, JPEG or WebP image'],
    ['more than 2 MB', async () => Buffer.concat([await picture('png'), Buffer.alloc(2 * 1024 * 1024)]), 'image/png', 413, 'The picture must be at most 2 MB'],
  ];
  it.each(refusals)('refuses %s and stores nothing', async (_name, make, type, status, message) => {
    const o = await owner();
    const kept = await upload(o.auth, await picture('png'), 'image/png');
    const res = await upload(o.auth, await make(), type);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ error: message, errors: { avatar: message } });
    // The earlier picture is untouched.
    expect(await versionOf(o.user.id)).toBe(kept.body.avatar_version);
    const rows = await storedRows(o.user.id);
    expect(rows.map((r) => r.version)).toEqual([kept.body.avatar_version]);
    // And a first upload refused leaves nothing at all.
    const fresh = await owner();
    expect((await upload(fresh.auth, await make(), type)).status).toBe(status);
    expect(await storedRows(fresh.user.id)).toEqual([]);
    expect(await versionOf(fresh.user.id)).toBeNull();
  });

  it('refuses a picture that would decode to more than 40 megapixels', async () => {
    const o = await owner();
    const huge = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#fff' } }).png({ compressionLevel: 9 }).toBuffer();
    expect(huge.length).toBeLessThan(2 * 1024 * 1024);
    const res = await upload(o.auth, huge, 'image/png');
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('The picture is too large: at most 40 megapixels');
    expect(await storedRows(o.user.id)).toEqual([]);
  });

  it('needs a signed-in, verified owner', async () => {
    expect((await upload({}, await picture('png'), 'image/png')).status).toBe(401);
    const { auth } = await buildUser(t, { verified: false });
    expect((await upload(auth, await picture('png'), 'image/png')).status).toBe(403);
  });
});

describe('DELETE /api/me/avatar and GET /api/me/avatar', () => {
  it("removes the picture: the owner's copy, the public URL and the answer's avatar_url", async () => {
    const o = await owner();
    const up = await upload(o.auth, await picture('webp'), 'image/webp');
    const own = await request(t.app).get('/api/me/avatar').set(o.auth).buffer(true);
    expect(own.status).toBe(200);
    expect(own.headers['content-type']).toBe('image/webp');
    expect((await sharp(own.body as Buffer).metadata()).width).toBe(256);
    expect((await answerOf(o.username)).body.host.avatar_url).toBe(up.body.avatar_url);

    const del = await request(t.app).delete('/api/me/avatar').set(o.auth);
    expect(del.status).toBe(204);
    expect(await storedRows(o.user.id)).toEqual([]);
    expect(await versionOf(o.user.id)).toBeNull();
    expect((await request(t.app).get('/api/me/avatar').set(o.auth)).status).toBe(404);
    expect((await request(t.app).get(up.body.avatar_url)).status).toBe(404);
    expect((await answerOf(o.username)).body.host.avatar_url).toBeNull();
    // Again: nothing to remove is fine.
    expect((await request(t.app).delete('/api/me/avatar').set(o.auth)).status).toBe(204);
    expect((await request(t.app).delete('/api/me/avatar')).status).toBe(401);
  });
});

describe('GET /api/public/:slug/avatar.webp', () => {
  it('serves the WebP with an immutable, year-long cache; 404 without a picture or for another version', async () => {
    const o = await owner();
    expect((await request(t.app).get(`/api/public/${o.username}/avatar.webp?v=0123456789abcdef`)).status).toBe(404);
    const up = await upload(o.auth, await picture('png'), 'image/png');
    const res = await request(t.app).get(up.body.avatar_url).buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await sharp(res.body as Buffer).metadata()).format).toBe('webp');
    // Any case of the username; but only the current version.
    expect((await request(t.app).get(up.body.avatar_url.replace(o.username, o.username.toUpperCase()))).status).toBe(200);
    const stale = await request(t.app).get(`/api/public/${o.username}/avatar.webp?v=0123456789abcdef`);
    expect(stale.status).toBe(404);
    expect(stale.headers['cache-control']).toBe('no-store');
    expect((await request(t.app).get(`/api/public/${o.username}/avatar.webp`)).status).toBe(404);
    expect((await request(t.app).get(`/api/public/nobody-here/avatar.webp?v=${up.body.avatar_version}`)).status).toBe(404);
  });

  it('follows personal links: with the plain link off, only a live key opens the picture', async () => {
    const o = await owner();
    const up = await upload(o.auth, await picture('png'), 'image/png');
    const link = await request(t.app).post('/api/me/share-links').set(o.auth).send({ label: 'Acme' });
    const key = new URL(link.body.url).searchParams.get('key')!;
    expect((await request(t.app).put('/api/me/share-links/plain-link').set(o.auth).send({ enabled: false })).status).toBe(200);

    const unknown = await request(t.app).get(`/api/public/nobody-here/avatar.webp?v=${up.body.avatar_version}`);
    const plain = await request(t.app).get(up.body.avatar_url);
    expect(plain.status).toBe(404);
    // Exactly what an unknown username answers (nothing says a picture exists).
    expect(plain.body).toEqual(unknown.body);
    expect(plain.body).toEqual((await answerOf(o.username)).body);

    const viaKey = await request(t.app).get(`${up.body.avatar_url}&key=${key}`);
    expect(viaKey.status).toBe(200);
    expect(viaKey.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect((await answerOf(o.username, key)).body.host.avatar_url).toBe(up.body.avatar_url);
    expect((await request(t.app).get(`${up.body.avatar_url}&key=not-a-key`)).status).toBe(404);

    await request(t.app).delete(`/api/me/share-links/${link.body.id}`).set(o.auth);
    expect((await request(t.app).get(`${up.body.avatar_url}&key=${key}`)).body).toEqual(unknown.body);
  });
});

describe('PUT /api/me/profile intro', () => {
  const put = (auth: Record<string, string>, body: object) => request(t.app).put('/api/me/profile').set(auth).send(body);

  it('saves a trimmed introduction, shows it in the profile and the public answer, and clears it', async () => {
    const o = await owner();
    const intro = `${'x'.repeat(159)}y`;
    const res = await put(o.auth, { intro: `  ${intro}  ` });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'Introduction updated!', profile: { intro, avatar_url: null, timezone: 'Europe/Brussels', username: o.username } });
    expect((await request(t.app).get('/api/me/profile').set(o.auth)).body.profile).toMatchObject({ intro, avatar_url: null, avatar_version: null });
    expect((await answerOf(o.username)).body.host).toEqual({ intro, avatar_url: null });

    const both = await put(o.auth, { intro: 'Designer in Ghent', timezone: 'Europe/London' });
    expect(both.body).toMatchObject({ message: 'Timezone updated to Europe/London!', profile: { intro: 'Designer in Ghent', timezone: 'Europe/London' } });
    expect((await answerOf(o.username)).body.host.intro).toBe('Designer in Ghent');

    expect((await put(o.auth, { intro: '   ' })).body.profile.intro).toBeNull();
    expect((await answerOf(o.username)).body.host.intro).toBeNull();
    await put(o.auth, { intro: 'Back' });
    expect((await put(o.auth, { intro: null })).body.profile.intro).toBeNull();
  });

  it('refuses 161 characters (422) and keeps the saved introduction', async () => {
    const o = await owner();
    await put(o.auth, { intro: 'Kept' });
    const res = await put(o.auth, { intro: 'x'.repeat(161) });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: 'Introduction must be at most 160 characters', errors: { intro: 'Introduction must be at most 160 characters' } });
    expect((await put(o.auth, { intro: 42 })).body.error).toBe('Introduction must be text');
    // 160 after trimming is fine.
    expect((await put(o.auth, { intro: ` ${'x'.repeat(160)} ` })).status).toBe(200);
    await put(o.auth, { intro: 'Kept' });
    expect((await put(o.auth, { intro: 'x'.repeat(161), timezone: 'Europe/London' })).status).toBe(422);
    const profile = (await request(t.app).get('/api/me/profile').set(o.auth)).body.profile;
    expect(profile).toMatchObject({ intro: 'Kept', timezone: 'Europe/Brussels' });
  });

  it('still needs a timezone or an intro', async () => {
    const o = await owner();
    const res = await put(o.auth, {});
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('Please select a timezone');
  });
});

describe('the public answer', () => {
  it("carries host: { intro, avatar_url } and nothing else about the owner", async () => {
    const o = await owner();
    const before = await answerOf(o.username);
    expect(before.body.host).toEqual({ intro: null, avatar_url: null });
    await request(t.app).put('/api/me/profile').set(o.auth).send({ intro: 'Product designer, Ghent' });
    const up = await upload(o.auth, await picture('jpeg'), 'image/jpeg');
    const after = await answerOf(o.username.toUpperCase());
    expect(after.body.host).toEqual({ intro: 'Product designer, Ghent', avatar_url: up.body.avatar_url });
    // The answer's other fields are public.test.ts's; the host adds exactly these two.
    expect(Object.keys(after.body.host).sort()).toEqual(['avatar_url', 'intro']);
    expect(JSON.stringify(after.body)).not.toContain(o.user.email);
    expect(JSON.stringify(after.body)).not.toContain(o.user.id);
  });
});
