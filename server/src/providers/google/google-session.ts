/**
 * Google sign-in and the authorized Calendar API client of one connection: the auth half of the
 * Google adapter (google.provider.ts composes it with google-sync.ts).
 *
 * Libraries: `google-auth-library`'s OAuth2Client for the OAuth 2.0 web-server flow
 * (https://developers.google.com/identity/protocols/oauth2/web-server: consent URL, code exchange,
 * refresh, revoke) and `@googleapis/calendar` (Calendar API v3) for every API call. Both point at
 * the configured endpoints only (GOOGLE_AUTH_URL, GOOGLE_TOKEN_URL, GOOGLE_REVOKE_URL,
 * GOOGLE_API_BASE_URL as the API `rootUrl`), never at user-supplied URLs.
 *
 * What the adapter keeps under its own control, and how:
 * - **No hidden retries.** gaxios (under both libraries) retries 429/5xx and network errors by
 *   default (googleapis-common sets `retry: true`; OAuth2Client's token calls carry their own
 *   retry config). Every client here gets a request interceptor on its transporter that turns
 *   retries off, so 429/503 (and 403 rateLimitExceeded) surface at once as ProviderRateLimitError
 *   with the Retry-After delay, for the sync scheduler to honour.
 * - **Token refresh.** The API client holds only the access token (no refresh token, no expiry,
 *   no refresh handler), so OAuth2Client never refreshes by itself. {@link GoogleSession} refreshes
 *   when the token expires within 60 s, or once after a 401, through a separate OAuth2Client, and
 *   reports the refreshed token set (`newSecret`) to the caller, which stores it encrypted.
 * - **Errors.** A GaxiosError's `response.status`, `response.headers` and `response.data`
 *   (Google's JSON error: `error.errors[].reason`, or the token endpoint's `error`) decide the
 *   ProviderError kind; no message carries a token, title or e-mail.
 * - **Timeouts.** Every request times out after 20 s (gaxios `timeout`).
 *
 * Never logs: this module has no logger.
 */
import { calendar, type calendar_v3 } from '@googleapis/calendar';
import { CodeChallengeMethod, OAuth2Client, type Credentials } from 'google-auth-library';
import type { Config } from '../../config.ts';
import { ProviderRateLimitError, parseTokenSecret, retryAfterMs, type OAuthTokens } from '../oauth-provider.ts';
import { ProviderAuthError, ProviderError } from '../provider.ts';

/** Read scope: calendarList.list, calendars.get, events.list/watch (the sync). Checked at sign-in. */
export const GOOGLE_CALENDAR_SCOPE = 'https://www.googleapis.com/auth/calendar.readonly';
/**
 * Write scope of issue 24: events.insert / events.delete of a confirmed meeting
 * (https://developers.google.com/calendar/api/auth: "View and edit events on all your calendars";
 * it does not cover the calendar list, hence the read scope as well). Grants made before issue 24
 * lack it: their writes get 403 insufficientPermissions → ProviderWriteDeniedError ("Reconnect it
 * to allow adding events…", google-writer.ts) while their sync keeps working.
 */
const GOOGLE_EVENTS_SCOPE = 'https://www.googleapis.com/auth/calendar.events';
/** The scopes asked for at consent, space-separated (read + events). */
export const GOOGLE_SCOPES = `${GOOGLE_CALENDAR_SCOPE} ${GOOGLE_EVENTS_SCOPE}`;
const GOOGLE_UNAVAILABLE = 'Google Calendar is not configured on this server.';
export const GOOGLE_REAUTH_MESSAGE = 'Google refused the saved authorization. Please reconnect Google Calendar.';
const GOOGLE_RATE_MESSAGE = 'Google Calendar asked us to slow down. Sync will retry shortly.';
const GOOGLE_UNREACHABLE = 'Could not reach Google Calendar. Sync will retry.';

const REFRESH_MARGIN_MS = 60_000;
/** Timeout of every request to Google (ms). */
const REQUEST_TIMEOUT_MS = 20_000;

/** The adapter's clock (UTC epoch ms); injectable for tests through the provider factory. */
export type Clock = () => number;

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/** The parts of a GaxiosError this adapter reads (duck-typed: gaxios is not imported). */
interface HttpFailure {
  response?: { status: number; headers?: Headers | Record<string, string>; data?: unknown };
}

