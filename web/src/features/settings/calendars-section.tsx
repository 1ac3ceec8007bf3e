/**
 * Settings → My Calendars (spec §2 Settings, §4 connection status / Sync Now, §8 calendar messages).
 * The seams: the connections (use-connections.ts: device database or REST), their list
 * (connection-list.tsx), Sync Now (sync-now-button.tsx), Google and Microsoft connect through an
 * OAuth popup (use-oauth-connect.ts, oauth-popup.ts), and connect forms for an ICS feed, CalDAV and
 * Apple iCloud (connect-forms.tsx; the provider cards in provider-cards.tsx). This file lays them
 * out and owns Disconnect with its confirmation. A provider the server reports unavailable
 * (`GET /me/calendar/providers`, use-providers.ts) shows the server's reason and a disabled Connect.
 */
import { useState } from 'react';
import { api } from '@avail/shared/api/api-client.ts';
import { APPLE_SUCCESS_ALERT_MS } from '@avail/shared';
import type { ConnectionView } from '../../data/local-data.tsx';
import { useAlert } from '../../components/ui/alert.tsx';
import { ConfirmDialog } from '../../components/ui/dialog.tsx';
import { PROVIDER_LABEL } from './connection-status.ts';
import { AppleForm, AppleHelp, CaldavForm, IcsForm } from './connect-forms.tsx';
import { ConnectionList } from './connection-list.tsx';
import { ProviderGrid } from './provider-cards.tsx';
import { SyncFailedMessage, SyncNowButton, SYNC_FAILED_TEXT } from './sync-now-button.tsx';
import { connectionSynced, syncOutcome } from './sync-result.ts';
import { useConnections } from './use-connections.ts';
import { useOAuthConnect } from './use-oauth-connect.ts';
import { useProviders } from './use-providers.ts';

export function CalendarsSection() {
  const { connections, fromDevice, loadError, refresh, refreshRef } = useConnections();
  const { unavailable, markUnavailable } = useProviders();
  const [toDisconnect, setToDisconnect] = useState<ConnectionView | null>(null);
  const [connectOpen, setConnectOpen] = useState<null | 'ics' | 'caldav' | 'apple'>(null);
  // A CalDAV connection being reconnected (its form replaces it; issue 23 item 1).
  const [replacing, setReplacing] = useState<ConnectionView | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const alert = useAlert();
  const oauth = useOAuthConnect(alert, () => void refreshRef.current(), markUnavailable);

  async function disconnect(c: ConnectionView) {
    try {
      if (c.provider === 'google' || c.provider === 'microsoft' || c.provider === 'apple') await api.disconnectProvider(c.provider);
      else await api.disconnect(c.id);
      alert.show('success', `${PROVIDER_LABEL[c.provider] ?? c.provider} disconnected.`);
      await refresh();
    } catch {
      alert.show('error', `Failed to disconnect ${PROVIDER_LABEL[c.provider] ?? 'calendar'}. Please try again.`);
    }
  }

  /** A broken connection's "Try again" (issue 23 item 1): Sync Now, then this connection's outcome. */
  async function retry(c: ConnectionView) {
    const label = c.name || PROVIDER_LABEL[c.provider] || c.provider;
    try {
      const outcome = syncOutcome(await api.sync());
      await refresh().catch(() => undefined);
      // This connection's own outcome; another calendar's failure shows in its own row.
      const failure = outcome.failures.find((f) => f.connectionId === String(c.id));
      if (connectionSynced(outcome, String(c.id))) alert.show('success', `${label} synced.`);
      else alert.show('error', <SyncFailedMessage failures={failure ? [failure] : outcome.failures} />);
    } catch {
      alert.show('error', SYNC_FAILED_TEXT);
    }
  }

  /** An expired connection's Reconnect: the provider's own connect flow again. */
  function reconnect(c: ConnectionView) {
    if (c.provider === 'google' || c.provider === 'microsoft') oauth.connect(c.provider);
    else if (c.provider === 'apple') setConnectOpen('apple');
    else if (c.provider === 'caldav') {
      setReplacing(c);
      setConnectOpen('caldav');
    } else void retry(c);
  }

  const list = connections ?? [];

  return (
    <section className="card" id="calendars" tabIndex={-1} aria-labelledby="calendars-title">
      <div className="card-header wrap">
        <div>
          <h2 id="calendars-title" className="card-title">
            My Calendars
          </h2>
          <p className="muted small">Read-only: Avail reads busy times and never changes your calendars.</p>
        </div>
        <SyncNowButton disabled={list.length === 0} refresh={refresh} alert={alert} />
      </div>
      {alert.node}
      {loadError && !fromDevice && <p className="field-error">{loadError}</p>}

      <ConnectionList connections={connections} onDisconnect={setToDisconnect} onRetry={retry} onReconnect={reconnect} />
      {list.length > 0 && (
        <p className="muted small">
          Holidays, birthdays and other people&rsquo;s calendars start switched off: open a connection&rsquo;s Calendars to choose which ones make you busy.
        </p>
      )}

      <h3 className="subhead">Connect a calendar</h3>
      <ProviderGrid connections={list} unavailable={unavailable} oauth={oauth} onOpen={setConnectOpen} onHelp={() => setHelpOpen(true)} />

      {connectOpen === 'ics' && (
        <IcsForm onClose={() => setConnectOpen(null)} onDone={(msg) => { setConnectOpen(null); alert.show('success', msg); void refresh(); }} />
      )}
      {connectOpen === 'caldav' && (
        <CaldavForm
          replacing={replacing}
          onClose={() => { setConnectOpen(null); setReplacing(null); }}
          onDone={(msg) => { setConnectOpen(null); setReplacing(null); alert.show('success', msg); void refresh(); }}
        />
      )}
      {connectOpen === 'apple' && (
        <AppleForm
          onClose={() => setConnectOpen(null)}
          onHelp={() => setHelpOpen(true)}
          onDone={() => {
            setConnectOpen(null);
            alert.show('success', 'Apple Calendar connected successfully!', APPLE_SUCCESS_ALERT_MS);
            void refresh();
          }}
        />
      )}
      <AppleHelp open={helpOpen} onOpenChange={setHelpOpen} />
      <ConfirmDialog
        open={toDisconnect !== null}
        onOpenChange={(o) => !o && setToDisconnect(null)}
        title={`Disconnect ${toDisconnect ? (toDisconnect.name || PROVIDER_LABEL[toDisconnect.provider]) : ''}?`}
        message="Avail will stop reading this calendar and its cached events will be removed. Your public page will no longer hide these busy times."
        confirmLabel="Disconnect"
        danger
        onConfirm={() => toDisconnect && void disconnect(toDisconnect)}
      />
    </section>
  );
}
