/**
 * The server-rendered public page (issue 11, P3): headers, the owner's name and windows in the
 * HTML, the hydration data as non-executable, escaped JSON, no event title, the empty shell for an
 * unknown link. Runs against a stub SSR module; with a web build present (`npm run build -w web`)
 * also against the real one.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { createApp } from '../../app.ts';
import { escapeHtml, fillPublicTemplate } from './public-page.render.ts';
import { publicSlug } from './public-page.service.ts';

const NOW = Date.UTC(2026, 2, 17, 8); // Tuesday 2026-03-17 09:00 Brussels
const TITLE = 'Secret board meeting with ACME';
const TEMPLATE = '<!doctype html><html><head><title>Availability · Avail</title></head><body><div id="root"><!--ssr-outlet--></div><!--ssr-data--><script type="module" src="/assets/public.js"></script></body></html>';
// A stand-in for web/dist/ssr/public-ssr.js: the windows as text, the boot as escaped JSON.
const STUB_SSR = `export const PUBLIC_BOOT_ID = 'avail-public-data';
export function renderPublicPage(boot) {
  const esc = (s) => s.replace(/[&<>"']/g, (c) => '&#' + c.charCodeAt(0) + ';');
  const html = '<h1>' + esc(boot.data.user_name + "'s Availability") + '</h1><ul>' + boot.data.availability.windows.map((w) => '<li>' + w.start + '</li>').join('') + '</ul>';
  const json = JSON.stringify(boot).replace(/[<>&\\u2028\\u2029]/g, (c) => '\\\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
  return { html, json, title: boot.data.user_name + "'s Availability · Avail" };
}`;

let t: TestApp;
let app: ReturnType<typeof createApp>;
beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(NOW);
  const dist = path.join(t.testDb.dir, 'web-dist-ssr');
  mkdirSync(path.join(dist, 'ssr'), { recursive: true });
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Avail</title><div id="root"></div>');
  writeFileSync(path.join(dist, 'public.html'), TEMPLATE);
  writeFileSync(path.join(dist, 'ssr', 'public-ssr.js'), STUB_SSR);
  app = createApp({ ...t.deps, config: { ...t.config, WEB_DIST_DIR: dist } });
});
afterAll(async () => {
  await t.close();
});

async function owner(name: string) {
  const username = `page${Math.random().toString(36).slice(2, 8)}`;
  const built = await buildUser(t, { username, name, timezone: 'Europe/Brussels' });
  for (const weekday of [0, 1, 2, 3, 4, 5, 6]) {
    await request(t.app).post('/api/me/availability-rules').set(built.auth).send({ weekday, start_time_local: '10:00', end_time_local: '12:00' });
  }
  const now = t.clock.now();
  const s = Date.UTC(2026, 2, 18, 9, 30);
  const connection_id = crypto.randomUUID();
  await t.db.insertInto('calendar_connections').values({ id: connection_id, user_id: built.user.id, provider: 'ics', name: 'Private', status: 'active', account: 'x@acme.example', connected_at: now, updated_at: now }).execute();
  await t.db.insertInto('calendar_events').values({ id: crypto.randomUUID(), user_id: built.user.id, connection_id, uid: 'u1', title: TITLE, start_ms: s, end_ms: s + 3_600_000, all_day: 0, is_busy: 1, depends_on_owner_zone: 0 }).execute();
  await t.db.insertInto('busy_intervals').values({ id: crypto.randomUUID(), user_id: built.user.id, connection_id, start_ms: s, end_ms: s + 3_600_000, depends_on_owner_zone: 0 }).execute();
  return { ...built, username };
}

/** The JSON of the hydration script. */
function bootOf(html: string) {
  const m = /<script type="application\/json" id="avail-public-data">([^<]*)<\/script>/.exec(html);
  return m ? (JSON.parse(m[1]) as { slug: string; tz: string; now: number; data: { user_name: string; availability: { windows: Array<{ start: string }> } } }) : null;
}

describe('GET /{username} server-rendered', () => {
  it("holds the owner's name and free windows, with the private headers and no title", async () => {
    const o = await owner('Olivia Owner');
    for (const p of [`/${o.username}`, `/u/${o.username}`, `/${o.username.toUpperCase()}/`]) {
      const res = await request(app).get(p);
      expect(res.status, p).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-robots-tag']).toBe('noindex');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.text).toContain('<h1>Olivia Owner&#39;s Availability</h1>');
      expect(res.text).toContain('<title>Olivia Owner&#39;s Availability · Avail</title>');
      // Wednesday 10:00–12:00 Brussels minus the 10:30–11:30 meeting: 10:00 and 11:30 (09:00Z, 10:30Z).
      expect(res.text).toContain('<li>2026-03-18T09:00:00Z</li>');
      expect(res.text).toContain('<li>2026-03-18T10:30:00Z</li>');
      expect(res.text).not.toContain(TITLE);
      const boot = bootOf(res.text)!;
      expect(boot.tz).toBe('Europe/Brussels');
      expect(boot.now).toBe(NOW);
      expect(boot.data.user_name).toBe('Olivia Owner');
    }
  });

  it('escapes a hostile name in markup, title and data; no inline executable script', async () => {
    const o = await owner('</script><script>alert(1)</script> & Co');
    const res = await request(app).get(`/${o.username}`);
    expect(res.text).not.toContain('<script>alert(1)');
    expect(res.text).not.toMatch(/<script(?![^>]*(type="module"|type="application\/json"))/);
    expect(bootOf(res.text)!.data.user_name).toBe('</script><script>alert(1)</script> & Co');
  });

  it('answers an unknown link with the empty shell (the browser shows "could not be found"), as before', async () => {
    const res = await request(app).get('/nobody-here-at-all');
    expect(res.status).toBe(200);
    expect(res.headers['x-robots-tag']).toBe('noindex');
    expect(res.text).toContain('<div id="root"></div>');
    expect(res.text).not.toContain('application/json');
    // Reserved names and app routes stay the SPA's.
    const login = await request(app).get('/login');
    expect(login.text).toContain('<title>Avail</title>');
    expect(login.headers['x-robots-tag']).toBeUndefined();
    // The renderer and the bare template are not served as files.
    expect((await request(app).get('/ssr/public-ssr.js')).text).not.toContain('renderPublicPage');
  });

  it('helpers: slugs, escaping, the empty template', () => {
    expect(publicSlug('/u/Bob%20B')).toBe('Bob B');
    expect(publicSlug('/bob/')).toBe('bob');
    expect(publicSlug('/a/b')).toBeNull();
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;');
    expect(fillPublicTemplate(TEMPLATE)).not.toContain('<!--ssr');
  });
});
