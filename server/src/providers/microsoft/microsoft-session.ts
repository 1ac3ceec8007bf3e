/**
 * Auth side of the Microsoft adapter: the Microsoft identity platform v2.0 token endpoint
 * (authorization-code exchange, refresh) and one session per adapter call holding the
 * connection's tokens and the authorized Microsoft Graph client (microsoft-graph-client.ts).
 *
 * Token endpoint (https://learn.microsoft.com/entra/identity-platform/v2-oauth2-auth-code-flow):
 * `POST ${MICROSOFT_LOGIN_BASE_URL}/${MICROSOFT_TENANT}/oauth2/v2.0/token`, form-encoded, as a
 * confidential client (client_id + client_secret), PKCE verifier on the code exchange, scope
 * `openid email offline_access Calendars.ReadWrite` (ReadWrite since issue 24: confirmed meetings
 * are written as events, microsoft-writer.ts; a refresh of a grant made before asks for
 * `Calendars.Read` again, {@link refreshScopeOf}, so old connections keep syncing). Plain `fetch` (the Graph SDK does not cover the
 * identity platform; msal is not used), with the per-request timeout, never following redirects.
 * The account e-mail comes from the id_token (received directly from the token endpoint over TLS,
 * so its signature need not be checked — OpenID Connect Core §3.1.3.7); no User.Read / GET /me.
 *
 * Tokens (MicrosoftTokens = OAuthTokens + `account`; `expires_at` UTC epoch ms): refreshed when
 * they expire within 60 s, or once after a Graph 401 (then the call is retried once). Rotated
 * refresh tokens are kept (`newSecret`). Errors (messages never contain tokens, subjects or e-mails):
 * - `invalid_grant` / `interaction_required` / `consent_required` on refresh, a second 401, a 403,
 *   a missing or unreadable token JSON → ProviderAuthError(MICROSOFT_AUTH_ERROR);
 * - 429 / 503 (token endpoint or Graph) → ProviderRateLimitError(Retry-After in ms, delta-seconds or
 *   HTTP-date; 60 s when absent — https://learn.microsoft.com/graph/throttling);
 * - network failure / timeout (CALENDAR_FETCH_TIMEOUT_MS per request) → ProviderError(MICROSOFT_UNREACHABLE);
 * - any other non-2xx of Graph → GraphStatusError (status + Graph error code; callers handle 404/410).
 * When a call fails AFTER a refresh, the thrown error carries the refreshed JSON as `newSecret`
 * ({@link MicrosoftSession.decorate}, read with secretOfError) so the caller can still keep it.
 */
import { ResponseType, type Client } from '@microsoft/microsoft-graph-client';
import type { Config } from '../../config.ts';
import { ProviderRateLimitError, parseTokenSecret, retryAfterMs, type OAuthTokens } from '../oauth-provider.ts';
import { ProviderAuthError, ProviderError } from '../provider.ts';
import { createGraphClient } from './microsoft-graph-client.ts';

/**
 * Delegated scopes asked for at sign-in: read and write calendars (issue 24: the confirmed meeting
 * is written into the owner's calendar), a refresh token, and the account e-mail in the id_token.
 */
export const MICROSOFT_SCOPE = 'openid email offline_access Calendars.ReadWrite';
/**
 * The scopes of grants made before issue 24 (read-only). Such a grant can only be refreshed with
 * scopes it was consented to (the v2.0 token endpoint refuses others with AADSTS65001), so its
 * refreshes ask for these; its writes get 403 ErrorAccessDenied → ProviderWriteDeniedError
 * ("Reconnect it to allow adding events…") until the owner reconnects.
 */
export const MICROSOFT_READ_SCOPE = 'openid email offline_access Calendars.Read';

/**
 * The scope to send with a refresh_token grant: {@link MICROSOFT_READ_SCOPE} when the stored token
 * set says it was granted Calendars.Read but not Calendars.ReadWrite (Graph answers scopes as
 * `https://graph.microsoft.com/Calendars.Read …`), else {@link MICROSOFT_SCOPE} (also when the
 * scope is unknown).
 */