interface GoogleErrorBody {
  error?: { code?: number; message?: string; errors?: Array<{ reason?: string; domain?: string }> } | string;
  error_description?: string;
}

function responseOf(err: unknown): { status: number; headers: Headers; data: unknown } | null {
  const r = (err as HttpFailure | null)?.response;
  if (!r || typeof r.status !== 'number') return null;
  const headers = r.headers instanceof Headers ? r.headers : new Headers((r.headers ?? {}) as Record<string, string>);
  return { status: r.status, headers, data: r.data };
}

function reasonsOf(body: unknown): string[] {
  const e = (body as GoogleErrorBody | null)?.error;
  if (!e || typeof e !== 'object') return [];
  return (e.errors ?? []).map((x) => x.reason ?? '').filter(Boolean);
}

/** A Google API answer that is not 2xx (turned into ProviderErrors by the sync and push code). */
export class GoogleHttpError extends Error {
  constructor(
    readonly status: number,
    readonly reasons: string[],
  ) {
    super(`Google Calendar answered HTTP ${status}${reasons.length ? ` (${reasons.join(', ')})` : ''}`);
    this.name = 'GoogleHttpError';
  }
}

/** 429, 503 and 403 (user)RateLimitExceeded → ProviderRateLimitError with the Retry-After delay. */
function rateLimited(status: number, headers: Headers, body: unknown, now: number): ProviderRateLimitError | null {
  const reasons = reasonsOf(body);
  const limited =
    status === 429 ||
    status === 503 ||
    (status === 403 && reasons.some((r) => r === 'rateLimitExceeded' || r === 'userRateLimitExceeded'));
  return limited ? new ProviderRateLimitError(retryAfterMs(headers.get('retry-after'), now), GOOGLE_RATE_MESSAGE) : null;
}

/** Turns an unexpected Google HTTP error into an owner-facing ProviderError. */
export function toProviderError(err: unknown, what: string): never {
  if (err instanceof ProviderError) throw err;
  if (err instanceof GoogleHttpError) {
    if (err.status === 403 && err.reasons.some((r) => r === 'insufficientPermissions' || r === 'forbidden')) {
      throw new ProviderAuthError(GOOGLE_REAUTH_MESSAGE);
    }
    throw new ProviderError(`Google Calendar could not ${what} (HTTP ${err.status}). Sync will retry.`);
  }
  throw err;
}

// ---------------------------------------------------------------------------------------------
// Clients
// ---------------------------------------------------------------------------------------------

function clientOf(config: Config): { id: string; secret: string } {
  if (!config.GOOGLE_CLIENT_ID || !config.GOOGLE_CLIENT_SECRET) throw new ProviderError(GOOGLE_UNAVAILABLE);
  return { id: config.GOOGLE_CLIENT_ID, secret: config.GOOGLE_CLIENT_SECRET };
}

/** null when GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set; otherwise the UI's reason. */
export function googleUnavailableReason(config: Config): string | null {
  return config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET ? null : GOOGLE_UNAVAILABLE;
}

/**
 * An OAuth2Client on the configured endpoints whose transporter never retries, never follows a
 * redirect and times out after 20 s. `withClient` = false for a client that only carries an access
 * token (the API client: Google is not configured → only the token is needed).
 */
function oauthClient(config: Config, withClient = true): OAuth2Client {
  const client = withClient ? clientOf(config) : null;
  const auth = new OAuth2Client({
    ...(client ? { clientId: client.id, clientSecret: client.secret } : {}),
    endpoints: {
      oauth2AuthBaseUrl: config.GOOGLE_AUTH_URL,
      oauth2TokenUrl: config.GOOGLE_TOKEN_URL,
      oauth2RevokeUrl: config.GOOGLE_REVOKE_URL,
    },
    transporterOptions: { timeout: REQUEST_TIMEOUT_MS, redirect: 'error', fetchImplementation: fetch },
  });
  auth.transporter.interceptors.request.add({
    resolved: async (options) => {
      options.retry = false; // googleapis-common and OAuth2Client ask for retries; the scheduler owns them
      delete options.retryConfig;
      return options;
    },
  });
  return auth;
}

