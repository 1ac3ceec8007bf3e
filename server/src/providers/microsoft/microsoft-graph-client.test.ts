/**
 * The Graph client's middleware chain (microsoft-graph-client.ts) with an injected fetch: links are
 * requested exactly as Graph gave them (also behind a base with a path prefix), the token goes
 * only to the Graph host, nothing is retried or redirected behind the adapter's back.
 */
import { ResponseType } from '@microsoft/microsoft-graph-client';
import { describe, expect, it } from 'vitest';
import { createGraphClient } from './microsoft-graph-client.ts';

function recorder(status = 200, headers: Record<string, string> = {}) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(input), init: init ?? {} });
    return new Response(status === 204 ? null : '{"value":[]}', { status, headers: { 'content-type': 'application/json', ...headers } });
  }) as typeof fetch;
  return { calls, fetchImpl };
}

const auth = (init: RequestInit) => new Headers(init.headers as ConstructorParameters<typeof Headers>[0]).get('authorization');

describe('Graph client chain', () => {
  it('requests absolute next/delta links as given, also under a base with a path prefix', async () => {
    const { calls, fetchImpl } = recorder();
    const client = createGraphClient({ graphBaseUrl: 'https://proxy.example:8443/graph/v1.0', accessToken: () => 'tok', fetch: fetchImpl });
    const links = [
      'https://proxy.example:8443/graph/v1.0/me/calendars?$select=id',
      'https://proxy.example:8443/graph/v1.0/me/calendars/AAMk%2Bx%3D/calendarView/delta?startDateTime=2030-01-01T00%3A00%3A00Z&endDateTime=2031-01-01T00%3A00%3A00Z',
      'https://proxy.example:8443/graph/v1.0/me/calendars/AAMk%2Bx%3D/calendarView/delta?$skiptoken=a-b_c%3D%3D',
      'https://proxy.example:8443/graph/v1.0/me/calendars/AAMk%2Bx%3D/calendarView/delta?$deltatoken=Zm9v%2Fbar%3D',
    ];
    for (const link of links) await client.api(link).responseType(ResponseType.RAW).get();
    expect(calls.map((c) => c.url)).toEqual(links);
    expect(calls.map((c) => auth(c.init))).toEqual(links.map(() => 'Bearer tok'));
    expect(calls.every((c) => c.init.redirect === 'manual')).toBe(true);
  });

  it('sends the token only to the Graph host', async () => {
    const { calls, fetchImpl } = recorder();
    const client = createGraphClient({ graphBaseUrl: 'https://127.0.0.1:4443/v1.0', accessToken: () => 'tok', fetch: fetchImpl });
    await client.api('https://127.0.0.1:4443/v1.0/me/calendars').responseType(ResponseType.RAW).get();
    await client.api('https://evil.example/v1.0/me/calendars').responseType(ResponseType.RAW).get();
    expect(calls.map((c) => [new URL(c.url).host, auth(c.init)])).toEqual([
      ['127.0.0.1:4443', 'Bearer tok'],
      ['evil.example', null],
    ]);
  });

  it('returns 429 / 503 / 3xx at once (no RetryHandler, no RedirectHandler), Retry-After readable', async () => {
    for (const [status, headers] of [
      [429, { 'retry-after': '7' }],
      [503, { 'retry-after': '1' }],
      [302, { location: 'https://graph.microsoft.com/v1.0/elsewhere' }],
    ] as const) {
      const { calls, fetchImpl } = recorder(status, headers);
      const client = createGraphClient({ graphBaseUrl: 'https://graph.microsoft.com/v1.0', accessToken: () => 'tok', fetch: fetchImpl });
      const res = (await client.api('https://graph.microsoft.com/v1.0/me/calendars').responseType(ResponseType.RAW).get()) as Response;
      expect(res.status).toBe(status);
      expect(calls).toHaveLength(1);
      if (status !== 302) expect(res.headers.get('retry-after')).toBe(headers['retry-after' as keyof typeof headers]);
    }
  });
});