export function refreshScopeOf(tokens: Pick<OAuthTokens, 'scope'>): string {
  const granted = (tokens.scope ?? '').split(/\s+/).map((x) => x.replace(/^https:\/\/graph\.microsoft\.com\//i, '').toLowerCase());
  if (granted.includes('calendars.readwrite')) return MICROSOFT_SCOPE;
  return granted.includes('calendars.read') ? MICROSOFT_READ_SCOPE : MICROSOFT_SCOPE;
}
export const MICROSOFT_AUTH_ERROR = 'Microsoft refused the saved authorization. Please reconnect Outlook Calendar.';
/** Same wording as oauth-registry's notConfiguredReason('microsoft'). */
export const MICROSOFT_NOT_CONFIGURED = 'Microsoft Outlook Calendar is not configured on this server.';
const MICROSOFT_SIGNIN_FAILED = 'Microsoft did not accept the sign-in. Please try connecting Outlook Calendar again.';
const MICROSOFT_APP_REFUSED = 'Microsoft refused this server’s Outlook Calendar app credentials. Please contact the server administrator.';
const MICROSOFT_UNREACHABLE = 'Could not reach Microsoft. Sync will retry later.';
const MICROSOFT_FOREIGN_LINK = 'Microsoft Graph returned a link this server does not follow; sync stopped.';
/** Refresh when the access token expires within this margin. */
const REFRESH_MARGIN_MS = 60_000;

/** The token JSON kept (encrypted) for a Microsoft connection: OAuthTokens + the account e-mail. */
export interface MicrosoftTokens extends OAuthTokens {
  /** The account's e-mail from the id_token (lower-cased), when Microsoft gave one. */
  account?: string | null;
}

export interface MicrosoftProviderOptions {
  /** Clock (UTC epoch ms); tests move it. */
  now?: () => number;
  /** fetch implementation (default: global fetch; Graph calls then go through the SDK's HTTPMessageHandler). */
  fetch?: typeof fetch;
  /** Per-request timeout in ms (default CALENDAR_FETCH_TIMEOUT_MS). */
  timeoutMs?: number;
  /** `Prefer: odata.maxpagesize` of delta requests (default DELTA_PAGE_SIZE). */
  pageSize?: number;
}

/** The options with defaults applied; `fetch` stays undefined when none was injected. */
export type SessionOptions = Required<Omit<MicrosoftProviderOptions, 'fetch'>> & { fetch?: typeof fetch };

/** A Graph call failed with a status the callers may handle (404, 410 …). Message is safe. */
export class GraphStatusError extends ProviderError {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
  ) {
    super(`Microsoft Graph answered HTTP ${status}${code ? ` (${code})` : ''}. Sync will retry later.`);
    this.name = 'GraphStatusError';
  }
}

/** The error code of a Graph (`{ error: { code } }`) or identity platform (`{ error: 'invalid_grant' }`) error body. */
export function errorCodeOf(body: unknown): string | undefined {
  const e = (body as { error?: unknown } | null)?.error;
  if (typeof e === 'string') return e;
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Decodes the payload of a JWT without verifying it (see the file header for why that is fine here). */
function jwtPayload(token: unknown): Record<string, unknown> | null {
  if (typeof token !== 'string') return null;
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const json = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return json && typeof json === 'object' ? (json as Record<string, unknown>) : null;
  } catch {
    return null; // the id_token only names the account; without it the connection is unlabelled
  }
}

const EMAIL_RE = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** The account e-mail of an id_token: `email`, else `preferred_username` / `upn` when it is an e-mail. */
function accountOfIdToken(idToken: unknown): string | null {
  const p = jwtPayload(idToken);
  if (!p) return null;
  for (const claim of ['email', 'preferred_username', 'upn']) {
    const v = p[claim];
    if (typeof v === 'string' && EMAIL_RE.test(v.trim())) return v.trim().toLowerCase();
  }
  return null;
}

/** `${MICROSOFT_LOGIN_BASE_URL}/${tenant}/oauth2/v2.0/{authorize,token}`. */
export function loginUrl(config: Config, endpoint: 'authorize' | 'token'): string {
  return `${config.MICROSOFT_LOGIN_BASE_URL}/${encodeURIComponent(config.MICROSOFT_TENANT)}/oauth2/v2.0/${endpoint}`;
}

/** fetch with the per-request timeout; network failures and timeouts → ProviderError. Never follows redirects. */
async function timedFetch(opts: SessionOptions, url: string, init: RequestInit): Promise<Response> {
  try {
    return await (opts.fetch ?? fetch)(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(opts.timeoutMs) });
  } catch {
    throw new ProviderError(MICROSOFT_UNREACHABLE);
  }
}

interface TokenResponse {
  access_token: string;
  refresh_token?: string;
  expires_in: number;
  scope?: string;
  id_token?: string;
}

/**
 * POST to the v2.0 token endpoint (form-encoded, client_id + client_secret).
 * @throws ProviderAuthError (invalid_grant / interaction_required on refresh), ProviderError
 *   (code exchange refused, app credentials refused, bad answer), ProviderRateLimitError (429/503).
 */
