/**
 * Fuzz (issue 12): every route of the API — enumerated from the app's own router stack, so a new
 * route is fuzzed without editing this file — gets malformed JSON, wrong types, huge strings and
 * bodies, NUL and unusual unicode (unpaired surrogates, overlong UTF-8 and other undecodable bytes,
 * in bodies and path parts — issue 26), odd methods and odd path parameters, with and without a
 * bearer token. Property: no answer is ≥ 500 (but the deliberate 503 for a provider this server
 * has no credentials for), and the server still answers afterwards.
 * CI: 2,000 requests; `npm run test:reliability`: × RELIABILITY_SCALE.
 */
import fc from 'fast-check';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, type BuiltUser } from '../factories.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { reportReliability, SCALE } from './reliability-report.ts';

const REQUESTS = 2_000 * SCALE;

interface Route {
  method: string;
  path: string;
}

/** `{method, path}` of every route, walking the Express 5 router stack (nested routers mounted on /api). */
function routesOf(app: unknown): Route[] {
  const out: Route[] = [];
  const walk = (stack: Array<{ route?: { path: string; methods: Record<string, boolean> }; handle?: { stack?: unknown[] } }>) => {
    for (const layer of stack) {
      if (layer.route) for (const m of Object.keys(layer.route.methods)) out.push({ method: m, path: `/api${layer.route.path}` });
      else if (layer.handle?.stack) walk(layer.handle.stack as typeof stack);
    }
  };
  walk((app as { router: { stack: Parameters<typeof walk>[0] } }).router.stack);
  return out;
}

let t: TestApp;
let owner: BuiltUser;
beforeAll(async () => {
  t = await createTestApp();
  owner = await buildUser(t, { username: `fuzz${Date.now().toString(36)}`, timezone: 'Europe/Brussels' });
});
afterAll(async () => {
  await t?.close();
});

const weird = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.constantFrom('\u0000', '\u202e', '\ud800', '../../etc/passwd', '%00', '<script>', '{}', '[]', 'null', '-1', '1e309', '9'.repeat(40), ' '),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);
const value = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, weird, fc.array(tie('v'), { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 12 }), tie('v'), { maxKeys: 5 })),
})).v;
/** A body as sent on the wire (a string): JSON of odd values, field names of the real payloads with odd values, broken JSON, huge. */
const body = fc.oneof(
  value.map((v) => JSON.stringify(v) ?? 'undefined'),
  fc
    .dictionary(fc.constantFrom('email', 'password', 'name', 'username', 'timezone', 'rules', 'start', 'end', 'url', 'date', 'weekday', 'start_time_local', 'end_time_local', 'code', 'documents', 'checkpoint', 'start_ms', 'end_ms', 'note'), value, { maxKeys: 6 })
    .map((o) => JSON.stringify(o)),
  fc.constantFrom('{', '{"a":', '[1,2', '\u0000', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"x":1}}}', 'null', '""'),
  fc.integer({ min: 300_000, max: 5_000_000 }).map((n) => JSON.stringify({ name: 'x'.repeat(n) })),
  // Bytes no UTF-8 decoder accepts as text (issue 26): overlong forms, an encoded surrogate, a NUL escape.
  fc
    .constantFrom([0xc0, 0xae], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf0, 0x80, 0x80, 0x80], [0xff])
    .chain((bad) => fc.constantFrom('email', 'name', 'note', 'password').map((field) => Buffer.concat([Buffer.from(`{"${field}":"a`), Buffer.from(bad), Buffer.from('b"}')]))),
  fc.constantFrom('{"email":"a\\u0000@b.test","password":"password123"}', '{"name":"\\ud83d"}', '{"note":"\\udc00x"}'),
);
const param = fc.oneof(fc.uuid(), fc.string({ maxLength: 30 }), fc.constantFrom('..', '%2e%2e', 'availability_rules', 'calendar_events', 'nope', '0', '-1', '\u0000', 'ab\u0000cd'));
/** Path parts sent as they are (already escaped): NUL, overlong UTF-8, an encoded surrogate (issue 26). */
const RAW_PARAMS = ['%00', 'ab%00cd', '%C0%AE%C0%AE', '%C0%80', '%ED%A0%80', '%F0%80%80%80'];
const pathParam = fc.oneof({ weight: 4, arbitrary: param.map((p) => encodeURIComponent(p)) }, { weight: 1, arbitrary: fc.constantFrom(...RAW_PARAMS) });
const ODD_METHODS = ['put', 'patch', 'delete', 'options', 'head', 'post', 'get'] as const;

describe('fuzz: every route, odd input', () => {
  it(`${REQUESTS} requests: no 5xx, the server alive`, async () => {
    // Long-lived or state-ending routes are excluded: the SSE stream (never ends by design; its
    // own tests cover it) and logout (ends the session the other requests use).
    const routes = routesOf(t.app).filter((r) => !r.path.endsWith('/replication/stream') && !r.path.endsWith('/auth/logout'));
    expect(routes.length).toBeGreaterThan(45);
    const fiveHundreds: string[] = [];
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.boolean(), // the route's own method, or an odd one
        fc.constantFrom(...ODD_METHODS),
        fc.array(pathParam, { minLength: 3, maxLength: 3 }),
        body,
        fc.boolean(), // with the owner's token
        fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16'),
        async (route, own, odd, params, payload, authed, type) => {
          let i = 0;
          const path = route.path.replace(/:[a-z_]+/gi, () => params[i++] ?? 'x');
          const method = own ? route.method : odd;
          let req = request(t.app)[method as 'get'](path).set('X-Forwarded-For', `203.0.113.${sent % 250}`);
          if (authed) req = req.set(owner.auth);
          if (method !== 'get' && method !== 'head') req = req.set('Content-Type', type).send(payload);
          const res = await req;
          sent++;
          // The one deliberate 5xx: 503 provider_unavailable, "Google Calendar is not configured on
          // this server." (the server's own configuration, said as such). Anything else ≥ 500 is a defect.
          const deliberate = res.status === 503 && res.body?.code === 'provider_unavailable';
          if (res.status >= 500 && !deliberate) fiveHundreds.push(`${method.toUpperCase()} ${path} → ${res.status} ${String(res.text).slice(0, 120)}`);
          return true; // every 5xx is collected and reported below, with its request
        },
      ),
      { numRuns: REQUESTS, endOnFailure: true },
    );
    reportReliability({ check: 'fuzz (every route, odd input)', requests: sent, trials: sent, failures: fiveHundreds.length });
    expect(fiveHundreds).toEqual([]);
    // Alive and still the same server.
    const me = await request(t.app).get('/api/me').set(owner.auth);
    expect([200, 401]).toContain(me.status); // 401 only if a fuzzed request changed the password (it cannot without the code)
    expect((await request(t.app).get('/api/health')).status).toBe(200);
  }, 600_000);
});
