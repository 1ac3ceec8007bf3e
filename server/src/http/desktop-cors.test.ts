import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { loadConfig, ConfigError } from '../config.ts';

describe('CORS for the desktop app (issue 10)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers the desktop origin’s preflight for an authenticated replication call, without credentials', async () => {
    const res = await request(t.app)
      .options('/api/replication/availability_rules/pull')
      .set('Origin', 'app://avail')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization,x-avail-schema');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('app://avail');
    expect(res.headers['access-control-allow-headers']).toMatch(/Authorization/);
    expect(res.headers['access-control-allow-headers']).toMatch(/X-Avail-Schema/);
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('lets the desktop app read /api/me with its bearer token', async () => {
    const { auth, user } = await buildUser(t);
    const res = await request(t.app).get('/api/me').set('Origin', 'app://avail').set(auth);
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe(user.email);
    expect(res.headers['access-control-allow-origin']).toBe('app://avail');
  });

  it('gives any other origin no CORS headers, so a browser refuses the cross-site read', async () => {
    const pre = await request(t.app)
      .options('/api/me')
      .set('Origin', 'https://evil.example')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization');
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    const { auth } = await buildUser(t);
    const res = await request(t.app).get('/api/me').set('Origin', 'https://evil.example').set(auth);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('DESKTOP_ORIGINS adds origins and refuses a value that is not an origin', () => {
    const cfg = loadConfig({ DESKTOP_ORIGINS: 'app://avail, http://127.0.0.1:5999', AVAIL_SECRET_KEY: 'a'.repeat(64), DATA_DIR: t.config.DATA_DIR });
    expect(cfg.DESKTOP_ORIGINS).toEqual(['app://avail', 'http://127.0.0.1:5999']);
    expect(() => loadConfig({ DESKTOP_ORIGINS: 'http://x.example/path', AVAIL_SECRET_KEY: 'a'.repeat(64), DATA_DIR: t.config.DATA_DIR })).toThrow(ConfigError);
  });
});
