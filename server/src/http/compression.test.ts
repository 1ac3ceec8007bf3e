/**
 * Served like production (issue 22 item 6): br / gzip / identity answers decode to the same bytes;
 * nothing under 1 KB is coded; `Vary: Accept-Encoding`; the build's precompressed .br / .gz copies
 * are what is sent; immutable /assets/*, no-cache + ETag + 304 for HTML (the SPA fallback and the
 * server-rendered public page); the public API's cached answer is compressed once, not per request;
 * the replication stream (SSE) is never buffered by the compressor. Raw HTTP (node:http), so the
 * bytes on the wire are what is checked.
 */
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLICATION_SCHEMA_VERSION, SCHEMA_HEADER } from '@avail/shared/rx/replication-protocol.ts';
import { buildUser, type BuiltUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createApp } from '../app.ts';
import { negotiateEncoding } from './compression.middleware.ts';
import { encodingStats, etagMatches } from './encoded-body.ts';

const NOW = Date.UTC(2026, 2, 17, 8);
const TEMPLATE = '<!doctype html><html><head><title>Availability · Avail</title></head><body><div id="root"><!--ssr-outlet--></div><!--ssr-data--></body></html>';
const STUB_SSR = `export const PUBLIC_BOOT_ID = 'avail-public-data';
export function renderPublicPage(boot) {
  return { html: '<h1>' + boot.data.user_name + '</h1>' + '<p>free</p>'.repeat(200), json: JSON.stringify({ n: boot.data.availability.windows.length }), title: 'x' };
}`;
// ~6 KB of JavaScript (a hashed asset, precompressed), a 300-byte one, a 3 KB index.html (no copies).
const BIG_JS = Array.from({ length: 150 }, (_, i) => `export const value${i} = ${JSON.stringify(`line ${i} of the bundle`)};`).join('\n');
const SMALL_JS = `export const x = ${JSON.stringify('y'.repeat(250))};`;
const INDEX_HTML = `<!doctype html><title>Avail</title><div id="root"></div>${'<!-- padding for the compressor -->\n'.repeat(80)}`;

let t: TestApp;
let server: Server;
let base: string;
let dist: string;
let owner: BuiltUser & { username: string };

beforeAll(async () => {
  t = await createTestApp({ replication: { stream: { heartbeatMs: 60_000 } } });
  t.clock.set(NOW);
  dist = path.join(t.testDb.dir, 'web-dist-coding');
  mkdirSync(path.join(dist, 'assets'), { recursive: true });
  mkdirSync(path.join(dist, 'ssr'), { recursive: true });
  writeFileSync(path.join(dist, 'index.html'), INDEX_HTML);
  writeFileSync(path.join(dist, 'public.html'), TEMPLATE);
  writeFileSync(path.join(dist, 'ssr', 'public-ssr.js'), STUB_SSR);
  const big = path.join(dist, 'assets', 'app-Ab12Cd34.js');
  writeFileSync(big, BIG_JS);
  // As the web build's precompress plugin writes them.
  writeFileSync(`${big}.br`, brotliCompressSync(BIG_JS));
  writeFileSync(`${big}.gz`, gzipSync(BIG_JS, { level: 9 }));
  writeFileSync(path.join(dist, 'assets', 'small-Ef56Gh78.js'), SMALL_JS);
  writeFileSync(path.join(dist, 'embed.js'), BIG_JS);
  writeFileSync(path.join(dist, 'sw.js'), SMALL_JS);
  const app = createApp({ ...t.deps, config: { ...t.config, WEB_DIST_DIR: dist } }, { replication: { stream: { heartbeatMs: 60_000 } } });
  server = app.listen(0);
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const username = `cod${Math.random().toString(36).slice(2, 8)}`;
  owner = { ...(await buildUser(t, { username, timezone: 'Europe/Brussels' })), username };
  for (const weekday of [0, 1, 2, 3, 4, 5, 6]) {
    for (const [s, e] of [
      ['08:00', '09:00'],
      ['10:00', '12:00'],
      ['14:00', '15:30'],
    ]) {
      await request(t.app).post('/api/me/availability-rules').set(owner.auth).send({ weekday, start_time_local: s, end_time_local: e }).expect(201);
    }
  }
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  await t.close();
});

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as sent (not decoded). */
  body: Buffer;
}

