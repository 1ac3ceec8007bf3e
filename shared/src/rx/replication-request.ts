/**
 * The device replication's HTTP requests (replication-protocol.ts): the bearer token and schema
 * version on every call, the server's clock read from each answer to correct the device's conflict
 * clock (hlc.ts), and the answers that end replicating — 401 (session over) and 426 (client too
 * old) — turned into a fatal status. Used by replication-client.ts and replication-stream.ts.
 */
import { BehaviorSubject } from 'rxjs';
import { SERVER_TIME_HEADER, type HybridClock } from './hlc.ts';
import { REPLICATION_SCHEMA_VERSION, SCHEMA_HEADER } from './replication-protocol.ts';

/** An HTTP answer the replication cannot retry its way out of. */
export class ReplicationHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The answer's `code` (e.g. `clock_ahead`), when it had one. */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ReplicationHttpError';
  }
}

/** What the requests need: the server, the token, fetch, the clock and the 401 callback (see StartReplicationOptions). */
export interface ReplicationRequestOptions {
  /** Server origin without a trailing slash ('' = same origin). */
  base: string;
  getToken: () => string | null;
  fetch: typeof fetch;
  clock: HybridClock;
  onUnauthorized?: (answer: { code?: string; error?: string }) => void;
}

/** The request function and the status it feeds. */
export interface ReplicationRequests {
  /**
   * Sends `init` to `base + path`; resolves with an OK answer. @throws ReplicationHttpError for a
   * non-OK answer (401 'Signed out' without a token, nothing sent), the fetch's error when the
   * server is unreachable.
   */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** false after a network failure, true after any answer. */
  reachable$: BehaviorSubject<boolean>;
  /** 'outdated' after a 426, 'unauthorized' after a 401, null before either. */
  fatal$: BehaviorSubject<'outdated' | 'unauthorized' | null>;
}

/** The replication's request function; `onUnauthorized` is called at most once. */
export function replicationRequests(opts: ReplicationRequestOptions): ReplicationRequests {
  const { base, clock } = opts;
  const doFetch = opts.fetch;
  const reachable$ = new BehaviorSubject<boolean>(true);
  const fatal$ = new BehaviorSubject<'outdated' | 'unauthorized' | null>(null);
  let unauthorizedSent = false;

  async function request(path: string, init: RequestInit = {}): Promise<Response> {
    const token = opts.getToken();
    if (!token) throw new ReplicationHttpError(401, 'Signed out');
    let res: Response;
    const sentAt = clock.reading();
    try {
      res = await doFetch(`${base}${path}`, {
        ...init,
        headers: { ...(init.headers ?? {}), Authorization: `Bearer ${token}`, [SCHEMA_HEADER]: String(REPLICATION_SCHEMA_VERSION) },
      });
    } catch (err) {
      reachable$.next(false);
      throw err;
    }
    reachable$.next(true);
    // The server's clock corrects this device's conflict clock (hlc.ts).
    const receivedAt = clock.reading();
    const serverTime = Number(res.headers.get(SERVER_TIME_HEADER));
    if (serverTime > 0) clock.observeServerTime(serverTime, sentAt, receivedAt);
    if (res.ok) return res;
    const body = (await res.json().catch(() => ({}))) as { error?: string; code?: string };
    // Refused as ahead of the server's clock: the estimate in use is wrong — this reading replaces it whatever its round trip.
    if (body.code === 'clock_ahead' && serverTime > 0) clock.observeServerTime(serverTime, sentAt, receivedAt, true);
    if (res.status === 426) fatal$.next('outdated');
    if (res.status === 401) {
      fatal$.next('unauthorized');
      if (!unauthorizedSent) {
        unauthorizedSent = true;
        opts.onUnauthorized?.({ code: body.code, error: body.error });
      }
    }
    throw new ReplicationHttpError(res.status, body.error ?? `Replication request failed (${res.status})`, body.code);
  }

  return { request, reachable$, fatal$ };
}
