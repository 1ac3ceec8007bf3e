/**
 * The embed (issue 14 item 7): /embed.js is small and loadable from other sites; /embed/:username is
 * the one page other sites may frame (frame-ancestors *, no X-Frame-Options), rendered in the compact
 * layout; every other page keeps frame-ancestors 'none' and X-Frame-Options: DENY.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { createApp, isEmbedPagePath, isPublicPagePath } from '../../app.ts';
import { slugOfPublicPath } from '@avail/shared/domain/public-path.ts';

const EMBED_JS = path.resolve(import.meta.dirname, '../../../../web/public/embed.js');
const TEMPLATE = '<!doctype html><html><head><title>Availability · Avail</title></head><body><div id="root"><!--ssr-outlet--></div><!--ssr-data--></body></html>';
const STUB_SSR = `export const PUBLIC_BOOT_ID = 'avail-public-data';
export function renderPublicPage(boot) {
  return { html: '<h1>' + (boot.embed ? 'embed' : 'page') + '</h1>', json: JSON.stringify({ embed: boot.embed === true, key: boot.key ?? null }), title: 'x', lang: 'en' };
}
export function renderNotFound(localePrefs, messages, embed) {
  return { html: '<p data-embed="' + embed + '">' + messages.states.notFound + '</p>', json: '', title: 'x', lang: localePrefs.language };
}`;

let t: TestApp;
let app: ReturnType<typeof createApp>;
let username: string;
let auth: { Authorization: string };
beforeAll(async () => {
  t = await createTestApp();
  const dist = path.join(t.testDb.dir, 'web-dist-embed');
  mkdirSync(path.join(dist, 'ssr'), { recursive: true });
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Avail</title><div id="root"></div>');
  writeFileSync(path.join(dist, 'public.html'), TEMPLATE);
  writeFileSync(path.join(dist, 'ssr', 'public-ssr.js'), STUB_SSR);
  copyFileSync(EMBED_JS, path.join(dist, 'embed.js'));
  app = createApp({ ...t.deps, config: { ...t.config, WEB_DIST_DIR: dist } });
  username = `emb${Math.random().toString(36).slice(2, 8)}`;
  ({ auth } = await buildUser(t, { username }));
});
afterAll(async () => {
  await t.close();
});

const frameAncestors = (csp: string | undefined) => /frame-ancestors ([^;]+)/.exec(csp ?? '')?.[1];

describe('GET /embed.js', () => {
  it('is at most 10 KB gzipped, JavaScript, cacheable and loadable by other sites', async () => {
    const res = await request(app).get('/embed.js');
    expect(res.status).toBe(200);
    expect(res.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(res.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(res.get('cache-control')).toMatch(/max-age=3600/);
    expect(gzipSync(readFileSync(EMBED_JS)).length).toBeLessThanOrEqual(10 * 1024);
    expect(res.text).toContain("'/embed/'");
    // Other files keep same-origin CORP.
    expect((await request(app).get('/index.html')).get('cross-origin-resource-policy')).toBe('same-origin');
  });
});

describe('GET /embed/:username', () => {
  it('renders the compact page and lets any site frame it', async () => {
    const res = await request(app).get(`/embed/${username}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h1>embed</h1>');
    expect(res.text).toContain('"embed":true');
    expect(frameAncestors(res.get('content-security-policy'))).toBe('*');
    expect(res.get('x-frame-options')).toBeUndefined();
    expect(res.get('x-robots-tag')).toBe('noindex');
    expect(res.get('cache-control')).toBe('no-cache');
  });

  it('passes a personal link key on, and refuses what the page refuses (the 404 page, still frameable)', async () => {
    const link = await request(app).post('/api/me/share-links').set(auth).send({ label: 'Website' });
    const key = new URL(link.body.url).searchParams.get('key')!;
    const withKey = await request(app).get(`/embed/${username}`).query({ key });
    expect(withKey.text).toContain(`"key":"${key}"`);
    await request(app).put('/api/me/share-links/plain-link').set(auth).send({ enabled: false });
    const off = await request(app).get(`/embed/${username}`);
    expect(off.status).toBe(404);
    expect(off.text).toContain('<p data-embed="true">This availability link could not be found.</p>');
    expect((await request(app).get(`/embed/${username}`).query({ key })).text).toContain('<h1>embed</h1>');
    await request(app).put('/api/me/share-links/plain-link').set(auth).send({ enabled: true });
    const res = await request(app).get('/embed/nobody-here-xyz');
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('<h1>');
    expect(res.text).toContain('<p data-embed="true">');
    expect(frameAncestors(res.get('content-security-policy'))).toBe('*');
  });

  it('leaves every other page unframeable', async () => {
    for (const p of [`/${username}`, `/u/${username}`, '/app/dashboard', '/login', '/']) {
      const res = await request(app).get(p);
      expect(frameAncestors(res.get('content-security-policy')), p).toBe("'none'");
      expect(res.get('x-frame-options'), p).toBe('DENY');
    }
  });

  it('recognises only /embed/<one segment>', () => {
    expect(isEmbedPagePath('/embed/alice')).toBe(true);
    expect(isEmbedPagePath('/embed/alice/')).toBe(true);
    expect(isEmbedPagePath('/embed')).toBe(false);
    expect(isEmbedPagePath('/embed/alice/x')).toBe(false);
    expect(isPublicPagePath('/embed/alice')).toBe(false);
    expect(slugOfPublicPath('/embed/Al%C3%AFce')).toBe('Alïce');
  });
});
