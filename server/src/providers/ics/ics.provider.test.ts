import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSafeFetch } from '../../lib/safe-fetch.ts';
import { ProviderAuthError, ProviderError } from '../provider.ts';
import { icsProvider } from './ics.provider.ts';

const FEED = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nX-WR-CALNAME:Studio\\, shared\r\nEND:VCALENDAR\r\n';

describe('ICS provider', () => {
  let server: http.Server;
  let base = '';
  const seen: http.IncomingHttpHeaders[] = [];
  let mode: 'last-modified' | 'unauthorized' | 'server-error' = 'last-modified';
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push(req.headers);
      if (mode === 'unauthorized') return void res.writeHead(401).end();
      if (mode === 'server-error') return void res.writeHead(503).end();
      const lm = 'Tue, 01 Jan 2030 00:00:00 GMT';
      if (req.headers['if-modified-since'] === lm) return void res.writeHead(304).end();
      res.writeHead(200, { 'last-modified': lm, 'content-type': 'text/calendar' }).end(FEED);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
  });
  const ctx = { fetch: createSafeFetch({ allowPrivate: true }) };

  it('uses Last-Modified when there is no ETag, and names the connection from X-WR-CALNAME', async () => {
    mode = 'last-modified';
    const url = `${base}/cal.ics`;
    const config = { sourceId: 'ics:conn-1' };
    const first = await icsProvider.sync({ config, secret: url, state: null, known: [] }, ctx);
    expect(first.suggestedName).toBe('Studio, shared');
    expect(first.upserts).toEqual([expect.objectContaining({ calendarUrl: 'ics:conn-1', href: 'ics:conn-1' })]);
    expect(JSON.stringify({ ...first, upserts: first.upserts.map((u) => ({ ...u, icsText: '' })) })).not.toContain('cal.ics'); // the URL is a secret
    expect(seen.at(-1)!['if-modified-since']).toBeUndefined();
    const second = await icsProvider.sync({ config, secret: url, state: first.newState, known: [{ calendarUrl: 'ics:conn-1', href: 'ics:conn-1', etag: null }] }, ctx);
    expect(seen.at(-1)!['if-modified-since']).toBe('Tue, 01 Jan 2030 00:00:00 GMT');
    expect(second).toMatchObject({ notModified: true, upserts: [], calendarsCount: 1 });
    // without the stored feed the condition is not sent (we need the body)
    await icsProvider.sync({ config, secret: url, state: first.newState, known: [] }, ctx);
    expect(seen.at(-1)!['if-modified-since']).toBeUndefined();
  });

  it('turns 401 into an auth error and 5xx into a clear provider error', async () => {
    mode = 'unauthorized';
    await expect(icsProvider.sync({ config: { sourceId: 'ics:x' }, secret: `${base}/x.ics`, state: null, known: [] }, ctx)).rejects.toBeInstanceOf(ProviderAuthError);
    mode = 'server-error';
    const err = await icsProvider.sync({ config: { sourceId: 'ics:x' }, secret: `${base}/x.ics`, state: null, known: [] }, ctx).catch((e) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).not.toBeInstanceOf(ProviderAuthError);
    expect(err.message).toBe('Calendar feed answered HTTP 503');
    // without the (decrypted) feed address there is nothing to fetch: reconnect
    const before = seen.length;
    await expect(icsProvider.sync({ config: { sourceId: 'ics:x' }, secret: null, state: null, known: [] }, ctx)).rejects.toBeInstanceOf(ProviderAuthError);
    expect(seen.length).toBe(before);
  });
});
