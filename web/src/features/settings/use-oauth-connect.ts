/**
 * Google/Microsoft Connect for Settings → My Calendars: the OAuth popup (oauth-popup.ts), or in
 * the desktop app the owner's system browser, and what the screen says after each outcome.
 */
import { useEffect, useRef, useState } from 'react';
import { api } from '@avail/shared/api/api-client.ts';
import type { useAlert } from '../../components/ui/alert.tsx';
import { bridge } from '../../platform/platform.ts';
import {
  BROWSER_CONSENT_TIMEOUT_MS,
  connectFailureText,
  finishInBrowserText,
  POPUP_BLOCKED_TEXT,
  startBrowserConsentConnect,
  startOAuthConnect,
  type OAuthFlow,
  type OAuthOutcome,
  type OAuthProvider,
} from './oauth-popup.ts';

/**
 * `connect(provider)` must run inside the click handler (popup blockers). `onClosed` runs when the
 * consent window closed (refetch the connections); `onUnavailable` when the server says the
 * provider cannot be used (its reason). `pending` is the provider whose consent is open.
 */
export function useOAuthConnect(
  alert: ReturnType<typeof useAlert>,
  onClosed: () => void,
  onUnavailable: (provider: OAuthProvider, reason: string) => void,
): { pending: OAuthProvider | null; connect(provider: OAuthProvider): void } {
  const [pending, setPending] = useState<OAuthProvider | null>(null);
  const flow = useRef<OAuthFlow | null>(null);
  useEffect(() => () => flow.current?.cancel(), []);

  function connect(provider: OAuthProvider) {
    if (flow.current && pending) {
      flow.current.focus();
      return;
    }
    alert.clear();
    setPending(provider);
    const onDone = (outcome: OAuthOutcome) => {
      flow.current = null;
      setPending(null);
      alert.clear(); // the "finish in your browser" note, when shown
      if (outcome.kind === 'closed') {
        // The callback page closed itself (or the user closed the window) 1 s ago: refetch the
        // connections (a pull of the device database, or REST before it has synced).
        onClosed();
        if (outcome.ok === false) alert.show('error', connectFailureText(provider));
      } else if (outcome.kind === 'blocked') {
        alert.show('error', POPUP_BLOCKED_TEXT);
      } else {
        if (outcome.unavailableReason) onUnavailable(provider, outcome.unavailableReason);
        alert.show('error', connectFailureText(provider));
      }
    };
    if (bridge.capabilities().consentInSystemBrowser) {
      // Desktop app: the consent page opens in the owner's browser; the connection shows up here.
      alert.show('info', finishInBrowserText(provider), BROWSER_CONSENT_TIMEOUT_MS);
      flow.current = startBrowserConsentConnect(provider, onDone, {
        openExternal: (url) => bridge.openExternal(url),
        listConnections: async () => (await api.connections()).connections ?? [],
        setInterval: (fn, ms) => window.setInterval(fn, ms),
        clearInterval: (id) => window.clearInterval(id as number),
        setTimeout: (fn, ms) => window.setTimeout(fn, ms),
        clearTimeout: (id) => window.clearTimeout(id as number),
      });
    } else {
      flow.current = startOAuthConnect(provider, onDone);
    }
  }

  return { pending, connect };
}
