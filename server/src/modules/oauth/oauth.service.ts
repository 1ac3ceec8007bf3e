/**
 * Connecting Google Calendar and Microsoft Outlook Calendar (OAuth 2.0 authorization code with
 * PKCE S256, RFC 7636; Google: https://developers.google.com/identity/protocols/oauth2/web-server,
 * Microsoft: https://learn.microsoft.com/entra/identity-platform/v2-oauth2-auth-code-flow).
 *
 * 1. startConnect (POST /api/me/calendar/{provider}/connect, bearer token): makes a random state
 *    and PKCE verifier, stores sha256(state) with the owner and the encrypted verifier (10 min,
 *    single use) and answers the provider's consent URL.
 * 2. completeConnect (GET /api/oauth/{provider}/callback, a popup navigation without a token): the
 *    state row names the owner; the code is exchanged, the owner's connection of that provider is
 *    created (or updated on reconnect) with the tokens AES-256-GCM encrypted in secret_enc, the
 *    first sync runs, push channels are opened (a push failure never fails the connect).
 *
 * Never logs codes, states, verifiers or tokens.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { UserRow } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { decryptSecret, encryptSecret } from '../../lib/crypto.ts';
import type { OAuthProviderId } from '../../providers/oauth-provider.ts';
import { OAUTH_PROVIDER_LABELS, oauthProviderFor, oauthUnavailableReason } from '../../providers/oauth-registry.ts';
import { ProviderError } from '../../providers/provider.ts';
import * as calendarsRepo from '../../store/calendars.repo.ts';
import { replicatedWrite } from '../../store/repl-clock.repo.ts';
import { cancelScheduledSync, syncConnection, type SyncDeps } from '../sync/index.ts';
import * as repo from '../../store/oauth.repo.ts';
import { openMissingChannels, stopChannelsAndRevoke } from './push.service.ts';

/** `${PUBLIC_BASE_URL}/api/oauth/{provider}/callback`: register exactly this redirect URI at the provider. */
function redirectUriFor(deps: Pick<SyncDeps, 'config'>, provider: OAuthProviderId): string {
  return `${deps.config.PUBLIC_BASE_URL}/api/oauth/${provider}/callback`;
}

/** base64url(sha256(verifier)): the PKCE S256 code challenge (RFC 7636 §4.2). */
export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** Availability of each provider for the My Calendars screen (`reason` is shown when unavailable). */
export interface ProvidersView {
  google: { available: boolean; reason: string | null };
  microsoft: { available: boolean; reason: string | null };
  apple: { available: true; reason: null };
}

/** GET /api/me/calendar/providers body: which providers can be connected on this server. */
export function providersView(deps: SyncDeps): ProvidersView {
  const g = oauthUnavailableReason(deps, 'google');
  const m = oauthUnavailableReason(deps, 'microsoft');
  return {
    google: { available: g === null, reason: g },
    microsoft: { available: m === null, reason: m },
    apple: { available: true, reason: null },
  };
}

/**
 * Starts a consent for `user`. @returns `{ auth_url }` (the provider's consent page; state = 43
 * random base64url chars, PKCE verifier = 43 random base64url chars, challenge S256).
 * @throws HttpError 503 `provider_unavailable` with the adapter's reason when not configured.
 */
export async function startConnect(deps: SyncDeps, user: UserRow, provider: OAuthProviderId): Promise<{ auth_url: string }> {
  const reason = oauthUnavailableReason(deps, provider);
  const adapter = oauthProviderFor(deps, provider);
  if (reason || !adapter) throw new HttpError(503, 'provider_unavailable', reason ?? 'This calendar provider is not available.');
  const state = randomBytes(32).toString('base64url');
  const verifier = randomBytes(32).toString('base64url');
  await repo.insertState(deps.db, {
    state,
    userId: user.id,
    provider,
    codeVerifierEnc: encryptSecret(verifier, deps.config.AVAIL_SECRET_KEY),
    now: deps.now(),
  });
  const auth_url = adapter.authorizationUrl(deps.config, {
    state,
    codeChallenge: pkceChallenge(verifier),
    redirectUri: redirectUriFor(deps, provider),
  });
  return { auth_url };
}

