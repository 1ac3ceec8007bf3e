/**
 * Microsoft (Outlook Calendar / Microsoft 365) adapter of the OAuth provider interface
 * (../oauth-provider.ts): Microsoft identity platform v2.0 + Microsoft Graph v1.0. This file is the
 * factory composing the adapter's parts along their seams:
 *
 * - microsoft-session.ts — auth: the token endpoint (code exchange with PKCE, refresh; plain fetch),
 *   the connection's tokens, and the authorized Graph calls with the error mapping (401 → one
 *   refresh + one retry, then ProviderAuthError; 429/503 → ProviderRateLimitError with Retry-After;
 *   network/timeout → ProviderError).
 * - microsoft-graph-client.ts — the `@microsoft/microsoft-graph-client` Client: a middleware chain of
 *   our own (AuthenticationHandler → HTTPMessageHandler) with no RetryHandler and no
 *   RedirectHandler, so nothing retries or sleeps inside a sync; next/delta links are followed with
 *   `api(absoluteHttpsUrl)` (MICROSOFT_GRAPH_BASE_URL is https; the local fakes serve Graph over
 *   https with a test CA trusted through NODE_EXTRA_CA_CERTS, see server/test/fakes/tls/).
 * - microsoft-sync.ts — sync: calendarView delta rounds per calendar, state, upserts/removals.
 * - microsoft-push.ts — push: Graph subscriptions (create, renew, delete).
 *
 * Sign-in (https://learn.microsoft.com/entra/identity-platform/v2-oauth2-auth-code-flow):
 * authorization code flow with PKCE (S256) as a confidential client (client secret), at
 * `${MICROSOFT_LOGIN_BASE_URL}/${MICROSOFT_TENANT}/oauth2/v2.0/{authorize,token}`, scope
 * `openid email offline_access Calendars.ReadWrite` (issue 24: confirmed meetings are written by
 * microsoft-writer.ts; older read-only grants refresh with Calendars.Read, see microsoft-session.ts). The account e-mail comes from the id_token (no
 * User.Read / GET /me) and is kept in the token JSON (`account`) and in the sync state.
 *
 * Times are UTC epoch ms throughout (`expires_at`, windows, channel expiry). Errors thrown after a
 * token refresh carry the refreshed token JSON as `newSecret` (read it with {@link secretOfError}).
 * Never logs anything; error messages never contain tokens, subjects or e-mails.
 */
import { CALENDAR_FETCH_TIMEOUT_MS } from '@avail/shared/constants.ts';
import type { Config } from '../../config.ts';
import type { OAuthCalendarProvider } from '../oauth-provider.ts';
import { ProviderError } from '../provider.ts';
import { renewSubscription, startSubscriptions, stopSubscriptions } from './microsoft-push.ts';
import {
  MICROSOFT_NOT_CONFIGURED,
  MICROSOFT_SCOPE,
  MicrosoftSession,
  exchangeMicrosoftCode,
  loginUrl,
  type MicrosoftProviderOptions,
  type SessionOptions,
} from './microsoft-session.ts';
import { DELTA_PAGE_SIZE, syncMicrosoft } from './microsoft-sync.ts';

export { secretOfError } from '../oauth-provider.ts';
export {
  MICROSOFT_AUTH_ERROR,
  MICROSOFT_READ_SCOPE,
  MICROSOFT_SCOPE,
  type MicrosoftProviderOptions,
  type MicrosoftTokens,
} from './microsoft-session.ts';
export { MICROSOFT_SELF_ADDRESS, type MicrosoftSyncState } from './microsoft-sync.ts';

/**
 * Creates the Microsoft adapter. `microsoftProvider` is the instance the app uses; tests create
 * their own with a movable clock, a page size, or a fetch that tampers with answers.
 */
