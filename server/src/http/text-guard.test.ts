/**
 * Issue 26: text no database stores as sent — a NUL character, an unpaired surrogate, overlong
 * UTF-8 — is refused at the edge with a clear 4xx on SQLite and PostgreSQL alike (PostgreSQL used to
 * answer 500 to a NUL in 18 of 34 probes, six of them without signing in). Also the guard's walker
 * and the shared rule the device's schemas use.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { busyBlockSchema } from '@avail/shared/schemas/block.schema.ts';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '@avail/shared/schemas/storable-text.ts';
import { REPLICATION_SCHEMA_VERSION, SCHEMA_HEADER } from '@avail/shared/rx/replication-protocol.ts';
import { buildUser, type BuiltUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { findUnstorableText } from './text-guard.middleware.ts';

let t: TestApp;
let owner: BuiltUser;
beforeAll(async () => {
  t = await createTestApp();
  owner = await buildUser(t, { username: `nul${Date.now().toString(36).slice(-6)}` });
});
afterAll(async () => {
  await t?.close();
});

const NUL = '\u0000';
const LONE = '\uD83D'; // half of an emoji

describe('refused at the edge, never a 500', () => {
  it('a NUL in a path part is a 404 like any unknown name; in the query a 400', async () => {
    for (const path of ['/api/public/ab%00cd/availability', '/api/public/ab%00cd/free-busy.ics', `/api/public/${owner.user.username}%00/availability`, '/api/me/blocks/x%00y']) {
      const res = await request(t.app).get(path).set(owner.auth);
      expect(res.status, path).toBe(404);
    }
    const q = await request(t.app).get(`/api/public/${owner.user.username}/availability?range=2030-01-01%00..2030-01-02`);
    expect(q.status).toBe(400);
    expect(q.body).toEqual({ error: 'The address contains a NUL character.', code: 'bad_request' });
    await request(t.app).delete('/api/me/blocks/abc%00').set(owner.auth).expect(404);
  });

  it('overlong UTF-8 and encoded surrogates in a path are a 400 Malformed URL', async () => {
    for (const path of ['/api/public/%C0%AE%C0%AE/availability', '/api/public/%ED%A0%80/availability']) {
      const res = await request(t.app).get(path);
      expect(res.status, path).toBe(400);
      expect(res.body.error).toBe('Malformed URL');
    }
  });

  it('a NUL or an unpaired surrogate in a JSON body is a 422 on that field: sign-in, sign-up, reset, verify, blocks, replication', async () => {
    const probes: Array<[string, string, Record<string, unknown> | unknown[], string, boolean]> = [
      ['post', '/api/auth/login', { email: `a${NUL}@b.test`, password: 'password123' }, 'email', false],
      ['post', '/api/auth/register', { name: 'Ann', email: 'ann@b.test', password: `pass${NUL}word1`, password_confirmation: `pass${NUL}word1` }, 'password', false],
      ['post', '/api/auth/forgot-password', { email: `x${LONE}@b.test` }, 'email', false],
      ['post', '/api/auth/verify-email', { email: 'a@b.test', code: `12${NUL}456` }, 'code', false],
      ['post', '/api/me/blocks', { start_ms: Date.now() + 3_600_000, end_ms: Date.now() + 7_200_000, note: `gym${LONE}` }, 'note', true],
      ['put', '/api/me/profile', { name: `Ann${NUL}` }, 'name', true],
    ];
    for (const [method, path, body, field, auth] of probes) {
      let req = (request(t.app) as unknown as Record<string, (p: string) => request.Test>)[method](path);
      if (auth) req = req.set(owner.auth);
      const res = await req.send(body);
      expect(res.status, path).toBe(422);
      expect(res.body.errors, path).toEqual({ [field]: UNSTORABLE_TEXT_MESSAGE });
    }
    const push = await request(t.app)
      .post('/api/replication/busy_blocks/push')
      .set(owner.auth)
      .set(SCHEMA_HEADER, String(REPLICATION_SCHEMA_VERSION))
      .send([{ assumedMasterState: null, newDocumentState: { id: crypto.randomUUID(), start_ms: Date.now(), end_ms: Date.now() + 60_000, note: `a${NUL}b`, edited_at: Date.now(), device_id: 'd', updated_at: 0, _deleted: false } }]);
    expect(push.status).toBe(422);
    expect(push.body.errors).toEqual({ '0.newDocumentState.note': UNSTORABLE_TEXT_MESSAGE });
    // Nothing was stored.
    expect((await request(t.app).get('/api/me/blocks').set(owner.auth).expect(200)).body.blocks).toEqual([]);
  });

  it('emoji and other text with paired surrogates pass', async () => {
    const res = await request(t.app).post('/api/me/blocks').set(owner.auth).send({ start_ms: Date.now() + 3_600_000, end_ms: Date.now() + 7_200_000, note: 'Gym 🏋️ Ünïcödé' });
    expect(res.status).toBe(201);
    expect(res.body.block.note).toBe('Gym 🏋️ Ünïcödé');
  });
});

describe('the rule', () => {
  it('finds the first unstorable string or key with its path, and passes paired surrogates', () => {
    expect(findUnstorableText({ a: 'ok', b: [{ c: 'x' }, { d: `y${NUL}` }] })).toBe('b.1.d');
    expect(findUnstorableText({ [`k${NUL}`]: 1 })).toBe('k?');
    expect(findUnstorableText(`${LONE}`)).toBe('_');
    expect(findUnstorableText({ e: '\uDE00 low alone' })).toBe('e');
    expect(findUnstorableText({ e: '😀 paired', n: 5, z: null })).toBeNull();
    expect(isStorableText('😀')).toBe(true);
    expect(isStorableText(`a${NUL}`)).toBe(false);
  });

  it("the device's block schema refuses the same note, so an offline device never queues a write the server would refuse", () => {
    const r = busyBlockSchema.safeParse({ start_ms: 1_000, end_ms: 2_000, note: `a${LONE}` });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe(UNSTORABLE_TEXT_MESSAGE);
  });
});
