/**
 * Google Calendar adapter (OAuthCalendarProvider 'google'), built by {@link createGoogleProvider}
 * like the Microsoft adapter: OAuth 2.0 web-server flow with PKCE and the read-only scope,
 * incremental sync with per-calendar sync tokens, push channels.
 *
 * The seams: google-session.ts signs in and makes every Calendar API call (google-auth-library's
 * OAuth2Client + `@googleapis/calendar`, their retries off, token refresh by the adapter);
 * google-sync.ts is the sync; this file is the adapter interface and the push channels.
 *
 * Push (https://developers.google.com/calendar/api/guides/push): one events.watch channel per
 * calendar (id = random UUID, token = 32 random bytes base64url, ttl 7 days); renewal = a new watch
 * then channels.stop of the old one.
 *
 * Never logs: this module has no logger; error messages carry no tokens, titles or e-mails.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { withSecret, type OAuthCalendarProvider, type OAuthSyncResult, type PushChannel } from '../oauth-provider.ts';
import { ProviderError, type ProviderSyncInput } from '../provider.ts';
import {
  GOOGLE_CALENDAR_SCOPE,
  GoogleHttpError,
  GoogleSession,
  exchangeGoogleCode,
  googleConsentUrl,
  googleUnavailableReason,
  revokeGoogleGrant,
  toProviderError,
  type Clock,
} from './google-session.ts';
import { syncGoogle } from './google-sync.ts';

export { GOOGLE_CALENDAR_SCOPE, GOOGLE_REAUTH_MESSAGE, GOOGLE_UNAVAILABLE } from './google-session.ts';
export { applyListing, type GoogleSyncState } from './google-sync.ts';

/** Push channel lifetime requested from Google (seconds): 7 days. */
export const GOOGLE_CHANNEL_TTL_SEC = 7 * 24 * 3600;

/** Options of {@link createGoogleProvider} (the same shape as the Microsoft adapter's). */
export interface GoogleProviderOptions {
  /** Clock (UTC epoch ms) for token expiry, the sync horizon and channel expiry; default Date.now. */
  now?: Clock;
}

// ---------------------------------------------------------------------------------------------
// Push
// ---------------------------------------------------------------------------------------------

/** events.watch (https://developers.google.com/calendar/api/v3/reference/events/watch). */
async function watch(session: GoogleSession, webhookUrl: string, calendarId: string, now: Clock): Promise<PushChannel> {
  const id = randomUUID();
  const token = randomBytes(32).toString('base64url');
  let body: { id?: string | null; resourceId?: string | null; expiration?: string | null } | null;
  try {
    body = await session.call((api) =>
      api.events.watch({
        calendarId,
        requestBody: { id, type: 'web_hook', address: webhookUrl, token, params: { ttl: String(GOOGLE_CHANNEL_TTL_SEC) } },
      }),
    );
  } catch (err) {
    if (err instanceof GoogleHttpError && err.status === 400) {
      throw new ProviderError('Google Calendar refused the webhook address (it must be a public HTTPS URL of a verified domain).');
    }
    toProviderError(err, 'open a push channel');
  }
  const expiration = Number(body?.expiration);
  if (!body?.resourceId) throw new ProviderError('Google Calendar answered the watch request without a resource id.');
  return {
    channel_id: body.id ?? id,
    resource_id: body.resourceId,
    calendar_id: calendarId,
    token,
    expires_at: Number.isFinite(expiration) && expiration > 0 ? expiration : now() + GOOGLE_CHANNEL_TTL_SEC * 1000,
  };
}

/** channels.stop (https://developers.google.com/calendar/api/v3/reference/channels/stop); 404 = already gone. */
async function stopChannel(session: GoogleSession, channel: PushChannel): Promise<void> {
  try {
    await session.call((api) => api.channels.stop({ requestBody: { id: channel.channel_id, resourceId: channel.resource_id } }));
  } catch (err) {
    if (err instanceof GoogleHttpError && err.status === 404) return;
    toProviderError(err, 'stop a push channel');
  }
}


// ---------------------------------------------------------------------------------------------
// The adapter
// ---------------------------------------------------------------------------------------------

/** Builds the Google adapter (see the module doc). */
export function createGoogleProvider(options: GoogleProviderOptions = {}): OAuthCalendarProvider {
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