async function tokenRequest(config: Config, opts: SessionOptions, params: Record<string, string>, kind: 'code' | 'refresh'): Promise<TokenResponse> {
  if (!config.MICROSOFT_CLIENT_ID || !config.MICROSOFT_CLIENT_SECRET) throw new ProviderError(MICROSOFT_NOT_CONFIGURED);
  const res = await timedFetch(opts, loginUrl(config, 'token'), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ client_id: config.MICROSOFT_CLIENT_ID, client_secret: config.MICROSOFT_CLIENT_SECRET, ...params }).toString(),
  });
  if (res.status === 429 || res.status === 503) {
    await res.body?.cancel();
    throw new ProviderRateLimitError(retryAfterMs(res.headers.get('retry-after'), opts.now()));
  }
  const body = (await res.json().catch(() => null)) as (Partial<TokenResponse> & { error?: string }) | null;
  if (!res.ok || !body || typeof body.access_token !== 'string') {
    const error = typeof body?.error === 'string' ? body.error : '';
    if (error === 'invalid_client' || error === 'unauthorized_client') throw new ProviderError(MICROSOFT_APP_REFUSED);
    if (kind === 'refresh' && (error === 'invalid_grant' || error === 'interaction_required' || error === 'consent_required')) {
      throw new ProviderAuthError(MICROSOFT_AUTH_ERROR);
    }
    if (kind === 'refresh' && res.status >= 500) throw new ProviderError(MICROSOFT_UNREACHABLE);
    throw new ProviderError(kind === 'code' ? MICROSOFT_SIGNIN_FAILED : MICROSOFT_AUTH_ERROR);
  }
  const expiresIn = Number(body.expires_in);
  return {
    access_token: body.access_token,
    refresh_token: typeof body.refresh_token === 'string' ? body.refresh_token : undefined,
    expires_in: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : 3600,
    scope: typeof body.scope === 'string' ? body.scope : undefined,
    id_token: typeof body.id_token === 'string' ? body.id_token : undefined,
  };
}

/**
 * Redeems an authorization code (grant_type=authorization_code with the PKCE code_verifier and the
 * client secret; https://learn.microsoft.com/entra/identity-platform/v2-oauth2-auth-code-flow#redeem-a-code-for-an-access-token).
 * @returns the tokens (`expires_at` UTC epoch ms, `account` included) and the account e-mail (null when none).
 * @throws ProviderError with a safe message (refused code/verifier, app credentials, network); ProviderRateLimitError.
 */
export async function exchangeMicrosoftCode(
  config: Config,
  opts: SessionOptions,
  p: { code: string; codeVerifier: string; redirectUri: string },
): Promise<{ tokens: MicrosoftTokens; account: string | null }> {
  const body = await tokenRequest(config, opts, {
    grant_type: 'authorization_code',
    code: p.code,
    redirect_uri: p.redirectUri,
    code_verifier: p.codeVerifier,
    scope: MICROSOFT_SCOPE,
  }, 'code');
  const account = accountOfIdToken(body.id_token);
  const tokens: MicrosoftTokens = {
    access_token: body.access_token,
    refresh_token: body.refresh_token ?? null,
    expires_at: opts.now() + body.expires_in * 1000,
    ...(body.scope ? { scope: body.scope } : {}),
    account,
  };
  return { tokens, account };
}

/**
 * One adapter call's context: clock, options, the connection's tokens (refreshed here) and the
 * Graph client whose AuthenticationHandler reads them.
 */
export class MicrosoftSession {
  tokens: MicrosoftTokens;
  changed = false;
  private client: Client | null = null;

  /** @throws ProviderAuthError when `secret` is missing or not a token JSON. */
  constructor(
    readonly config: Config,
    readonly opts: SessionOptions,
    secret: string | null,
  ) {
    this.tokens = parseTokenSecret<MicrosoftTokens>(secret, MICROSOFT_AUTH_ERROR);
  }

  now(): number {
    return this.opts.now();
  }

  /** The refreshed JSON when the tokens changed. */
  newSecret(): string | undefined {
    return this.changed ? JSON.stringify(this.tokens) : undefined;
  }

  /** Attaches `newSecret` to an error thrown after a refresh, then returns it for rethrowing. */
  decorate(err: unknown): unknown {
    const s = this.newSecret();
    if (s && err && typeof err === 'object') Object.defineProperty(err, 'newSecret', { value: s, enumerable: false, configurable: true });
    return err;
  }

  /** A valid access token, refreshing first when it expires within 60 s (or when `force`). */
  async accessToken(force = false): Promise<string> {
    if (force || this.tokens.expires_at - this.now() < REFRESH_MARGIN_MS) await this.refresh();
    return this.tokens.access_token;
  }