/** Query of the callback (strings as the provider sent them; anything else is ignored). */
export interface CallbackQuery {
  code?: unknown;
  state?: unknown;
  error?: unknown;
}

export type CallbackResult =
  | { ok: true; connectionId: string; created: boolean }
  | { ok: false; reason: 'denied' | 'bad_state' | 'exchange_failed' | 'sync_refused' | 'unavailable' };

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 && v.length <= 4096 ? v : undefined);

/**
 * Completes a consent: never throws for bad input or provider failures (the popup always gets a
 * page). Returns which connection was created/updated, or why it failed. The state is consumed
 * (deleted) whatever happens after it is read.
 */
export async function completeConnect(deps: SyncDeps, provider: OAuthProviderId, query: CallbackQuery): Promise<CallbackResult> {
  const state = str(query.state);
  const stateRow = state ? await repo.consumeState(deps.db, provider, state, deps.now()) : undefined;
  if (str(query.error)) {
    deps.logger.info({ provider, error: str(query.error) === 'access_denied' ? 'access_denied' : 'other' }, 'oauth consent not given');
    return { ok: false, reason: 'denied' };
  }
  const code = str(query.code);
  if (!stateRow || !code) {
    deps.logger.warn({ provider, hasState: !!state, hasCode: !!code }, 'oauth callback with an unknown, used or expired state');
    return { ok: false, reason: 'bad_state' };
  }
  const adapter = oauthProviderFor(deps, provider);
  if (!adapter || adapter.unavailableReason(deps.config)) return { ok: false, reason: 'unavailable' };

  let tokens;
  let account: string | null;
  try {
    const verifier = decryptSecret(stateRow.code_verifier_enc, deps.config.AVAIL_SECRET_KEY);
    ({ tokens, account } = await adapter.exchangeCode(deps.config, { code, codeVerifier: verifier, redirectUri: redirectUriFor(deps, provider) }));
  } catch (err) {
    deps.logger.warn({ provider, errName: (err as Error)?.name, safe: err instanceof ProviderError }, 'oauth code exchange failed');
    return { ok: false, reason: 'exchange_failed' };
  }

  const userId = stateRow.user_id;
  const secretEnc = encryptSecret(JSON.stringify(tokens), deps.config.AVAIL_SECRET_KEY);
  const now = deps.now();
  const existing = (await calendarsRepo.findConnectionsByProvider(deps.db, userId, provider, deps.config.AVAIL_SECRET_KEY))[0];
  const sameAccount = existing && (existing.account ?? '').toLowerCase() === (account ?? '').toLowerCase();
  let connectionId: string;
  let created: boolean;
  if (existing && sameAccount) {
    // Reconnect of the same account: keep the connection (and its incremental sync state).
    await stopChannelsAndRevoke(deps, existing, { revoke: false });
    connectionId = existing.id;
    created = false;
    await replicatedWrite(deps, userId, async (trx, stamp) => {
      await repo.deleteChannelsOfConnection(trx, existing.id);
      await calendarsRepo.updateConnection(
        trx,
        existing,
        { secret_enc: secretEnc, status: 'active', last_error: null, failure_count: 0, next_sync_at: null },
        stamp,
      );
    });
  } else {
    if (existing) {
      // Another account of the same provider: the old one goes (one connection per provider).
      await stopChannelsAndRevoke(deps, existing);
      cancelScheduledSync(deps.db, existing.id);
    }
    connectionId = crypto.randomUUID();
    created = true;
    await replicatedWrite(deps, userId, async (trx, stamp) => {
      if (existing) {
        await repo.deleteChannelsOfConnection(trx, existing.id);
        await calendarsRepo.deleteConnectionCascade(trx, existing, stamp);
      }
      await calendarsRepo.insertConnection(
        trx,
        {
          id: connectionId,
          user_id: userId,
          provider,
          name: OAUTH_PROVIDER_LABELS[provider].connectionName,
          status: 'active',
          account,
          config_json: '{}',
          secret_enc: secretEnc,
          sync_state_json: null,
          calendars_count: 0,
          included_calendars_count: 0,
          warnings_json: null,
          last_error: null,
          last_synced_at: null,
          connected_at: now,
        },
        stamp,
        deps.config.AVAIL_SECRET_KEY,
      );
    });
  }

  const outcome = await syncConnection(deps, connectionId);
  if (!outcome.ok) {
    const conn = await calendarsRepo.findConnectionById(deps.db, connectionId, deps.config.AVAIL_SECRET_KEY);
    if (conn?.status === 'expired') {
      // The grant we were just given is refused: nothing usable to keep.
      if (created) await replicatedWrite(deps, userId, (trx, stamp) => calendarsRepo.deleteConnectionCascade(trx, conn, stamp));
      deps.logger.warn({ connectionId, provider }, 'oauth connect: first sync refused the new grant');
      return { ok: false, reason: 'sync_refused' };
    }
    // Rate limit or an outage: the connection stays (shows the error); back-off and backup sync retry.
  }
  await openMissingChannels(deps, connectionId);
  deps.logger.info({ connectionId, provider, created, firstSyncOk: outcome.ok }, 'oauth calendar connected');
  return { ok: true, connectionId, created };
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The small page the consent popup ends on: one sentence, a same-origin `postMessage` of
 * `{ type: 'avail-oauth', provider, ok }` to the opener, and `window.close()` (the opener polls
 * until the popup is closed, then refetches connections). Success: '{Product} connected. You can
 * close this window.'; failure: spec §8 'Failed to connect {Product}. Please try again.'
 * `scriptNonce`: the CSP nonce of this response (http/security-headers.ts allowInlineScriptOnce).
 */
export function callbackPage(provider: OAuthProviderId, ok: boolean, scriptNonce?: string): string {
  const product = OAUTH_PROVIDER_LABELS[provider].product;
  const message = ok ? `${product} connected. You can close this window.` : `Failed to connect ${product}. Please try again.`;
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(ok ? `${product} connected` : `${product} not connected`)}</title>`,
    '<style>body{font-family:system-ui,sans-serif;display:flex;min-height:90vh;align-items:center;justify-content:center;margin:0;color:#1f2937}p{max-width:28rem;text-align:center;font-size:1.05rem}</style>',
    '</head><body>',
    `<p id="message" data-result="${ok ? 'success' : 'failure'}">${esc(message)}</p>`,
    // Tell the opener (same origin only) before closing: web/src/features/settings/oauth-popup.ts.
    `<script${scriptNonce ? ` nonce="${esc(scriptNonce)}"` : ''}>try{if(window.opener)window.opener.postMessage(${JSON.stringify({ type: 'avail-oauth', provider, ok })},window.location.origin)}catch(e){}window.close()</script>`,
    '</body></html>',
  ].join('\n');
}

/**
 * Account deletion, the provider side: for every Google/Microsoft connection of `userId`, stops
 * its push channels and revokes the grant (best effort, each at most BEST_EFFORT_TIMEOUT_MS;
 * failures are logged, never thrown — the account is deleted either way). Cancels their queued
 * syncs. Returns how many OAuth connections were handled.
 */
export async function revokeAllGrants(deps: SyncDeps, userId: string): Promise<number> {
  const conns = (await calendarsRepo.listConnections(deps.db, userId, deps.config.AVAIL_SECRET_KEY)).filter((c) => c.provider === 'google' || c.provider === 'microsoft');
  for (const conn of conns) {
    cancelScheduledSync(deps.db, conn.id);
    await stopChannelsAndRevoke(deps, conn);
  }
  return conns.length;
}
