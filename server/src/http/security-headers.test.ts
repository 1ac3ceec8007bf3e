/**
 * Issue 12 (1, 9): helmet's headers on pages and the API, HSTS only on https, /api/health and
 * /api/ready, and 404 (not the app's HTML) for files the build does not have.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createApp, isAssetLikePath } from '../app.ts';
import { migrations } from '../db/migrate.ts';

let t: TestApp;
let web: ReturnType<typeof createApp>;
beforeAll(async () => {
  t = await createTestApp();
  const dist = path.join(t.testDb.dir, 'web-dist-headers');
  mkdirSync(path.join(dist, 'assets'), { recursive: true });
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Avail</title><div id="root"></div>');
  writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(dist, 'assets', 'index-abc.js'), 'export {}');
  web = createApp({ ...t.deps, config: { ...t.config, WEB_DIST_DIR: dist } });
});
afterAll(async () => {
  await t.close();
});

/** The CSP header as a directive → sources map. */
function csp(header: string | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const part of (header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) out[name] = sources;
  }
  return out;
}

describe('security headers', () => {
  it('pages carry a CSP with no inline or foreign script, and may not be framed', async () => {
    for (const p of ['/', '/app/dashboard', '/login']) {
      const res = await request(web).get(p);
      expect(res.status, p).toBe(200);
      const policy = csp(res.headers['content-security-policy']);
      expect(policy['script-src'], p).toEqual(["'self'"]);
      expect(policy['default-src']).toEqual(["'self'"]);
      expect(policy['connect-src']).toEqual(["'self'"]);
      expect(policy['object-src']).toEqual(["'none'"]);
      expect(policy['frame-ancestors']).toEqual(["'none'"]);
      expect(policy['base-uri']).toEqual(["'self'"]);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
    const api = await request(web).get('/api/health');
    expect(csp(api.headers['content-security-policy'])['frame-ancestors']).toEqual(["'none'"]);
  });

  it('sends HSTS only when the public origin is https', async () => {
    expect((await request(web).get('/')).headers['strict-transport-security']).toBeUndefined();
    const https = createApp({ ...t.deps, config: { ...t.config, PUBLIC_BASE_URL: 'https://avail.example.com' } });
    expect((await request(https).get('/api/health')).headers['strict-transport-security']).toBe('max-age=15552000; includeSubDomains');
  });
});

describe('health and readiness', () => {
  it('GET /api/health is alive without touching the database; /api/ready checks it and the migrations', async () => {
    const health = await request(t.app).get('/api/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
    expect(health.headers['cache-control']).toBe('no-store');
    const ready = await request(t.app).get('/api/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });
    expect(ready.headers['cache-control']).toBe('no-store');
    // Many polls in a row are never rate-limited.
    const statuses = await Promise.all(Array.from({ length: 50 }, () => request(t.app).get('/api/ready').then((r) => r.status)));
    expect(new Set(statuses)).toEqual(new Set([200]));
  });

  it('/api/ready answers 503 with a reason when a migration is pending', async () => {
    const name = '9999_not_yet';
    (migrations as Record<string, unknown>)[name] = { up: async () => undefined };
    try {
      const res = await request(t.app).get('/api/ready');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: 'not_ready', reason: `migrations pending: ${name}` });
    } finally {
      delete (migrations as Record<string, unknown>)[name];
    }
  });

  it('/api/ready answers 503 when the database is unreachable, and /api/health stays 200', async () => {
    const other = await createTestApp();
    await other.testDb.db.destroy();
    const res = await request(other.app).get('/api/ready');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'not_ready', reason: 'database unreachable' });
    expect((await request(other.app).get('/api/health')).status).toBe(200);
    await other.close().catch(() => undefined);
  });
});

describe('files the build does not have', () => {
  it('answer 404, not the app HTML; real files and app routes are served', async () => {
    for (const p of ['/favicon.ico', '/logo.png', '/assets/index-old.js', '/robots.txt', '/app/x.js.map', '/manifest.webmanifest']) {
      const res = await request(web).get(p);
      expect(res.status, p).toBe(404);
      expect(res.text, p).not.toContain('id="root"');
    }
    expect((await request(web).get('/favicon.svg')).status).toBe(200);
    expect((await request(web).get('/assets/index-abc.js')).status).toBe(200);
    expect((await request(web).get('/a/b/c')).text).toContain('id="root"');
    expect(isAssetLikePath('/app/dashboard')).toBe(false);
    expect(isAssetLikePath('/jane-doe')).toBe(false);
    expect(isAssetLikePath('/favicon.ico')).toBe(true);
  });
});
