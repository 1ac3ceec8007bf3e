/**
 * Google Calendar adapter (OAuthCalendarProvider 'google'), built by {@link createGoogleProvider}
 * like the Microsoft adapter: OAuth 2.0 web-server flow with PKCE and the read + events scopes
 * (GOOGLE_SCOPES; the events scope is for writing confirmed meetings, google-writer.ts),
 * incremental sync with per-calendar sync tokens, push channels.
 *
 * The seams (the same as the Microsoft adapter's):
 * - google-session.ts — auth: sign-in, refresh and revoke (google-auth-library's OAuth2Client) and
 *   every Calendar API call (`@googleapis/calendar`), their retries off, token refresh by the
 *   adapter (60 s margin, once after a 401), the error mapping;
 * - google-sync.ts — sync: calendar list, events.list with sync tokens, series state;
 * - google-push.ts — push: events.watch channels and channels.stop;
 * - this file — the factory composing them into the OAuthCalendarProvider.
 *
 * Never logs: this module has no logger; error messages carry no tokens, titles or e-mails.
 */
import { withSecret, type OAuthCalendarProvider, type OAuthSyncResult, type PushChannel } from '../oauth-provider.ts';
import { stopChannel, watch } from './google-push.ts';
import { ProviderError, type ProviderSyncInput } from '../provider.ts';
import {
  GOOGLE_CALENDAR_SCOPE,
  GoogleSession,
  exchangeGoogleCode,
  googleConsentUrl,
  googleUnavailableReason,
  revokeGoogleGrant,
  type Clock,
} from './google-session.ts';
import { syncGoogle } from './google-sync.ts';

export { GOOGLE_REAUTH_MESSAGE, GOOGLE_SCOPES } from './google-session.ts';
export { applyListing } from './google-sync.ts';

/** Options of {@link createGoogleProvider} (the same shape as the Microsoft adapter's). */
interface GoogleProviderOptions {
  /** Clock (UTC epoch ms) for token expiry, the sync horizon and channel expiry; default Date.now. */
  now?: Clock;
}

// ---------------------------------------------------------------------------------------------
// The adapter
// ---------------------------------------------------------------------------------------------

/** Builds the Google adapter (see the module doc). */
function createGoogleProvider(options: GoogleProviderOptions = {}): OAuthCalendarProvider {
  const now = options.now ?? Date.now;
  return {
    id: 'google',
    /** Google refuses a non-https watch address (400 push.webhookUrlNotHttps). */
    pushNeedsHttps: true,

    /** null when GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set; otherwise the UI's reason. */
    unavailableReason: googleUnavailableReason,

    /** The consent URL: see google-session.ts `googleConsentUrl`. @throws ProviderError when not configured. */
    authorizationUrl: googleConsentUrl,

    /**
     * Exchanges the callback's code (google-session.ts `exchangeGoogleCode`), then reads the
     * account e-mail as the primary calendar's id (calendars.get 'primary'; no extra scope).
     * `tokens.expires_at` is UTC epoch ms. `account` is null if that read fails.
     * @throws ProviderError (code expired/used/wrong verifier, calendar access not granted, Google
     *   down), ProviderRateLimitError.
     */
    async exchangeCode(config, p) {
      const { tokens, grantedScope } = await exchangeGoogleCode(config, p, now);
      // Granular consent lets the user untick the calendar permission.
      if (grantedScope !== undefined && !grantedScope.split(/\s+/).includes(GOOGLE_CALENDAR_SCOPE)) {
        throw new ProviderError('Avail needs permission to see your calendars. Please connect again and allow calendar access.');
      }
      let account: string | null = null;
      try {
        const session = new GoogleSession(config, JSON.stringify(tokens), now);
        const primary = await session.call((api) => api.calendars.get({ calendarId: 'primary' }));
        account = typeof primary?.id === 'string' && primary.id.includes('@') ? primary.id.toLowerCase() : null;
      } catch {
        // The account e-mail is only the connection's label (the sync reads the primary calendar
        // again): the grant itself is good, so the connect goes on without it.
        account = null;
      }
      return { tokens, account };
    },

    /**
     * Full or incremental sync of every calendar of the account (google-sync.ts `syncGoogle`).
     * A token refreshed before a failure is still handed back on the error (`withSecret`).
     * @throws ProviderAuthError (grant revoked/expired, no refresh token, permission removed),
     *   ProviderRateLimitError (429/503/403 rate limit: retry after `retryAfterMs`), ProviderError.
     */
    async sync(config, input: ProviderSyncInput<Record<string, unknown>>): Promise<OAuthSyncResult> {
      const session = new GoogleSession(config, input.secret, now);
      try {
        return await syncGoogle(session, input, now);
      } catch (err) {
        throw withSecret(err, session.newSecret); // a refreshed token survives a failed sync
      }
    },

    /**
     * Opens one events.watch channel per calendar, address = `webhookUrl` as given. If one fails,
     * the channels already opened are stopped (best effort) and the error is thrown.
     * `expires_at` = Google's `expiration` (UTC epoch ms).
     */
    async startPush(config, p) {
      const session = new GoogleSession(config, p.secret, now);
      const channels: PushChannel[] = [];
      try {
        for (const calendarId of p.calendarIds) channels.push(await watch(session, p.webhookUrl, calendarId, now));
      } catch (err) {
        for (const ch of channels) await stopChannel(session, ch).catch(() => undefined);
        throw err;
      }
      const newSecret = session.newSecret;
      return newSecret ? { channels, newSecret } : { channels };
    },

    /**
     * Google channels cannot be extended: opens a new watch on the same calendar (new id and new
     * token, returned), then stops the old channel (`channel.token` is not needed and may be '');
     * a failure to stop it is ignored: it expires by itself and its notifications name an unknown
     * channel id.
     */
    async renewPush(config, p) {
      const session = new GoogleSession(config, p.secret, now);
      const channel = await watch(session, p.webhookUrl, p.channel.calendar_id, now);
      // Never fail once the new channel exists: the caller must learn about it.
      await stopChannel(session, p.channel).catch(() => undefined);
      const newSecret = session.newSecret;
      return newSecret ? { channel, newSecret } : { channel };
    },

    /**
     * channels.stop for each channel; channels Google no longer knows (404) are skipped. Other
     * failures are thrown after every channel was tried.
     */
    async stopPush(config, p) {
      if (p.channels.length === 0) return;
      const session = new GoogleSession(config, p.secret, now);
      let firstError: unknown = null;
      for (const ch of p.channels) {
        try {
          await stopChannel(session, ch);
        } catch (err) {
          firstError ??= err;
        }
      }
      if (firstError) throw firstError;
    },

    /** Revokes the grant: google-session.ts `revokeGoogleGrant` (400 = already revoked, resolves). */
    async revoke(config, p) {
      await revokeGoogleGrant(config, p.secret);
    },
  };
}

/** The adapter the server registers (oauth-registry.ts). */
export const googleProvider: OAuthCalendarProvider = createGoogleProvider();
