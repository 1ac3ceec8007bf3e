/**
 * Settings → My Calendars (spec §2 Settings, §4 connection status / Sync Now, §8 calendar messages).
 * Connections of every provider, Sync Now, Disconnect with confirmation, Google and Microsoft
 * connect through an OAuth popup (oauth-popup.ts), and connect forms for an ICS feed, CalDAV and
 * Apple iCloud (connect-forms.tsx; the provider cards in provider-cards.tsx). A provider the server reports unavailable (`GET /me/calendar/providers`) shows the
 * server's reason and a disabled Connect.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, serverMessage } from '@avail/shared/api/api-client.ts';
import { APPLE_SUCCESS_ALERT_MS, SYNC_COMPLETE_MS } from '@avail/shared';
import { invalidate, SYNC_COMPLETED_EVENT } from '../../data/data-store.ts';
import { useLocalConnections, useLocalData, type ConnectionView } from '../../data/local-data.tsx';
import { useAlert } from '../../components/ui/alert.tsx';
import { ConfirmDialog } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { bridge } from '../../platform/platform.ts';
import { PROVIDER_LABEL, statusText } from './connection-status.ts';
import { BusyRulesEditor } from './busy-rules-editor.tsx';
import { AppleForm, AppleHelp, CaldavForm, IcsForm } from './connect-forms.tsx';
import { ConnectButton, OAuthProviderCard, ProviderCard } from './provider-cards.tsx';
import {
  connectFailureText,
  fetchProviders,
  POPUP_BLOCKED_TEXT,
  BROWSER_CONSENT_TIMEOUT_MS,
  finishInBrowserText,
  startBrowserConsentConnect,
  startOAuthConnect,
  type OAuthFlow,
  type OAuthOutcome,
  type OAuthProvider,
  type ProvidersReport,
  type ReportedProvider,
} from './oauth-popup.ts';

function formatWhen(iso: string | null): string {
  if (!iso) return 'Never';
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return 'Never';
  return new Date(t).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function CalendarsSection() {
  // The list comes from the device database once it has synced (live: the server pushes changes),
  // from REST until then; connect, disconnect and Sync Now are REST calls either way.
  const local = useLocalData();
  const localConns = useLocalConnections(local.data, local.synced);
  const fromDevice = Boolean(local.data && local.synced && localConns);
  const replication = local.data?.replication;
  const [restConnections, setConnections] = useState<ConnectionView[] | null>(null);
  const [providers, setProviders] = useState<ProvidersReport>({});
  const [oauthPending, setOauthPending] = useState<OAuthProvider | null>(null);
  const oauthFlow = useRef<OAuthFlow | null>(null);
  useEffect(() => () => oauthFlow.current?.cancel(), []);
  const connections = fromDevice ? (localConns ?? null) : restConnections;
  const [loadError, setLoadError] = useState('');
  const [syncState, setSyncState] = useState<'idle' | 'loading' | 'done'>('idle');
  const [toDisconnect, setToDisconnect] = useState<ConnectionView | null>(null);
  const [connectOpen, setConnectOpen] = useState<null | 'ics' | 'caldav' | 'apple'>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const alert = useAlert();
  const syncTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(syncTimer.current), []);

  const refresh = useCallback(async () => {
    invalidate('connections');
    if (fromDevice && replication) {
      replication.reconnect(); // pulls the change at once (the stream brings it too)
      return;
    }
    try {
      const { connections: list } = await api.connections();
      setConnections(list ?? []);
      setLoadError('');
      invalidate('connections');
    } catch (e) {
      setConnections((c) => c ?? []);
      setLoadError(serverMessage(e) ?? 'Failed to load calendar connections');
    }
  }, [fromDevice, replication]);
  const refreshRef = useRef(refresh);
  refreshRef.current = refresh;
  const loadedOnce = useRef(false);
  useEffect(() => {
    if (fromDevice || loadedOnce.current) return;
    loadedOnce.current = true;
    void refresh();
  }, [refresh, fromDevice]);

  // Which providers this server can connect (Google/Microsoft need OAuth credentials). A server
  // without the endpoint, or a failed call, leaves every provider available.
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
  const unavailable = (p: ReportedProvider): string | null => {
    const v = providers[p];
    return v && !v.available ? (v.reason ?? 'Not available on this server.') : null;
  };

  /** Click handler of Google/Microsoft Connect: the popup opens in this very call (popup blockers). */
  function connectOAuth(provider: OAuthProvider) {
    if (oauthFlow.current && oauthPending) {
      oauthFlow.current.focus();
      return;
    }
    alert.clear();
    setOauthPending(provider);
    const onDone = (outcome: OAuthOutcome) => {
      oauthFlow.current = null;
      setOauthPending(null);
      alert.clear(); // the "finish in your browser" note, when shown
      if (outcome.kind === 'closed') {
        // The callback page closed itself (or the user closed the window) 1 s ago: refetch the
        // connections (a pull of the device database, or REST before it has synced).
        void refreshRef.current();
        if (outcome.ok === false) alert.show('error', connectFailureText(provider));
      } else if (outcome.kind === 'blocked') {
        alert.show('error', POPUP_BLOCKED_TEXT);
      } else {
        if (outcome.unavailableReason) {
          const reason = outcome.unavailableReason;
          setProviders((p) => ({ ...p, [provider]: { available: false, reason } }));
        }
        alert.show('error', connectFailureText(provider));
      }
    };
    if (bridge.capabilities().consentInSystemBrowser) {
      // Desktop app: the consent page opens in the owner's browser; the connection shows up here.
      alert.show('info', finishInBrowserText(provider), BROWSER_CONSENT_TIMEOUT_MS);
      oauthFlow.current = startBrowserConsentConnect(provider, onDone, {
        openExternal: (url) => bridge.openExternal(url),
        listConnections: async () => (await api.connections()).connections ?? [],
        setInterval: (fn, ms) => window.setInterval(fn, ms),
        clearInterval: (id) => window.clearInterval(id as number),
        setTimeout: (fn, ms) => window.setTimeout(fn, ms),
        clearTimeout: (id) => window.clearTimeout(id as number),
      });
    } else {
      oauthFlow.current = startOAuthConnect(provider, onDone);
    }
  }

  async function syncNow() {
    setSyncState('loading');
    try {
      await api.sync();
      await refresh();
      setSyncState('done');
      window.dispatchEvent(new Event(SYNC_COMPLETED_EVENT));
      clearTimeout(syncTimer.current);
      syncTimer.current = setTimeout(() => setSyncState('idle'), SYNC_COMPLETE_MS);
    } catch {
      setSyncState('idle');
      alert.show('error', 'Failed to sync calendars. Please try again.');
    }
  }

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

  const list = connections ?? [];
  const has = (p: string) => list.some((c) => c.provider === p);

  return (
    <section className="card" id="calendars" tabIndex={-1} aria-labelledby="calendars-title">
      <div className="card-header wrap">
        <div>
          <h2 id="calendars-title" className="card-title">
            My Calendars
          </h2>
          <p className="muted small">Read-only: Avail reads busy times and never changes your calendars.</p>
        </div>
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => void syncNow()} disabled={syncState === 'loading' || list.length === 0}>
          {syncState === 'loading' ? (
            <>
              <Spinner size={14} /> Syncing...
            </>
          ) : syncState === 'done' ? (
            '✓ Sync Complete'
          ) : (
            'Sync Now'
          )}
        </button>
      </div>
      {alert.node}
      {loadError && !fromDevice && <p className="field-error">{loadError}</p>}

      {connections === null ? (
        <div className="center-block">
          <Spinner size={22} label="Loading calendars" />
        </div>
      ) : list.length === 0 ? (
        <p className="muted empty-inline">No calendars connected yet. Connect one below so busy times are hidden from your public page.</p>
      ) : (
        <ul className="connection-list">
          {list.map((c) => (
            <li key={String(c.id)} className="connection-row" data-testid="connection-row">
              <div className="connection-main">
                <span className={`provider-icon provider-${c.provider}`} aria-hidden="true">
                  {(PROVIDER_LABEL[c.provider] ?? c.provider)[0]}
                </span>
                <div className="connection-text">
                  <p className="connection-name">
                    {c.name || PROVIDER_LABEL[c.provider] || c.provider}{' '}
                    <span className={`status status-${c.status === 'active' ? 'ok' : c.status === 'expired' || c.status === 'error' ? 'bad' : 'unknown'}`}>
                      {statusText(c.status)}
                    </span>
                  </p>
                  <p className="muted small">
                    {PROVIDER_LABEL[c.provider] ?? c.provider}
                    {c.account && c.account !== c.name ? <> · <span className="connection-account">{c.account}</span></> : null} · {c.included_calendars_count} of{' '}
                    {c.calendars_count} calendars included · Last synced:{' '}
                    {formatWhen(c.last_synced_at)}
                  </p>
                  {c.last_error && <p className="field-error small">Last error: {c.last_error}</p>}
                  {c.warnings?.map((w) => (
                    <p key={w} className="warning-text small">
                      {w}
                    </p>
                  ))}
                  <BusyRulesEditor connectionId={String(c.id)} connectionName={c.name || PROVIDER_LABEL[c.provider] || c.provider} initial={c.busy_rules} />
                </div>
              </div>
              {c.status === 'active' && (
                <button type="button" className="btn btn-danger-ghost btn-sm" onClick={() => setToDisconnect(c)}>
                  Disconnect
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <p className="muted small">Calendar selection is coming soon — all calendars of a connection are included.</p>

      <h3 className="subhead">Connect a calendar</h3>
      <ul className="provider-grid">
        {(['google', 'microsoft'] as const).map((p) => (
          <OAuthProviderCard
            key={p}
            provider={p}
            connection={list.find((c) => c.provider === p) ?? null}
            unavailableReason={unavailable(p)}
            pending={oauthPending === p}
            busy={oauthPending !== null && oauthPending !== p}
            onConnect={() => connectOAuth(p)}
          />
        ))}
        <ProviderCard
          kind="apple"
          name="Apple iCloud"
          descriptionId="provider-apple-note"
          description={
            <>
              {unavailable('apple') ? <span className="provider-unavailable">Unavailable: {unavailable('apple')} </span> : null}
              {has('apple') ? 'Connected. ' : ''}
              <button type="button" className="btn btn-link small" onClick={() => setHelpOpen(true)}>
                How do I get an app-specific password?
              </button>
            </>
          }
        >
          <ConnectButton onClick={() => setConnectOpen('apple')} unavailableReason={unavailable('apple')} describedBy="provider-apple-note" />
        </ProviderCard>
        <ProviderCard kind="caldav" name="CalDAV" description="Fastmail, Nextcloud, Radicale and other CalDAV servers.">
          <ConnectButton onClick={() => setConnectOpen('caldav')} />
        </ProviderCard>
        <ProviderCard kind="ics" name="ICS feed URL" description="Any calendar published as an iCal (.ics) link.">
          <ConnectButton onClick={() => setConnectOpen('ics')} />
        </ProviderCard>
      </ul>

      {connectOpen === 'ics' && (
        <IcsForm onClose={() => setConnectOpen(null)} onDone={(msg) => { setConnectOpen(null); alert.show('success', msg); void refresh(); }} />
      )}
      {connectOpen === 'caldav' && (
        <CaldavForm onClose={() => setConnectOpen(null)} onDone={(msg) => { setConnectOpen(null); alert.show('success', msg); void refresh(); }} />
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