/**
 * The consent URL (https://developers.google.com/identity/protocols/oauth2/web-server#creatingclient):
 * scopes calendar.readonly + calendar.events ({@link GOOGLE_SCOPES}), access_type=offline +
 * prompt=consent (a refresh token every time),
 * include_granted_scopes=true, PKCE `code_challenge` (S256 of the caller's verifier), `state`.
 * @throws ProviderError when Google is not configured.
 */
export function googleConsentUrl(config: Config, p: { state: string; codeChallenge: string; redirectUri: string }): string {
  return oauthClient(config).generateAuthUrl({
    redirect_uri: p.redirectUri,
    response_type: 'code',
    scope: GOOGLE_SCOPES,
    access_type: 'offline',
    prompt: 'consent',
    include_granted_scopes: true,
    state: p.state,
    code_challenge: p.codeChallenge,
    code_challenge_method: CodeChallengeMethod.S256,
  });
}

/** The token endpoint's answer, as OAuth2Client gives it (`expiry_date` in UTC epoch ms). */
type TokenAnswer = Credentials;

/** Maps a token-endpoint failure: 429/503 → rate limit, `invalid_grant` → `onInvalidGrant()`. */
function tokenFailure(err: unknown, onInvalidGrant: () => ProviderError, now: number): ProviderError {
  const res = responseOf(err);
  if (!res) return new ProviderError(GOOGLE_UNREACHABLE);
  const limited = rateLimited(res.status, res.headers, res.data, now);
  if (limited) return limited;
  const code = (res.data as GoogleErrorBody | null)?.error;
  if (code === 'invalid_grant') return onInvalidGrant();
  if (code === 'invalid_client' || code === 'unauthorized_client') {
    return new ProviderError('Google rejected this server\'s OAuth client (check GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET).');
  }
  return new ProviderError(`Google sign-in failed (HTTP ${res.status}). Please try again later.`);
}

function tokensFrom(t: TokenAnswer, previous: OAuthTokens | null, now: number): OAuthTokens {
  if (!t.access_token) throw new ProviderError('Google answered the sign-in without an access token. Please try again.');
  // OAuth2Client turns `expires_in` into `expiry_date` on the real clock: keep the lifetime, on ours.
  const lifetimeMs = typeof t.expiry_date === 'number' ? t.expiry_date - Date.now() : 0;
  const expiresAt = now + (lifetimeMs > 0 ? lifetimeMs : 3600_000);
  const scope = t.scope ?? previous?.scope;
  return {
    access_token: t.access_token,
    refresh_token: t.refresh_token ?? previous?.refresh_token ?? null,
    expires_at: expiresAt,
    ...(scope ? { scope } : {}),
  };
}

/**
 * Exchanges an authorization code (grant_type=authorization_code with the client secret and the
 * PKCE verifier; https://developers.google.com/identity/protocols/oauth2/web-server#exchange-authorization-code).
 * @returns the token set (`expires_at` UTC epoch ms) and the granted scopes (space-separated, or
 *   undefined when Google did not say).
 * @throws ProviderError (code expired/used/wrong verifier, bad client, Google down),
 *   ProviderRateLimitError.
 */
export async function exchangeGoogleCode(
  config: Config,
  p: { code: string; codeVerifier: string; redirectUri: string },
  now: Clock,
): Promise<{ tokens: OAuthTokens; grantedScope: string | undefined }> {
  const client = oauthClient(config);
  let answer: TokenAnswer;
  try {
    answer = (await client.getToken({ code: p.code, codeVerifier: p.codeVerifier, redirect_uri: p.redirectUri })).tokens;
  } catch (err) {
    throw tokenFailure(
      err,
      () => new ProviderError('Google did not accept the sign-in (it expired or was already used). Please try connecting again.'),
      now(),
    );
  }
  return { tokens: tokensFrom(answer, null, now()), grantedScope: answer.scope ?? undefined };
}

/**
 * Revokes a grant (https://developers.google.com/identity/protocols/oauth2/web-server#tokenrevoke)
 * with the refresh token, else the access token. Resolves when Google revoked it or answers 400
 * (already invalid or revoked) and when the secret holds no readable token.
 * @throws ProviderError when Google could not be reached or answered another error.
 */
