import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { createApp, isPublicPagePath } from './app.ts';

let t: TestApp;
let withWeb: ReturnType<typeof createApp>;
beforeAll(async () => {
  t = await createTestApp();
  const dist = path.join(t.testDb.dir, 'web-dist');
  mkdirSync(path.join(dist, 'assets'), { recursive: true });
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Avail</title><div id="root"></div>');
  writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log("hi")');
  withWeb = createApp({ ...t.deps, config: { ...t.config, WEB_DIST_DIR: dist } });
});
afterAll(async () => {
  await t.close();
});

describe('app shell', () => {
  it('answers unknown /api routes with a JSON 404', async () => {
    const res = await request(t.app).get('/api/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Not found', code: 'not_found' });
  });

  it('serves the web build with SPA fallback, and marks public pages noindex/no-referrer', async () => {
    const asset = await request(withWeb).get('/assets/app.js');
    expect(asset.status).toBe(200);
    expect(asset.text).toContain('hi');

    const dash = await request(withWeb).get('/app/dashboard');
    expect(dash.status).toBe(200);
    expect(dash.text).toContain('id="root"');
    expect(dash.headers['x-robots-tag']).toBeUndefined();

    for (const p of ['/alice', '/u/alice', '/Alice-Smith/']) {
      const res = await request(withWeb).get(p);
      expect(res.status, p).toBe(200);
      expect(res.headers['x-robots-tag'], p).toBe('noindex');
      expect(res.headers['referrer-policy'], p).toBe('no-referrer');
    }
    const login = await request(withWeb).get('/login');
    expect(login.headers['x-robots-tag']).toBeUndefined();
    // /api never falls back to index.html.
    expect((await request(withWeb).get('/api/unknown')).headers['content-type']).toMatch(/json/);
  });

  it('recognises public page paths', () => {
    expect(isPublicPagePath('/bob-1')).toBe(true);
    expect(isPublicPagePath('/u/bob')).toBe(true);
    expect(isPublicPagePath('/settings')).toBe(false);
    expect(isPublicPagePath('/favicon.ico')).toBe(false);
    expect(isPublicPagePath('/app/links')).toBe(false);
    expect(isPublicPagePath('/')).toBe(false);
    expect(isPublicPagePath('/%E0%A4%A')).toBe(true);
  });

  it('renders unknown errors as 500 "Something went wrong" without details', async () => {
    const { errorHandler } = await import('./http/error-handler.ts');
    const app = express();
    app.get('/boom', () => {
      throw new Error('database password is hunter2');
    });
    app.use(errorHandler(t.deps.logger));
    const res = await request(app).get('/boom');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'Something went wrong', code: 'internal_error' });
  });

  it('answers a malformed percent-escape in an API path with 400, not 500', async () => {
    for (const res of [
      await request(t.app).get('/api/public/%E0%A4%A/availability'),
      await request(t.app).delete('/api/me/exceptions/%ZZ').set('Authorization', 'Bearer aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Malformed URL', code: 'bad_request' });
    }
  });

  it('sets Cache-Control: no-store on API answers', async () => {
    const res = await request(t.app).get('/api/me');
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
