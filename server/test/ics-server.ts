/**
 * A local HTTP server for calendar-feed tests: serves ICS text with an ETag (answers 304 to a
 * matching If-None-Match), and can be told to be huge, slow, redirecting or failing.
 * Counts every request so tests can assert conditional fetches.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface IcsServerRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** When it arrived (Date.now(), UTC ms). */
  at: number;
}

interface IcsRoute {
  /** ICS text served with an ETag derived from its content. */
  ics?: string;
  /** Stream this many bytes of filler ICS (no Content-Length), to test the body cap. */
  hugeBytes?: number;
  /** Wait this long before answering (ms); the response never comes if the client gives up. */
  delayMs?: number;
  /** Answer with this status and no body (e.g. 404, 500, 401). */
  status?: number;
  /** Redirect to this location (302). */
  redirectTo?: string;
  /** Extra response headers. */
  headers?: Record<string, string>;
  /** Raw bytes sent as is with 200 (e.g. a gzip bomb with `content-encoding: gzip` in headers). */
  body?: Buffer;
}

export interface IcsServer {
  url: (path: string) => string;
  port: number;
  routes: Map<string, IcsRoute>;
  requests: IcsServerRequest[];
  set: (path: string, route: IcsRoute) => void;
  close: () => Promise<void>;
}

function etagOf(text: string): string {
  return `"${createHash('sha1').update(text).digest('hex').slice(0, 16)}"`;
}

export async function startIcsServer(): Promise<IcsServer> {
  const routes = new Map<string, IcsRoute>();
  const requests: IcsServerRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    requests.push({ method: req.method ?? 'GET', path, headers: req.headers, at: Date.now() });
    const route = routes.get(path);
    const answer = () => {
      if (!route) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      if (route.redirectTo) {
        res.writeHead(302, { location: route.redirectTo }).end();
        return;
      }
      if (route.status) {
        res.writeHead(route.status, route.headers ?? {}).end();
        return;
      }
      if (route.body) {
        res.writeHead(200, { 'content-type': 'text/calendar', ...route.headers }).end(route.body);
        return;
      }
      if (route.hugeBytes) {
        res.writeHead(200, { 'content-type': 'text/calendar', ...route.headers });
        const chunk = Buffer.alloc(64 * 1024, 'X');
        let sent = 0;
        const pump = () => {
          while (sent < route.hugeBytes!) {
            sent += chunk.length;
            if (!res.write(chunk)) {
              res.once('drain', pump);
              return;
            }
          }
          res.end();
        };
        res.on('error', () => {});
        pump();
        return;
      }
      const text = route.ics ?? '';
      const etag = etagOf(text);
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, { etag }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8', etag, ...route.headers }).end(text);
    };
    if (route?.delayMs) {
      const t = setTimeout(() => {
        timers.delete(t);
        if (!res.destroyed) answer();
      }, route.delayMs);
      timers.add(t);
    } else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    routes,
    requests,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    set: (path, route) => routes.set(path, route),
    close: async () => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
