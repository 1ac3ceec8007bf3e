import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIcsServer, type IcsServer } from '../../test/ics-server.ts';
import { createSafeFetch, isPublicAddress, SafeFetchError } from './safe-fetch.ts';

async function failure(p: Promise<unknown>): Promise<SafeFetchError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(SafeFetchError);
    return e as SafeFetchError;
  }
  throw new Error('expected the fetch to fail');
}

describe('isPublicAddress', () => {
  it.each([
    ['127.0.0.1', false], ['10.1.2.3', false], ['172.16.0.1', false], ['192.168.1.1', false],
    ['100.64.0.1', false], ['169.254.169.254', false], ['224.0.0.1', false], ['0.0.0.0', false],
    ['255.255.255.255', false], ['::1', false], ['::', false], ['fe80::1', false], ['fc00::1', false],
    ['fd12:3456::1', false], ['ff02::1', false], ['::ffff:127.0.0.1', false], ['::ffff:10.0.0.1', false],
    ['::ffff:169.254.169.254', false], ['not-an-ip', false],
    ['8.8.8.8', true], ['1.1.1.1', true], ['2001:4860:4860::8888', true], ['::ffff:8.8.8.8', true],
  ])('%s → %s', (addr, expected) => {
    expect(isPublicAddress(addr)).toBe(expected);
  });
});

describe('safe fetch', () => {
  let srv: IcsServer;
  beforeAll(async () => {
    srv = await startIcsServer();
  });
  afterAll(async () => {
    await srv.close();
  });

  it('refuses loopback and private targets when private hosts are not allowed', async () => {
    srv.set('/feed.ics', { ics: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n' });
    const before = srv.requests.length;
    const guarded = createSafeFetch({ allowPrivate: false });
    const e1 = await failure(guarded(srv.url('/feed.ics')));
    expect(e1.code).toBe('address_not_allowed');
    expect(e1.message).toBe('Address not allowed: private network');
    // a name that resolves to loopback, and an IPv4-mapped IPv6 literal
    const viaDns = createSafeFetch({ resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    expect((await failure(viaDns(`http://calendar.example:${srv.port}/feed.ics`))).code).toBe('address_not_allowed');
    expect((await failure(guarded(`http://[::ffff:127.0.0.1]:${srv.port}/feed.ics`))).code).toBe('address_not_allowed');
    expect((await failure(guarded('http://169.254.169.254/latest/meta-data'))).code).toBe('address_not_allowed');
    expect(srv.requests.length).toBe(before);
  });

  it('connects to the vetted address, not a second DNS answer', async () => {
    srv.set('/feed.ics', { ics: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n' });
    let lookups = 0;
    const f = createSafeFetch({
      isAllowedAddress: (a) => a === '127.0.0.1',
      resolve: async () => {
        lookups++;
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
    const res = await f(`http://calendar.example:${srv.port}/feed.ics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('BEGIN:VCALENDAR');
    expect(lookups).toBe(1);
    expect(srv.requests.at(-1)!.headers.host).toBe(`calendar.example:${srv.port}`);
  });

  it('re-checks every redirect hop and stops after 5 redirects', async () => {
    srv.set('/to-private', { redirectTo: `http://internal.example:${srv.port}/feed.ics` });
    const f = createSafeFetch({
      isAllowedAddress: (a) => a === '127.0.0.1',
      resolve: async (host) => [{ address: host === 'internal.example' ? '10.0.0.5' : '127.0.0.1', family: 4 }],
    });
    expect((await failure(f(`http://calendar.example:${srv.port}/to-private`))).code).toBe('address_not_allowed');

    for (let i = 0; i < 6; i++) srv.set(`/r${i}`, { redirectTo: `/r${i + 1}` });
    srv.set('/r6', { ics: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n' });
    const local = createSafeFetch({ allowPrivate: true });
    const ok = await local(srv.url('/r1')); // 5 redirects
    expect(ok.status).toBe(200);
    expect(ok.url).toBe(srv.url('/r6'));
    expect((await failure(local(srv.url('/r0')))).code).toBe('too_many_redirects'); // 6 redirects
  });

  it('returns a manual redirect as is (tsdav service discovery)', async () => {
    srv.set('/.well-known/caldav', { redirectTo: '/dav/' });
    const res = await createSafeFetch({ allowPrivate: true })(srv.url('/.well-known/caldav'), { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/dav/');
  });

  it('drops the Authorization header on a cross-origin redirect', async () => {
    const other = await startIcsServer();
    try {
      other.set('/x.ics', { ics: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n' });
      srv.set('/cross', { redirectTo: other.url('/x.ics') });
      const res = await createSafeFetch({ allowPrivate: true })(srv.url('/cross'), { headers: { Authorization: 'Basic c2VjcmV0' } });
      expect(res.status).toBe(200);
      expect(srv.requests.at(-1)!.headers.authorization).toBe('Basic c2VjcmV0');
      expect(other.requests.at(-1)!.headers.authorization).toBeUndefined();
    } finally {
      await other.close();
    }
  });

  it('aborts a body over 10 MB with a clear error', async () => {
    srv.set('/huge.ics', { hugeBytes: 11 * 1024 * 1024 });
    const e = await failure(createSafeFetch({ allowPrivate: true })(srv.url('/huge.ics')));
    expect(e.code).toBe('too_large');
    expect(e.message).toBe('Calendar feed is larger than 10 MB');
  });

  it('counts the cap after decompression', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(2 * 1024 * 1024, 'A'));
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(bomb.length) }).end(bomb);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as AddressInfo).port;
      const e = await failure(createSafeFetch({ allowPrivate: true, maxBytes: 1024 * 1024 })(`http://127.0.0.1:${port}/`));
      expect(e.message).toBe('Calendar feed is larger than 1 MB');
      const ok = await createSafeFetch({ allowPrivate: true })(`http://127.0.0.1:${port}/`);
      expect((await ok.arrayBuffer()).byteLength).toBe(2 * 1024 * 1024);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('gives up after the total timeout', async () => {
    srv.set('/slow.ics', { delayMs: 5_000, ics: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n' });
    const started = Date.now();
    const e = await failure(createSafeFetch({ allowPrivate: true, timeoutMs: 1_000 })(srv.url('/slow.ics')));
    expect(e.code).toBe('timeout');
    expect(e.message).toBe('Calendar server did not answer within 1 second');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('reports an unreachable server clearly', async () => {
    const server = http.createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((r) => server.close(() => r()));
    const e = await failure(createSafeFetch({ allowPrivate: true })(`http://127.0.0.1:${port}/`));
    expect(e.code).toBe('unreachable');
    expect(e.message).toMatch(/could not be reached/);
  });

  it('refuses non-http schemes', async () => {
    expect((await failure(createSafeFetch({ allowPrivate: true })('file:///etc/passwd'))).code).toBe('invalid_url');
  });
});