export function createMicrosoftProvider(options: MicrosoftProviderOptions = {}): OAuthCalendarProvider {
  const opts: SessionOptions = {
    now: options.now ?? Date.now,
    fetch: options.fetch,
    timeoutMs: options.timeoutMs ?? CALENDAR_FETCH_TIMEOUT_MS,
    pageSize: options.pageSize ?? DELTA_PAGE_SIZE,
  };

  /** Runs `fn` with a session; errors after a refresh carry the refreshed secret (`newSecret`). */
  const withSession = async <T>(config: Config, secret: string | null, fn: (s: MicrosoftSession) => Promise<T>): Promise<T> => {
    const s = new MicrosoftSession(config, opts, secret);
    try {
      return await fn(s);
    } catch (err) {
      throw s.decorate(err);
    }
  };

  return {
    id: 'microsoft',

    /** null when MICROSOFT_CLIENT_ID and MICROSOFT_CLIENT_SECRET are set; else the UI's reason. */
    unavailableReason(config) {
      return config.MICROSOFT_CLIENT_ID && config.MICROSOFT_CLIENT_SECRET ? null : MICROSOFT_NOT_CONFIGURED;
    },

    /**
     * The v2.0 authorize URL (response_type=code, response_mode=query, PKCE S256, `state`).
     * https://learn.microsoft.com/entra/identity-platform/v2-oauth2-auth-code-flow#request-an-authorization-code
     */
    authorizationUrl(config, p) {
      if (!config.MICROSOFT_CLIENT_ID) throw new ProviderError(MICROSOFT_NOT_CONFIGURED);
      const q = new URLSearchParams({
        client_id: config.MICROSOFT_CLIENT_ID,
        response_type: 'code',
        redirect_uri: p.redirectUri,
        response_mode: 'query',
        scope: MICROSOFT_SCOPE,
        state: p.state,
        code_challenge: p.codeChallenge,
        code_challenge_method: 'S256',
      });
      return `${loginUrl(config, 'authorize')}?${q}`;
    },

    /**
     * Redeems the callback's code (grant_type=authorization_code with code_verifier and the client
     * secret). Returns tokens (`expires_at` UTC epoch ms; `account` included) and the account
     * e-mail from the id_token (null when Microsoft gave none).
     * @throws ProviderError with a safe message (refused code/verifier, app credentials, network); ProviderRateLimitError.
     */
    async exchangeCode(config, p) {
      return exchangeMicrosoftCode(config, opts, p);
    },

    /**
     * Full or incremental sync of every calendar (microsoft-sync.ts). `input.state` is the
     * previous `newState` (MicrosoftSyncState) or null; `input.known` the objects held.
     * @throws ProviderAuthError (refused grant / 401 after refresh / 403), ProviderRateLimitError
     *   (429/503, Retry-After honoured by the scheduler), ProviderError (anything else, safe text).
     *   Errors thrown after a token refresh carry `newSecret`.
     */
    async sync(config, input) {
      return withSession(config, input.secret, (s) => syncMicrosoft(s, input));
    },

    /**
     * One Graph subscription per calendar (microsoft-push.ts), after Graph's validation handshake
     * on webhookUrl. If one calendar fails, the subscriptions already created are deleted and the error thrown.
     */
    async startPush(config, p) {
      return withSession(config, p.secret, async (s) => {
        const channels = await startSubscriptions(s, p.webhookUrl, p.calendarIds);
        return { channels, ...(s.newSecret() ? { newSecret: s.newSecret() } : {}) };
      });
    },

    /**
     * PATCH /subscriptions/{id} { expirationDateTime: now + 4200 min }; a subscription Graph no
     * longer knows (404) is replaced by a new one for the same calendar (new id and clientState).
     */
    async renewPush(config, p) {
      return withSession(config, p.secret, async (s) => {
        const channel = await renewSubscription(s, p.webhookUrl, p.channel);
        return { channel, ...(s.newSecret() ? { newSecret: s.newSecret() } : {}) };
      });
    },

    /** DELETE /subscriptions/{id} for each channel; 404 (unknown/expired subscription) is ignored. Other failures throw. */
    async stopPush(config, p) {
      if (!p.channels.length) return;
      await withSession(config, p.secret, (s) => stopSubscriptions(s, p.channels));
    },

    /**
     * No-op: the Microsoft identity platform has no token revocation endpoint for the auth-code
     * flow (a user removes the app's consent at https://myapps.microsoft.com / account.live.com;
     * an admin revokes sessions with Graph `revokeSignInSessions`, which needs User.ReadWrite).
     * Disconnecting deletes our stored tokens, which is all we can do.
     */
    async revoke() {
      // Nothing to call.
    },
  };
}

/** The adapter the app registers for provider 'microsoft'. */
export const microsoftProvider: OAuthCalendarProvider = createMicrosoftProvider();
