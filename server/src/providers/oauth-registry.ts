/**
 * Registry of the OAuth calendar providers (Google Calendar, Microsoft Graph): the adapters of
 * `google/` and `microsoft/`, looked up by provider id. Tests (and only tests) replace an adapter
 * through `deps.oauthProviders` (e.g. a small in-memory adapter), so routes, webhooks, sync and jobs
 * never import an adapter directly: they call `oauthProviderFor(deps, id)`.
 */
import type { Config } from '../config.ts';
import { googleProvider } from './google/google.provider.ts';
import { microsoftProvider } from './microsoft/microsoft.provider.ts';
import type { OAuthCalendarProvider, OAuthProviderId } from './oauth-provider.ts';

/** The adapters shipped with the server. */
const oauthProviders: Record<OAuthProviderId, OAuthCalendarProvider> = {
  google: googleProvider,
  microsoft: microsoftProvider,
};

/** Override of the registry carried by deps (tests). */
export interface OAuthProviderDeps {
  oauthProviders?: Partial<Record<OAuthProviderId, OAuthCalendarProvider>>;
}

/** Names used in messages and as the connection name (spec §4, §8). */
export const OAUTH_PROVIDER_LABELS: Record<OAuthProviderId, { connectionName: string; product: string }> = {
  google: { connectionName: 'Google Calendar', product: 'Google Calendar' },
  microsoft: { connectionName: 'Outlook Calendar', product: 'Microsoft Outlook Calendar' },
};

/** Reason shown when no adapter is registered at all. */
export function notConfiguredReason(id: OAuthProviderId): string {
  return `${OAUTH_PROVIDER_LABELS[id].product} is not configured on this server.`;
}

/** True for 'google' and 'microsoft'. */
export function isOAuthProvider(id: string): id is OAuthProviderId {
  return id === 'google' || id === 'microsoft';
}

/** The adapter of `id` (deps override first), or undefined when none is registered. */
export function oauthProviderFor(deps: OAuthProviderDeps, id: OAuthProviderId): OAuthCalendarProvider | undefined {
  return deps.oauthProviders?.[id] ?? oauthProviders[id];
}

/**
 * Why `id` cannot be used on this server, or null when it can: the adapter's own
 * `unavailableReason(config)` (client id/secret unset), or the generic text without an adapter.
 */
export function oauthUnavailableReason(deps: OAuthProviderDeps & { config: Config }, id: OAuthProviderId): string | null {
  const adapter = oauthProviderFor(deps, id);
  if (!adapter) return notConfiguredReason(id);
  return adapter.unavailableReason(deps.config);
}
