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
import { slugOfPublicPath } from '@avail/shared/domain/public-path.ts';

const NOW = Date.UTC(2026, 2, 17, 8); // Tuesday 2026-03-17 09:00 Brussels
const TITLE = 'Secret board meeting with ACME';
const TEMPLATE = '<!doctype html><html lang="en"><head><title>Availability · Avail</title></head><body><div id="root"><!--ssr-outlet--></div><!--ssr-data--><script type="module" src="/assets/public.js"></script></body></html>';
// A stand-in for web/dist/ssr/public-ssr.js: the title in the messages' language, the windows as
// text, the boot as escaped JSON; the not-found page's sentence.
const STUB_SSR = `export const PUBLIC_BOOT_ID = 'avail-public-data';
const esc = (s) => s.replace(/[&<>"']/g, (c) => '&#' + c.charCodeAt(0) + ';');
export function renderPublicPage(boot, messages) {
  const title = messages.page.title.replace('{{name}}', boot.data.user_name);
  const html = '<h1>' + esc(title) + '</h1><ul>' + boot.data.availability.windows.map((w) => '<li>' + w.start + '</li>').join('') + '</ul>';
  const json = JSON.stringify(boot).replace(/[<>&\\u2028\\u2029]/g, (c) => '\\\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
  return { html, json, title: title + ' · Avail', lang: boot.localePrefs.language };
}
export function renderNotFound(localePrefs, messages, embed) {
  return { html: '<main data-embed="' + embed + '"><p>' + esc(messages.states.notFound) + '</p><a href="/login">' + esc(messages.states.signIn) + '</a></main>', json: '', title: messages.states.notFoundTitle + ' · Avail', lang: localePrefs.language };
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
  return m
    ? (JSON.parse(m[1]) as {
        slug: string;
        tz: string;
        now: number;
        place: { view: string; date: string | null };
        localePrefs: { language: string; locale: string; hour12?: boolean };
        data: { user_name: string; next_free?: string | null; availability: { windows: Array<{ start: string }>; range: { start: string; end: string } } };
      })
    : null;
}

describe('GET /{username} server-rendered', () => {
  it("holds the owner's name and free windows, with the private headers and no title", async () => {
    const o = await owner('Olivia Owner');
    for (const p of [`/${o.username}`, `/u/${o.username}`, `/${o.username.toUpperCase()}/`]) {
      const res = await request(app).get(p);
      expect(res.status, p).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers.vary).toMatch(/Accept-Language/);
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

  it("is in the visitor's language: the language menu's cookie over Accept-Language, English otherwise (issue 22)", async () => {
    const o = await owner('Olivia Owner');
    const de = await request(app).get(`/${o.username}`).set('Accept-Language', 'de-DE,de;q=0.9,en;q=0.5');
    expect(de.text).toContain('<html lang="de">');
    expect(de.text).toContain('<h1>Verfügbarkeit von Olivia Owner</h1>');
    expect(de.text).toContain('<title>Verfügbarkeit von Olivia Owner · Avail</title>');
    expect(bootOf(de.text)!.localePrefs).toEqual({ language: 'de', locale: 'de-DE' });
    // Japanese: English texts, Japanese dates; a chosen language and clock win over the header.
    expect(bootOf((await request(app).get(`/${o.username}`).set('Accept-Language', 'ja-JP,ja')).text)!.localePrefs).toEqual({ language: 'en', locale: 'ja-JP' });
    const chosen = await request(app).get(`/${o.username}`).set('Accept-Language', 'de-DE').set('Cookie', 'other=1; avail_lang=fr; avail_clock=12');
    expect(chosen.text).toContain('<h1>Disponibilités de Olivia Owner</h1>');
    expect(bootOf(chosen.text)!.localePrefs).toEqual({ language: 'fr', locale: 'fr-DE', hour12: true });
    // Nonsense stays English.
    expect((await request(app).get(`/${o.username}`).set('Accept-Language', ';;q=x,*').set('Cookie', 'avail_lang=xx')).text).toContain('<html lang="en">');
  });

  it('renders the period the address names (?view=&date=), and a date past the horizon as none', async () => {
    const o = await owner('Olivia Owner');
    const month = bootOf((await request(app).get(`/${o.username}?view=month&date=2026-05-20`)).text)!;
    expect(month.place).toEqual({ view: 'month', date: '2026-05-20' });
    // The answer covers that month (dates in the owner's zone): its first and last windows are in May.
    expect(month.data.availability.windows[0].start).toBe('2026-05-01T08:00:00Z');
    expect(month.data.availability.windows.at(-1)!.start).toBe('2026-05-31T08:00:00Z');
    const week = bootOf((await request(app).get(`/${o.username}?date=2026-04-08`)).text)!;
    expect(week.place).toEqual({ view: 'week', date: '2026-04-08' });
    expect(week.data.availability.windows.map((w) => w.start.slice(0, 10))).toContain('2026-04-08');
    for (const bad of ['?date=2026-02-30', '?date=tomorrow', '?view=year&date=x']) {
      expect(bootOf((await request(app).get(`/${o.username}${bad}`)).text)!.place, bad).toEqual({ view: 'week', date: null });
    }
    const far = await request(app).get(`/${o.username}?date=2031-01-01`);
    expect(far.status).toBe(200);
    expect(bootOf(far.text)!.data.availability.windows.length).toBeGreaterThan(0);
  });

  it('opens on the first week with free time: an owner busy for the next 40 days gets that week rendered, and the API says next_free', async () => {
    const o = await owner('Busy Bea');
    const user = await t.db.selectFrom('users').select('id').where('username', '=', o.username).executeTakeFirstOrThrow();
    const connection = await t.db.selectFrom('calendar_connections').select('id').where('user_id', '=', user.id).executeTakeFirstOrThrow();
    const until = NOW + 40 * 86_400_000;
    await t.db.insertInto('busy_intervals').values({ id: crypto.randomUUID(), user_id: user.id, connection_id: connection.id, start_ms: NOW - 3_600_000, end_ms: until, depends_on_owner_zone: 0 }).execute();
    await t.db.updateTable('users').set({ updated_at: NOW }).where('id', '=', user.id).execute();
    const api = await request(app).get(`/api/public/${o.username}/availability`);
    expect(api.body.availability.windows).toEqual([]);
    // 2026-04-26 (40 days on, 08:00Z) is inside Sunday's 10:00–12:00 Brussels (08:00–10:00Z): free from then.
    expect(api.body.next_free).toBe(new Date(until).toISOString().replace('.000Z', 'Z'));
    const boot = bootOf((await request(app).get(`/${o.username}`)).text)!;
    expect(boot.data.availability.windows[0].start).toBe(api.body.next_free);
    // A range with free time says nothing of next_free.
    expect((await request(app).get(`/api/public/${o.username}/availability?range=2026-05-04..2026-05-10`)).body).not.toHaveProperty('next_free');
  });

  it('answers an unknown link 404 with the "could not be found" page, in the visitor\'s language', async () => {
    const res = await request(app).get('/nobody-here-at-all').set('Accept-Language', 'nl-NL');
    expect(res.status).toBe(404);
    expect(res.headers['x-robots-tag']).toBe('noindex');
    expect(res.text).toContain('<p>Deze beschikbaarheidslink is niet gevonden.</p>');
    expect(res.text).toContain('<html lang="nl">');
    expect(res.text).not.toContain('application/json');
    expect((await request(app).get('/nobody-here-at-all')).text).toContain('<p>This availability link could not be found.</p>');
    // Reserved names and app routes stay the SPA's.
    const login = await request(app).get('/login');
    expect(login.text).toContain('<title>Avail</title>');
    expect(login.headers['x-robots-tag']).toBeUndefined();
    // The renderer and the bare template are not served as files.
    expect((await request(app).get('/ssr/public-ssr.js')).text).not.toContain('renderPublicPage');
  });

  it('helpers: slugs, escaping, the empty template', () => {
    expect(slugOfPublicPath('/u/Bob%20B')).toBe('Bob B');
    expect(slugOfPublicPath('/bob/')).toBe('bob');
    expect(slugOfPublicPath('/a/b')).toBeNull();
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;');
    expect(fillPublicTemplate(TEMPLATE)).not.toContain('<!--ssr');
  });
});
