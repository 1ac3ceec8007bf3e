/**
 * Adapter interface of the OAuth calendar providers (Google Calendar, Microsoft Graph). They plug
 * into the same sync pipeline as the pull providers (provider.ts): `sync()` returns raw iCalendar
 * objects (RFC 5545 VCALENDAR text, one per provider event/series), which the sync service stores
 * and turns into busy intervals with the shared engine — so a Google or Graph event is judged by
 * exactly the rules of availability-semantics.md (cancelled / transparent / showAs free / declined
 * are not busy; RRULE, EXDATE, RECURRENCE-ID overrides expand like any other calendar).
 *
 * Mapping an event to iCalendar (each adapter): UID = the provider's series/event id (iCalUID
 * where given), DTSTART/DTEND with TZID (Windows zone names are fine: the engine maps them) or
 * VALUE=DATE for all-day, RRULE/EXDATE/RDATE lines as given (Google `recurrence`), overrides as
 * VEVENTs with RECURRENCE-ID (Google `recurringEventId` + `originalStartTime`), STATUS:CANCELLED,
 * TRANSP:TRANSPARENT for Google `transparency: transparent` and Graph `showAs: free`
 * (X-MICROSOFT-CDO-BUSYSTATUS carries Graph's showAs), the owner's own ATTENDEE with
 * PARTSTAT=DECLINED when the owner declined (Google `attendees[].self`, Graph `responseStatus`).
 * SUMMARY is kept (owner-only: titles live in calendar_sources/calendar_events, never in
 * busy_intervals or any public answer).
 *
 * Secrets: the connection's `secret_enc` holds the JSON of `OAuthTokens`, AES-256-GCM encrypted
 * (lib/crypto.ts). Adapters receive it decrypted as `secret`, refresh the access token when it
 * expires within 60 s (or on a 401), and return the refreshed JSON as `newSecret` so the sync
 * service re-encrypts it. `invalid_grant` from the token endpoint → ProviderAuthError (status
 * 'expired', spec texts). 429/503 → ProviderRateLimitError with the Retry-After delay.
 */
import type { Config } from '../config.ts';
import { ProviderAuthError, ProviderError, type ProviderSyncInput, type ProviderSyncResult } from './provider.ts';

export type OAuthProviderId = 'google' | 'microsoft';

/** Token set kept (encrypted) per connection. `expires_at` is UTC epoch ms. */
export interface OAuthTokens {
  access_token: string;
  refresh_token: string | null;
  expires_at: number;
  scope?: string;
}

/** Result of a sync of an OAuth provider: may carry refreshed tokens. */
export interface OAuthSyncResult extends ProviderSyncResult {
  /** JSON of the refreshed OAuthTokens to store encrypted, when they changed. */
  newSecret?: string;
  /**
   * Ids of the calendars to watch with push channels (every event calendar, also empty ones).
   * Optional: without it the server uses `newState.calendarIds` when that is a string array, else
   * the distinct `calendarUrl` of the stored sources.
   */
  calendarIds?: string[];
}

/**
 * A push channel: a Google `events.watch` channel (one per calendar) or a Graph subscription
 * (one per calendar). `token` is our random secret: Google's X-Goog-Channel-Token / Graph's
 * clientState, compared in constant time on every notification. `expires_at` is UTC epoch ms.
 */
export interface PushChannel {
  /** Google channel id (we choose it, a UUID) / Graph subscription id (Graph chooses it). */
  channel_id: string;
  /** Google resourceId (needed by channels.stop); null for Graph. */
  resource_id: string | null;
  calendar_id: string;
  token: string;
  expires_at: number;
}