export async function revokeGoogleGrant(config: Config, secret: string | null): Promise<void> {
  let tokens: OAuthTokens;
  try {
    tokens = parseTokenSecret(secret, GOOGLE_REAUTH_MESSAGE);
  } catch {
    return; // nothing readable to revoke; the connection and its stored secret are removed anyway
  }
  try {
    await oauthClient(config, false).revokeToken(tokens.refresh_token ?? tokens.access_token);
  } catch (err) {
    const res = responseOf(err);
    if (!res) throw new ProviderError('Could not reach Google to revoke the access.');
    if (res.status !== 400) throw new ProviderError(`Google answered ${res.status} to the revoke request.`);
  }
}

/** Query parameters and body of one Calendar API call (the generated method's params). */
type Call<T> = (api: calendar_v3.Calendar) => Promise<{ data: T }>;

/**
 * An authorized session of one connection: the Calendar API client with the current access
 * token; refreshes it when it expires within 60 s, or once after a 401, and remembers whether the
 * token set changed (→ `newSecret`).
 */
export class GoogleSession {
  private tokens: OAuthTokens;
  private changed = false;
  private readonly auth: OAuth2Client;
  private readonly api: calendar_v3.Calendar;

  /** @throws ProviderAuthError when `secret` holds no readable token set. */
  constructor(
    private readonly config: Config,
    secret: string | null,
    private readonly now: Clock,
  ) {
    this.tokens = parseTokenSecret(secret, GOOGLE_REAUTH_MESSAGE);
    this.auth = oauthClient(config, false);
    this.auth.setCredentials({ access_token: this.tokens.access_token });
    this.api = calendar({ version: 'v3', auth: this.auth, rootUrl: `${config.GOOGLE_API_BASE_URL}/` });
  }

  /** JSON of the refreshed token set, when a refresh happened. */
  get newSecret(): string | undefined {
    return this.changed ? JSON.stringify(this.tokens) : undefined;
  }

  /**
   * grant_type=refresh_token (https://developers.google.com/identity/protocols/oauth2/web-server#offline).
   * @throws ProviderAuthError (no refresh token, invalid_grant), ProviderRateLimitError, ProviderError.
   */
  private async refresh(): Promise<void> {
    if (!this.tokens.refresh_token) throw new ProviderAuthError(GOOGLE_REAUTH_MESSAGE);
    const client = oauthClient(this.config);
    let answer: TokenAnswer | null = null;
    client.on('tokens', (t) => (answer = t)); // the raw answer: a rotated refresh token is kept
    client.setCredentials({ refresh_token: this.tokens.refresh_token });
    try {
      await client.getAccessToken();
    } catch (err) {
      throw tokenFailure(err, () => new ProviderAuthError(GOOGLE_REAUTH_MESSAGE), this.now());
    }
    if (!answer) throw new ProviderError('Google answered the sign-in without an access token. Please try again.');
    this.tokens = tokensFrom(answer, this.tokens, this.now());
    this.auth.setCredentials({ access_token: this.tokens.access_token });
    this.changed = true;
  }

  /**
   * One Calendar API call through the generated client (`call(api)`), e.g.
   * `s.call((api) => api.events.list({ calendarId, syncToken }))`.
   * @returns the parsed JSON body (null for an empty answer).
   * @throws ProviderAuthError (401 after a refresh, invalid_grant), ProviderRateLimitError,
   *   GoogleHttpError (any other non-2xx), ProviderError (network, timeout).
   */
  async call<T>(call: Call<T>): Promise<T | null> {
    for (let attempt = 0; ; attempt++) {
      if (this.tokens.expires_at - this.now() < REFRESH_MARGIN_MS) await this.refresh();
      try {
        const res = await call(this.api);
        return (res.data as T | '' | undefined) || null;
      } catch (err) {
        const res = responseOf(err);
        if (!res) throw new ProviderError(GOOGLE_UNREACHABLE);
        if (res.status === 401) {
          if (attempt === 0) {
            await this.refresh();
            continue;
          }
          throw new ProviderAuthError(GOOGLE_REAUTH_MESSAGE);
        }
        const limited = rateLimited(res.status, res.headers, res.data, this.now());
        if (limited) throw limited;
        throw new GoogleHttpError(res.status, reasonsOf(res.data));
      }
    }
  }
}
