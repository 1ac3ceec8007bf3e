/**
 * The Microsoft Graph client of the Microsoft adapter: `@microsoft/microsoft-graph-client` (3.x)
 * `Client.initWithMiddleware` with a middleware chain of our own
 * (https://learn.microsoft.com/graph/sdks/customize-client?tabs=typescript):
 *
 *   AuthenticationHandler (SDK) → HTTPMessageHandler (SDK; or FetchHandler when a fetch is injected)
 *
 * - No RetryHandler: Graph's 429/503 come back to the adapter at once, which surfaces them as
 *   ProviderRateLimitError with the Retry-After delay (the scheduler retries; nothing sleeps in a
 *   sync). No RedirectHandler either, and every request is sent with `redirect: 'manual'`, so a
 *   3xx is an answer (an error for us), never a hidden second request. No TelemetryHandler.
 * - AuthenticationHandler gets the bearer token from an AuthenticationProvider that only READS the
 *   adapter's current access token: refreshing (before a call when it expires within 60 s, and once
 *   after a 401) is the adapter's job (microsoft-session.ts), never the chain's. The handler sends
 *   the token only to https URLs of Graph's own hosts or of `customHosts` (the host of
 *   MICROSOFT_GRAPH_BASE_URL when that is not a Graph host, e.g. the local fake); the adapter
 *   additionally checks the exact origin (scheme, host, port) before any call.
 * - Requests are made with `api(absoluteUrl)`: the SDK splits an absolute `https://` URL into
 *   host / first path segment ("version") / rest and joins them again, so `@odata.nextLink` and
 *   `@odata.deltaLink` are followed as given, also behind a MICROSOFT_GRAPH_BASE_URL with a path
 *   prefix. It only recognises absolute URLs that start with `https://`: MICROSOFT_GRAPH_BASE_URL
 *   must be https (config.ts checks it; the test fakes serve Graph over https with a test CA).
 * - Responses are asked for as `ResponseType.RAW` (the fetch Response): the adapter reads status,
 *   Retry-After and the Graph error body itself. (The SDK's own conversion would turn a non-2xx
 *   into a GraphError — with `statusCode` and `headers` — but leaves non-JSON error bodies unread.)
 *   A transport failure (DNS, TLS, reset, the per-request timeout) reaches the caller as a
 *   GraphError with statusCode -1.
 */
import {
  AuthenticationHandler,
  Client,
  HTTPMessageHandler,
  type AuthenticationProvider,
  type Context,
  type Middleware,
} from '@microsoft/microsoft-graph-client';

/** Graph's national-cloud hosts the SDK already treats as Graph (its GRAPH_URLS); others go to `customHosts`. */
const SDK_GRAPH_HOSTS = new Set([
  'graph.microsoft.com',
  'graph.microsoft.us',
  'dod-graph.microsoft.us',
  'graph.microsoft.de',
  'microsoftgraph.chinacloudapi.cn',
  'canary.graph.microsoft.com',
]);

/**
 * Terminal handler calling an injected fetch (tests wrap fetch to tamper with answers): what the
 * SDK's HTTPMessageHandler does with the global fetch, `fetch(context.request, context.options)`.
 */
class FetchHandler implements Middleware {
  constructor(private readonly fetchImpl: typeof fetch) {}

  async execute(context: Context): Promise<void> {
    context.response = await this.fetchImpl(context.request as string, context.options as RequestInit);
  }
}

/**
 * Splits MICROSOFT_GRAPH_BASE_URL the way the SDK splits an absolute URL: `https://host[:port]` +
 * the last path segment as version (`https://graph.microsoft.com/v1.0` → host
 * `https://graph.microsoft.com`, version `v1.0`; a path prefix stays with the host).
 */
function graphBaseParts(graphBaseUrl: string): { baseUrl: string; defaultVersion: string } {
  const u = new URL(graphBaseUrl);
  const segments = u.pathname.split('/').filter(Boolean);
  const defaultVersion = segments.pop() ?? 'v1.0';
  return { baseUrl: `${u.origin}${segments.length ? `/${segments.join('/')}` : ''}`, defaultVersion };
}

export interface GraphClientOptions {
  /** MICROSOFT_GRAPH_BASE_URL (https). */
  graphBaseUrl: string;
  /** The current access token (already refreshed by the adapter when needed); must not throw. */
  accessToken: () => string;
  /** Injected fetch (tests); default: the SDK's HTTPMessageHandler with the global fetch. */
  fetch?: typeof fetch;
}

/** A Graph Client with our chain (see the file header). One per adapter call (per session). */
export function createGraphClient(o: GraphClientOptions): Client {
  const { baseUrl, defaultVersion } = graphBaseParts(o.graphBaseUrl);
  const host = new URL(o.graphBaseUrl).hostname.toLowerCase();
  const auth: AuthenticationProvider = { getAccessToken: async () => o.accessToken() };
  const middleware: Middleware[] = [new AuthenticationHandler(auth), o.fetch ? new FetchHandler(o.fetch) : new HTTPMessageHandler()];
  return Client.initWithMiddleware({
    middleware,
    baseUrl,
    defaultVersion,
    // Hosts only (the SDK compares the host name, without port); Graph's own hosts need no entry.
    ...(SDK_GRAPH_HOSTS.has(host) ? {} : { customHosts: new Set([host]) }),
    fetchOptions: { redirect: 'manual' },
  });
}