/** A GET over raw HTTP: the body exactly as on the wire. */
function get(p: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${p}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

function decode(r: Raw): Buffer {
  const enc = r.headers['content-encoding'];
  if (enc === 'br') return brotliDecompressSync(r.body);
  if (enc === 'gzip') return gunzipSync(r.body);
  expect(enc).toBeUndefined();
  return r.body;
}

const varyOf = (r: Raw) => String(r.headers.vary ?? '').toLowerCase();

describe('negotiateEncoding (RFC 9110 §12.5.3)', () => {
  it('prefers br, then gzip, honours q-values and *', () => {
    expect(negotiateEncoding('gzip, deflate, br')).toBe('br');
    expect(negotiateEncoding('gzip, br;q=0.5')).toBe('gzip');
    expect(negotiateEncoding('br;q=0, gzip')).toBe('gzip');
    expect(negotiateEncoding('*')).toBe('br');
    expect(negotiateEncoding('deflate')).toBe('identity');
    expect(negotiateEncoding('identity')).toBe('identity');
    expect(negotiateEncoding(undefined)).toBe('identity');
    expect(etagMatches('W/"a", "b"', '"a"')).toBe(true);
    expect(etagMatches('"c"', '"a"')).toBe(false);
  });
});

describe('static files of the build', () => {
  const asset = '/assets/app-Ab12Cd34.js';
  it('sends the precompressed .br / .gz copy as accepted, immutable, decoding to the same bytes', async () => {
    const file = path.join(dist, 'assets', 'app-Ab12Cd34.js');
    const br = await get(asset, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(Number(br.headers['content-length'])).toBe(statSync(`${file}.br`).size);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(varyOf(br)).toContain('accept-encoding');
    const gz = await get(asset, { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(Number(gz.headers['content-length'])).toBe(statSync(`${file}.gz`).size);
    const plain = await get(asset);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBe(statSync(file).size);
    expect(varyOf(plain)).toContain('accept-encoding');
    for (const r of [br, gz, plain]) expect(decode(r).toString()).toBe(BIG_JS);
    // One ETag per representation; each revalidates to 304.
    expect(new Set([br.headers.etag, gz.headers.etag, plain.headers.etag]).size).toBe(3);
    const again = await get(asset, { 'Accept-Encoding': 'br', 'If-None-Match': br.headers.etag! });
    expect(again.status).toBe(304);
    // The copies themselves are not URLs.
    expect((await get(`${asset}.br`)).status).toBe(404);
  });

  it('does not code a file under 1 KB (still Vary: Accept-Encoding)', async () => {
    const r = await get('/assets/small-Ef56Gh78.js', { 'Accept-Encoding': 'br, gzip' });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.body.toString()).toBe(SMALL_JS);
    expect(varyOf(r)).toContain('accept-encoding');
  });

  it('keeps embed.js loadable by other sites for an hour, and revalidates sw.js', async () => {
    const embed = await get('/embed.js', { 'Accept-Encoding': 'br' });
    expect(embed.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(embed.headers['cache-control']).toBe('public, max-age=3600');
    expect(decode(embed).toString()).toBe(BIG_JS);
    const sw = await get('/sw.js');
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect(sw.headers['cross-origin-resource-policy']).toBe('same-origin');
  });

  it('revalidates the SPA fallback (no-cache, ETag, 304), coded on the fly without a copy', async () => {
    for (const enc of ['br', 'gzip', '']) {
      const r = await get('/settings/calendars', enc ? { 'Accept-Encoding': enc } : {});
      expect(r.status).toBe(200);
      expect(r.headers['cache-control']).toBe('no-cache');
      expect(r.headers['content-security-policy']).toBeTruthy();
      expect(r.headers['content-encoding']).toBe(enc || undefined);
      expect(varyOf(r)).toContain('accept-encoding');
      expect(decode(r).toString()).toBe(INDEX_HTML);
      const etag = r.headers.etag!;
      expect(etag).toBeTruthy();
      const cached = await get('/settings/calendars', { ...(enc ? { 'Accept-Encoding': enc } : {}), 'If-None-Match': etag });
      expect(cached.status).toBe(304);
      expect(cached.body.length).toBe(0);
    }
  });
});

describe('the server-rendered public page', () => {
  it('is no-cache with an ETag, 304 when unchanged, coded on the fly', async () => {
    const r = await get(`/${owner.username}`, { 'Accept-Encoding': 'br, gzip' });
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).toBe('no-cache');
    expect(r.headers['content-encoding']).toBe('br');
    expect(decode(r).toString()).toContain('<p>free</p>');
    expect(r.headers.etag).toMatch(/^W\/"/);
    const again = await get(`/${owner.username}`, { 'Accept-Encoding': 'br, gzip', 'If-None-Match': r.headers.etag! });
    expect(again.status).toBe(304);
  });
});

describe('on-the-fly compression of API answers', () => {
  it('codes JSON above 1 KB (br, gzip, identity: same bytes) and not below', async () => {
    const p = '/api/me/availability-rules';
    const [br, gz, plain] = await Promise.all(
      ['br, gzip', 'gzip', ''].map((enc) => get(p, { ...owner.auth, ...(enc ? { 'Accept-Encoding': enc } : {}) })),
    );
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(br.headers['content-encoding']).toBe('br');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(br.body.length).toBeLessThan(plain.body.length / 2);
    for (const r of [br, gz, plain]) {
      expect(varyOf(r)).toContain('accept-encoding');
      expect(decode(r).equals(plain.body)).toBe(true);
    }
    expect(br.headers['cache-control']).toBe('no-store');
    const small = await get('/api/no-such-route', { 'Accept-Encoding': 'br, gzip' });
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(varyOf(small)).toContain('accept-encoding');
  });
});

describe('the public availability API', () => {
  it('serves the cached answer in br / gzip / identity, compressing each coding once', async () => {
    const p = `/api/public/${owner.username}/availability?range=2026-03-18..2026-06-15`;
    const before = encodingStats.compressions;
    const br = await get(p, { 'Accept-Encoding': 'br, gzip' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(varyOf(br)).toContain('accept-encoding');
    expect(br.headers['cache-control']).toBe('no-store');
    expect(br.headers['x-robots-tag']).toBe('noindex');
    expect(encodingStats.compressions).toBe(before + 1);
    const gz = await get(p, { 'Accept-Encoding': 'gzip' });
    const plain = await get(p);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(decode(br).equals(plain.body)).toBe(true);
    expect(decode(gz).equals(plain.body)).toBe(true);
    expect(JSON.parse(plain.body.toString()).availability.windows.length).toBeGreaterThan(100);
    expect(encodingStats.compressions).toBe(before + 2);
    // The cached answer's bytes are reused: more requests compress nothing.
    for (let i = 0; i < 5; i++) expect(decode(await get(p, { 'Accept-Encoding': i % 2 ? 'gzip' : 'br' })).equals(plain.body)).toBe(true);
    expect(encodingStats.compressions).toBe(before + 2);
    // One strong ETag per coding; If-None-Match → 304.
    expect(new Set([br.headers.etag, gz.headers.etag, plain.headers.etag]).size).toBe(3);
    expect((await get(p, { 'Accept-Encoding': 'br', 'If-None-Match': br.headers.etag! })).status).toBe(304);
    // A change of the owner drops the answer (and its codings): the next request codes again.
    await request(t.app).post('/api/me/availability-rules').set(owner.auth).send({ weekday: 1, start_time_local: '18:00', end_time_local: '19:00' }).expect(201);
    const changed = await get(p, { 'Accept-Encoding': 'br' });
    expect(changed.headers.etag).not.toBe(br.headers.etag);
    expect(encodingStats.compressions).toBe(before + 3);
  });

  it('sends an answer under 1 KB as it is', async () => {
    const r = await get(`/api/public/${owner.username}/availability?range=2026-03-18..2026-03-18`, { 'Accept-Encoding': 'br, gzip' });
    expect(r.status).toBe(200);
    expect(r.body.length).toBeLessThan(1024);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(r.body.toString()).user_timezone).toBe('Europe/Brussels');
  });

  it('codes the free/busy feed (text/calendar) and keeps its ETag revalidation', async () => {
    const p = `/api/public/${owner.username}/free-busy.ics`;
    const plain = await get(p);
    const br = await get(p, { 'Accept-Encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^text\/calendar/);
    expect(decode(br).equals(plain.body)).toBe(true);
    expect((await get(p, { 'If-None-Match': plain.headers.etag! })).status).toBe(304);
    expect((await get(p, { 'Accept-Encoding': 'br', 'If-None-Match': br.headers.etag! })).status).toBe(304);
  });
});

describe('the replication stream (SSE)', () => {
  it('is not coded nor buffered: an event arrives promptly', async () => {
    const chunks: string[] = [];
    const req = http.get(`${base}/api/replication/stream`, {
      headers: { ...owner.auth, [SCHEMA_HEADER]: String(REPLICATION_SCHEMA_VERSION), Accept: 'text/event-stream', 'Accept-Encoding': 'br, gzip' },
    });
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => req.on('response', resolve).on('error', reject));
    try {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(res.headers['content-encoding']).toBeUndefined();
      res.on('data', (c: Buffer) => chunks.push(c.toString()));
      const waitFor = async (pred: () => boolean, ms: number) => {
        const start = performance.now();
        while (!pred()) {
          if (performance.now() - start > ms) throw new Error(`nothing within ${ms} ms: ${JSON.stringify(chunks)}`);
          await new Promise((r) => setTimeout(r, 10));
        }
        return performance.now() - start;
      };
      await waitFor(() => chunks.join('').includes('retry:'), 2000);
      await new Promise((r) => setTimeout(r, 50));
      await request(t.app).post('/api/me/availability-rules').set(owner.auth).send({ weekday: 2, start_time_local: '19:00', end_time_local: '20:00' }).expect(201);
      const ms = await waitFor(() => chunks.join('').includes('data:'), 2000);
      expect(ms).toBeLessThan(1000);
    } finally {
      req.destroy();
    }
  });
});
