import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APP_SCHEME_PRIVILEGES, createAppProtocolHandler, resolveAppRequest } from './app-protocol.ts';
import { desktopCsp } from '@avail/shared/desktop/content-security-policy.ts';

let base: string;
let dist: string;
const SECRET = 'top secret outside the build';

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'avail-protocol-'));
  dist = join(base, 'web', 'dist');
  await mkdir(join(dist, 'assets'), { recursive: true });
  await writeFile(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  await writeFile(join(dist, 'assets', 'index-abc.js'), 'console.log(1)');
  await writeFile(join(dist, 'assets', 'app.css'), 'body{}');
  // Things a traversal would like to reach.
  await writeFile(join(base, 'web', 'secret.txt'), SECRET);
  await writeFile(join(base, 'secret.txt'), SECRET);
  await writeFile(join(base, 'web', 'dist-evil.txt'), SECRET); // shares the "dist" prefix
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const handler = () =>
  createAppProtocolHandler({ distDir: dist, readFile: (f) => readFile(f), csp: () => desktopCsp('https://avail.example.com') });

describe('resolveAppRequest', () => {
  it('serves files inside the build', () => {
    expect(resolveAppRequest(dist, 'app://avail/assets/index-abc.js')).toEqual({ status: 200, file: join(dist, 'assets', 'index-abc.js'), spaFallback: false });
    expect(resolveAppRequest(dist, 'app://avail/assets/index-abc.js?v=1#x')).toEqual({ status: 200, file: join(dist, 'assets', 'index-abc.js'), spaFallback: false });
    expect(resolveAppRequest(dist, 'app://avail/assets/my%20file.css')).toEqual({ status: 200, file: join(dist, 'assets', 'my file.css'), spaFallback: false });
  });

  it('falls back to index.html for extension-less paths (the SPA routes)', () => {
    const index = { status: 200, file: join(dist, 'index.html'), spaFallback: true };
    expect(resolveAppRequest(dist, 'app://avail/')).toEqual(index);
    expect(resolveAppRequest(dist, 'app://avail')).toEqual(index);
    expect(resolveAppRequest(dist, 'app://avail/app/dashboard')).toEqual(index);
    expect(resolveAppRequest(dist, 'app://avail/app/settings/')).toEqual(index);
    expect(resolveAppRequest(dist, 'app://avail/ana?week=2026-06-15')).toEqual(index);
  });

  it.each([
    ['dot-dot', 'app://avail/../secret.txt'],
    ['dot-dot deeper', 'app://avail/assets/../../secret.txt'],
    ['dot-dot to a sibling with the same prefix', 'app://avail/../dist-evil.txt'],
    ['single dot', 'app://avail/./index.html'],
    ['encoded dots', 'app://avail/%2e%2e/secret.txt'],
    ['encoded dots, upper case', 'app://avail/%2E%2E/%2E%2E/secret.txt'],
    ['half-encoded dots', 'app://avail/.%2e/secret.txt'],
    ['encoded slash', 'app://avail/..%2fsecret.txt'],
    ['encoded slash, upper case', 'app://avail/assets%2F..%2F..%2Fsecret.txt'],
    ['encoded backslash', 'app://avail/..%5csecret.txt'],
    ['backslash', 'app://avail/..\\secret.txt'],
    ['backslashes deeper', 'app://avail/assets\\..\\..\\secret.txt'],
    ['double-encoded dots decode to %2e', 'app://avail/%252e%252e/secret.txt'],
    ['empty segment (absolute path)', 'app://avail//etc/passwd'],
    ['encoded absolute path', 'app://avail/%2Fetc%2Fpasswd'],
    ['drive letter', 'app://avail/C:/Windows/win.ini'],
    ['encoded drive letter', 'app://avail/C%3A/Windows/win.ini'],
    ['NUL byte', 'app://avail/index.html%00.js'],
    ['other host', 'app://evil/index.html'],
    ['host with port', 'app://avail:80/index.html'],
    ['other scheme', 'file:///etc/passwd'],
    ['https', 'https://avail/index.html'],
    ['not a URL', '../secret.txt'],
  ])('refuses %s', (_name, url) => {
    const r = resolveAppRequest(dist, url);
    expect(r.status).not.toBe(200);
  });

  it('says 403 for traversal and foreign origins, 404 for undecodable escapes', () => {
    expect(resolveAppRequest(dist, 'app://avail/../secret.txt').status).toBe(403);
    expect(resolveAppRequest(dist, 'app://other/x.js').status).toBe(403);
    expect(resolveAppRequest(dist, 'app://avail/%E0%A4%A.js').status).toBe(404);
  });

  it('exports the privileged-scheme settings', () => {
    expect(APP_SCHEME_PRIVILEGES).toEqual({ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } });
  });
});

describe('createAppProtocolHandler', () => {
  const CSP = desktopCsp('https://avail.example.com');

  it('serves a file with its type, the CSP and nosniff', async () => {
    const res = await handler()({ url: 'app://avail/assets/index-abc.js' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('console.log(1)');
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(CSP);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('SPA fallback: an app route is index.html, not cached', async () => {
    const res = await handler()({ url: 'app://avail/app/dashboard' });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<div id="root">');
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toBe(CSP);
  });

  it('a missing asset is 404 (not index.html), with the CSP', async () => {
    const res = await handler()({ url: 'app://avail/assets/missing.js' });
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('root');
    expect(res.headers.get('content-security-policy')).toBe(CSP);
  });

  it.each(['app://avail/../secret.txt', 'app://avail/%2e%2e/secret.txt', 'app://avail/..%2fsecret.txt', 'app://avail/..\\secret.txt', 'app://avail/%2E%2E/%2E%2E/secret.txt', 'app://avail/../dist-evil.txt'])(
    'traversal %s is 403 and never leaks the file',
    async (url) => {
      const res = await handler()({ url });
      expect(res.status).toBe(403);
      expect(await res.text()).not.toContain(SECRET);
      expect(res.headers.get('content-security-policy')).toBe(CSP);
    },
  );

  it('a folder is 404; other methods 405', async () => {
    expect((await handler()({ url: 'app://avail/assets.d/x.js' })).status).toBe(404);
    expect((await handler()({ url: 'app://avail/index.html', method: 'POST' })).status).toBe(405);
  });

  it('reads the CSP per request (the server origin may change)', async () => {
    let origin = 'https://one.example';
    const h = createAppProtocolHandler({ distDir: dist, readFile: (f) => readFile(f), csp: () => desktopCsp(origin) });
    expect((await h({ url: 'app://avail/' })).headers.get('content-security-policy')).toContain('connect-src \'self\' https://one.example;');
    origin = 'https://two.example';
    expect((await h({ url: 'app://avail/' })).headers.get('content-security-policy')).toContain('connect-src \'self\' https://two.example;');
  });
});