export interface OAuthCalendarProvider {
  readonly id: OAuthProviderId;
  /** null when configured; otherwise the reason shown in the UI ('Google Calendar is not configured on this server.'). */
  unavailableReason(config: Config): string | null;
  /**
   * Consent URL for reading calendars and (issue 24) writing confirmed meetings as events
   * (Google calendar.readonly + calendar.events, Microsoft Calendars.ReadWrite). PKCE (S256) is used by both providers.
   * `redirectUri` = `${PUBLIC_BASE_URL}/api/oauth/{provider}/callback`.
   */
  authorizationUrl(config: Config, p: { state: string; codeChallenge: string; redirectUri: string }): string;
  /** Exchanges the callback's code. @throws ProviderError with a safe message. `account` = the user's e-mail at the provider. */
  exchangeCode(config: Config, p: { code: string; codeVerifier: string; redirectUri: string }): Promise<{ tokens: OAuthTokens; account: string | null }>;
  /** Full or incremental sync (state = the previous result's newState). */
  sync(config: Config, input: ProviderSyncInput<Record<string, unknown>>): Promise<OAuthSyncResult>;
  /**
   * True when the provider delivers notifications only to an `https://` webhook URL (Google:
   * https://developers.google.com/calendar/api/guides/push#requirements): with an http
   * WEBHOOK_BASE_URL no channel is opened and the backup sync keeps the calendar current.
   */
  readonly pushNeedsHttps?: boolean;
  /** Opens push channels for every calendar in `calendarIds` (from the sync state). */
  startPush(config: Config, p: { secret: string; webhookUrl: string; calendarIds: string[] }): Promise<{ channels: PushChannel[]; newSecret?: string }>;
  /**
   * Renews a channel before it expires (Google: a new watch + stop of the old; Graph: PATCH expirationDateTime).
   * The server keeps only a hash of each channel token, so `channel.token` given to renewPush and
   * stopPush is '' : a renewal that opens a new channel must choose a new token and return it; one
   * that keeps the channel (Graph PATCH) returns token '' (or the same) and the stored hash stays.
   */
  renewPush(config: Config, p: { secret: string; webhookUrl: string; channel: PushChannel }): Promise<{ channel: PushChannel; newSecret?: string }>;
  /** Stops channels; never throws for channels the provider no longer knows. */
  stopPush(config: Config, p: { secret: string; channels: PushChannel[] }): Promise<void>;
  /** Revokes the grant where the provider supports it (Google); best effort. */
  revoke(config: Config, p: { secret: string }): Promise<void>;
}

/** The provider asked us to slow down (HTTP 429/503): retry after `retryAfterMs`. */
export class ProviderRateLimitError extends ProviderError {
  constructor(
    readonly retryAfterMs: number,
    message = 'The calendar provider asked us to slow down. Sync will retry shortly.',
  ) {
    super(message);
    this.name = 'ProviderRateLimitError';
  }
}

/** Parses a Retry-After header (delta-seconds or HTTP-date) to ms; `fallbackMs` when absent or bad. */
export function retryAfterMs(header: string | null, now: number, fallbackMs = 60_000): number {
  if (!header) return fallbackMs;
  const secs = Number(header);
  if (Number.isFinite(secs) && secs >= 0) return Math.round(secs * 1000);
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, at - now) : fallbackMs;
}

/**
 * Errors thrown by an adapter AFTER it refreshed the access token carry the refreshed token JSON
 * as `newSecret`, so the sync service stores it even though the sync failed (a rotated refresh
 * token must never be lost). Adapters call this in their catch; callers read it with secretOfError.
 */
export function withSecret<E>(err: E, newSecret: string | undefined): E {
  if (newSecret && err && typeof err === 'object') (err as { newSecret?: string }).newSecret = newSecret;
  return err;
}

/** The refreshed token JSON attached to an error thrown after a refresh, or undefined. */
export function secretOfError(err: unknown): string | undefined {
  const s = (err as { newSecret?: unknown } | null)?.newSecret;
  return typeof s === 'string' ? s : undefined;
}

/**
 * Reads a connection's decrypted token JSON. @throws ProviderAuthError(`reauthMessage`) when it is
 * missing or not an OAuthTokens object (the owner must reconnect).
 */
export function parseTokenSecret<T extends OAuthTokens = OAuthTokens>(secret: string | null, reauthMessage: string): T {
  if (secret) {
    try {
      const t = JSON.parse(secret) as T;
      if (t && typeof t.access_token === 'string' && typeof t.expires_at === 'number') return t;
    } catch {
      // not JSON: fall through
    }
  }
  throw new ProviderAuthError(reauthMessage);
}
