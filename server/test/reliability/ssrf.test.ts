/**
 * SSRF (issue 12): calendar addresses that point inside the server's network are refused before
 * any connection, in every spelling — through the real connect API (ICS feeds and CalDAV) with the
 * default policy (ALLOW_PRIVATE_CALENDAR_HOSTS off). A local server on the target port counts the
 * connections it receives: it must receive none.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { createSafeFetch, isPublicAddress } from '../../src/lib/safe-fetch.ts';
import { buildUser, type BuiltUser } from '../factories.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { reportReliability } from './reliability-report.ts';

let t: TestApp;
let owner: BuiltUser;
let target: http.Server;
let port = 0;
let connections = 0;

beforeAll(async () => {
  t = await createTestApp(); // ALLOW_PRIVATE_CALENDAR_HOSTS unset: the production policy
  owner = await buildUser(t);
  target = http.createServer((_req, res) => res.end('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n'));
  target.on('connection', () => void connections++);
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  port = (target.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((r) => target?.close(r));
  await t?.close();
});

/** The spellings of "this machine / the private network" an attacker tries. */
function forms(p: number): string[] {
  return [
    `http://127.0.0.1:${p}/cal.ics`,
    `http://localhost:${p}/cal.ics`,
    `http://2130706433:${p}/cal.ics`, // decimal
    `http://0177.0.0.1:${p}/cal.ics`, // octal
    `http://0x7f.0.0.1:${p}/cal.ics`, // hex
    `http://0x7f000001:${p}/cal.ics`,
    `http://127.1:${p}/cal.ics`,
    `http://[::ffff:127.0.0.1]:${p}/cal.ics`, // IPv4-mapped IPv6
    `http://[::ffff:7f00:1]:${p}/cal.ics`,
    `http://[::1]:${p}/cal.ics`,
    `http://user@127.0.0.1:${p}/cal.ics`,
    `http://evil.example.com@127.0.0.1:${p}/cal.ics`,
    `http://0.0.0.0:${p}/cal.ics`,
    `http://0:${p}/cal.ics`,
    `webcal://127.0.0.1:${p}/cal.ics`,
    `http://10.0.0.1:${p}/cal.ics`,
    `http://172.16.0.1:${p}/cal.ics`,
    `http://192.168.1.1:${p}/cal.ics`,
    'http://169.254.169.254/latest/meta-data/',
    `http://[fc00::1]:${p}/cal.ics`,
    `http://[fe80::1]:${p}/cal.ics`,
    `http://100.64.0.1:${p}/cal.ics`,
  ];
}

describe('SSRF: private and loopback calendar addresses are refused before connecting', () => {
  it('every spelling, on the ICS and CalDAV connect endpoints', async () => {
    let requests = 0;
    const accepted: string[] = [];
    for (const url of forms(port)) {
      const icsRes = await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url });
      const davRes = await request(t.app).post('/api/me/calendar/caldav/connect').set(owner.auth).send({ server_url: url, username: 'u', password: 'p' });
      requests += 2;
      for (const [what, res] of [['ics', icsRes], ['caldav', davRes]] as const) {
        if (res.status < 400 || res.status >= 500) accepted.push(`${what} ${url} → ${res.status}`);
        else expect(res.body.error, url).toEqual(expect.any(String));
      }
    }
    reportReliability({ check: 'SSRF (address forms, ICS + CalDAV connect)', requests, trials: forms(port).length * 2, failures: accepted.length + connections });
    expect(accepted).toEqual([]);
    expect(connections).toBe(0);
    expect(await t.db.selectFrom('calendar_connections').select('id').where('user_id', '=', owner.user.id).execute()).toEqual([]);
  });

  it('a public address that redirects to a private one is refused at the redirect, before connecting to it', async () => {
    // "calendar.example.com" resolves to 127.0.0.2, which this test's policy calls public (it is
    // the stand-in for an outside server); it redirects to the private 127.0.0.1 target.
    let outsideHits = 0;
    const outside = http.createServer((_req, res) => {
      outsideHits++;
      res.writeHead(302, { location: `http://127.0.0.1:${port}/cal.ics` });
      res.end();
    });
    await new Promise<void>((r) => outside.listen(0, '127.0.0.2', r));
    const outsidePort = (outside.address() as AddressInfo).port;
    const calendarFetch = createSafeFetch({
      resolve: async (host) => (host === 'calendar.example.com' ? [{ address: '127.0.0.2', family: 4 }] : [{ address: host, family: 4 }]),
      isAllowedAddress: (a) => a === '127.0.0.2' || isPublicAddress(a),
    });
    const app = createApp({ ...t.deps, calendarFetch } as typeof t.deps);
    const before = connections;
    const res = await request(app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: `http://calendar.example.com:${outsidePort}/feed.ics` });
    await new Promise((r) => outside.close(r));
    reportReliability({ check: 'SSRF (redirect to a private address)', requests: 1, trials: 1, failures: res.status === 201 || connections > before ? 1 : 0 });
    expect(outsideHits).toBe(1); // the outside server was asked, and answered with the redirect
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual(expect.any(String));
    expect(connections).toBe(before);
  });
});