  /** refresh_token grant (https://learn.microsoft.com/entra/identity-platform/v2-oauth2-auth-code-flow#refresh-the-access-token). */
  async refresh(): Promise<void> {
    if (!this.tokens.refresh_token) throw new ProviderAuthError(MICROSOFT_AUTH_ERROR);
    const body = await tokenRequest(this.config, this.opts, {
      grant_type: 'refresh_token',
      refresh_token: this.tokens.refresh_token,
      scope: refreshScopeOf(this.tokens),
    }, 'refresh');
    const account = accountOfIdToken(body.id_token) ?? this.tokens.account ?? null;
    this.tokens = {
      access_token: body.access_token,
      refresh_token: typeof body.refresh_token === 'string' && body.refresh_token ? body.refresh_token : this.tokens.refresh_token,
      expires_at: this.now() + body.expires_in * 1000,
      ...(typeof body.scope === 'string' ? { scope: body.scope } : this.tokens.scope ? { scope: this.tokens.scope } : {}),
      account,
    };
    this.changed = true;
  }

  /** `${MICROSOFT_GRAPH_BASE_URL}${path}` (path starts with '/'). */
  graphUrl(path: string): string {
    return `${this.config.MICROSOFT_GRAPH_BASE_URL}${path}`;
  }

  private graphClient(): Client {
    this.client ??= createGraphClient({
      graphBaseUrl: this.config.MICROSOFT_GRAPH_BASE_URL,
      // The adapter refreshes before each attempt (graph() below); the chain only reads the token.
      accessToken: () => this.tokens.access_token,
      fetch: this.opts.fetch,
    });
    return this.client;
  }

  /** One request through the Graph client; the raw Response, or ProviderError when Graph could not be reached. */
  private async send(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, p: { body?: unknown; headers?: Record<string, string> }): Promise<Response> {
    const request = this.graphClient()
      .api(url)
      .headers({ accept: 'application/json', ...p.headers })
      .option('signal', AbortSignal.timeout(this.opts.timeoutMs))
      .responseType(ResponseType.RAW);
    let res: unknown;
    try {
      res =
        method === 'GET' ? await request.get()
        : method === 'POST' ? await request.post(p.body)
        : method === 'PATCH' ? await request.patch(p.body)
        : await request.delete();
    } catch {
      // A GraphError with statusCode -1: fetch threw (DNS, TLS, reset, the timeout). RAW answers
      // every HTTP status, so nothing else lands here; the message stays safe either way.
      throw new ProviderError(MICROSOFT_UNREACHABLE);
    }
    if (!res || typeof (res as Response).status !== 'number') throw new ProviderError(MICROSOFT_UNREACHABLE);
    return res as Response;
  }

  /**
   * One Graph request with the bearer token: refreshes once on 401 and retries once; 429/503 →
   * ProviderRateLimitError (Retry-After); 401 again → ProviderAuthError; 403 → ProviderAuthError,
   * unless `p.forbiddenIsAnswer` (the writer: a 403 there means the calendar or grant does not
   * allow writing, which it maps itself). Returns the response for any other status (callers check
   * it). Only URLs on the Graph origin are ever sent the token.
   */
  async graph(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    p: { body?: unknown; headers?: Record<string, string>; forbiddenIsAnswer?: boolean } = {},
  ): Promise<Response> {
    let sameOrigin = false;
    try {
      sameOrigin = new URL(url).origin === new URL(this.config.MICROSOFT_GRAPH_BASE_URL).origin;
    } catch {
      sameOrigin = false;
    }
    if (!sameOrigin) throw new ProviderError(MICROSOFT_FOREIGN_LINK);
    for (let attempt = 0; ; attempt++) {
      await this.accessToken(attempt > 0);
      const res = await this.send(method, url, p);
      if (res.status === 401 && attempt === 0) {
        await res.body?.cancel();
        continue;
      }
      if (res.status === 401 || (res.status === 403 && !p.forbiddenIsAnswer)) {
        await res.body?.cancel();
        throw new ProviderAuthError(MICROSOFT_AUTH_ERROR);
      }
      if (res.status === 429 || res.status === 503) {
        await res.body?.cancel();
        throw new ProviderRateLimitError(retryAfterMs(res.headers.get('retry-after'), this.now()));
      }
      return res;
    }
  }

  /** GET a Graph JSON document. @throws GraphStatusError for a non-2xx (or a 2xx that is not a JSON object). */
  async getJson<T>(url: string, headers?: Record<string, string>): Promise<T> {
    const res = await this.graph('GET', url, { headers });
    const body = (await res.json().catch(() => null)) as unknown;
    if (res.ok && body && typeof body === 'object') return body as T;
    throw new GraphStatusError(res.status, errorCodeOf(body));
  }
}
