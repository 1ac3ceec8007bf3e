/**
 * Which calendar providers this server can connect (GET /me/calendar/providers, fetchProviders):
 * Google and Microsoft need OAuth credentials, Apple may be switched off. A server without the
 * endpoint, or a failed call, leaves every provider available.
 */
import { useCallback, useEffect, useState } from 'react';
import { fetchProviders, type OAuthProvider, type ProvidersReport, type ReportedProvider } from './oauth-popup.ts';

/**
 * `unavailable(p)`: the server's reason `p` cannot be connected (or 'Not available on this
 * server.'), null when it can; `markUnavailable(p, reason)`: a connect attempt learned it cannot.
 */
export function useProviders(): { unavailable(p: ReportedProvider): string | null; markUnavailable(p: OAuthProvider, reason: string): void } {
  const [providers, setProviders] = useState<ProvidersReport>({});

  useEffect(() => {
    let live = true;
    fetchProviders().then(
      (p) => live && setProviders(p),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);

  const markUnavailable = useCallback((provider: OAuthProvider, reason: string) => setProviders((p) => ({ ...p, [provider]: { available: false, reason } })), []);
  const unavailable = (p: ReportedProvider): string | null => {
    const v = providers[p];
    return v && !v.available ? (v.reason ?? 'Not available on this server.') : null;
  };
  return { unavailable, markUnavailable };
}
