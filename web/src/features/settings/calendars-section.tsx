/**
 * Settings → My Calendars (spec §2 Settings, §4 connection status / Sync Now, §8 calendar messages).
 * Connections of every provider, Sync Now, Disconnect with confirmation, Google and Microsoft
 * connect through an OAuth popup (oauth-popup.ts), and connect forms for an ICS feed, CalDAV and
 * Apple iCloud. A provider the server reports unavailable (`GET /me/calendar/providers`) shows the
 * server's reason and a disabled Connect.
 */
import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { api, ApiError, serverMessage } from '@avail/shared/api/api-client.ts';
import { appleConnectSchema, caldavConnectSchema, icsConnectSchema, APPLE_ERROR_ALERT_MS, APPLE_SUCCESS_ALERT_MS, SYNC_COMPLETE_MS } from '@avail/shared';
import { invalidate, SYNC_COMPLETED_EVENT } from '../../data/data-store.ts';
import { useLocalConnections, useLocalData, type ConnectionView } from '../../data/local-data.tsx';
import { useAlert } from '../../components/ui/alert.tsx';
import { ConfirmDialog, Dialog } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { bridge } from '../../platform/platform.ts';
import { appleError, PROVIDER_LABEL, statusText } from './connection-status.ts';
import { BusyRulesEditor } from './busy-rules-editor.tsx';
import {
  connectFailureText,
  fetchProviders,
  OAUTH_LABEL,
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

function firstIssue(r: { success: boolean; error?: { issues: { message: string }[] } }): string {
  return r.success ? '' : (r.error?.issues[0]?.message ?? 'Please check your input.');
}

function errorText(e: unknown, fallback: string): string {
  if (e instanceof ApiError) {
    const f = e.fieldErrors;
    return serverMessage(e) || (f ? Object.values(f).join(' ') : '') || fallback;
  }
  return fallback;
}

function IcsForm({ onClose, onDone }: { onClose: () => void; onDone: (msg: string) => void }) {
  const [url, setUrl] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const r = icsConnectSchema.safeParse({ url });
    if (!r.success) return setError(firstIssue(r));
    setBusy(true);
    setError('');
    try {
      await api.connectIcs(r.data.url);
      onDone('Calendar feed connected successfully!');
    } catch (err) {
      setError(errorText(err, 'Failed to connect the calendar feed. Please try again.'));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title="Connect an ICS feed" description="Paste the secret iCal address of your calendar (https:// or webcal://).">
      <form className="form" onSubmit={submit} noValidate>
        {error && <p className="field-error" role="alert">{error}</p>}
        <div className="field">
          <label htmlFor="ics-url">Calendar feed URL</label>
          <input id="ics-url" type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://example.com/calendar.ics" autoFocus />
        </div>
        <ConnectFormFooter busy={busy} label="Connect feed" onCancel={onClose} />
      </form>
    </Dialog>
  );
}

function CaldavForm({ onClose, onDone }: { onClose: () => void; onDone: (msg: string) => void }) {
  const [form, setForm] = useState({ server_url: '', username: '', password: '' });
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const r = caldavConnectSchema.safeParse(form);
    if (!r.success) return setError(firstIssue(r));
    setBusy(true);
    setError('');
    try {
      await api.connectCaldav(r.data);
      onDone('CalDAV calendar connected successfully!');
    } catch (err) {
      setError(errorText(err, 'Failed to connect CalDAV calendar. Please try again.'));
    } finally {
      setBusy(false);
    }
  }
  const set = (k: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => setForm((f) => ({ ...f, [k]: e.target.value }));
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title="Connect a CalDAV server" description="Avail only reads your calendars.">
      <form className="form" onSubmit={submit} noValidate>
        {error && <p className="field-error" role="alert">{error}</p>}
        <div className="field">
          <label htmlFor="caldav-url">Server URL</label>
          <input id="caldav-url" type="url" value={form.server_url} onChange={set('server_url')} placeholder="https://caldav.example.com/" autoFocus />
        </div>
        <div className="field">
          <label htmlFor="caldav-username">Username</label>
          <input id="caldav-username" autoComplete="username" value={form.username} onChange={set('username')} />
        </div>
        <div className="field">
          <label htmlFor="caldav-password">Password</label>
          <input id="caldav-password" type="password" autoComplete="current-password" value={form.password} onChange={set('password')} />
        </div>
        <ConnectFormFooter busy={busy} label="Connect" onCancel={onClose} />
      </form>
    </Dialog>
  );
}

function AppleForm({ onClose, onDone, onHelp }: { onClose: () => void; onDone: () => void; onHelp: () => void }) {
  const [appleId, setAppleId] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const alert = useAlert();
  async function submit(e: FormEvent) {
    e.preventDefault();
    const r = appleConnectSchema.safeParse({ apple_id: appleId, app_specific_password: password });
    if (!r.success) {
      alert.show('error', 'Please enter both Apple ID and app-specific password.', APPLE_ERROR_ALERT_MS);
      return;
    }
    setBusy(true);
    try {
      await api.connectApple(r.data);
      onDone();
    } catch (err) {
      alert.show('error', appleError(err), APPLE_ERROR_ALERT_MS);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title="Connect Apple iCloud Calendar" description="Use an app-specific password, not your Apple ID password.">
      <form className="form" onSubmit={submit} noValidate>
        {alert.node}
        <div className="field">
          <label htmlFor="apple-id">Apple ID</label>
          <input id="apple-id" type="email" autoComplete="username" value={appleId} onChange={(e) => setAppleId(e.target.value)} placeholder="you@icloud.com" autoFocus />
        </div>
        <div className="field">
          <label htmlFor="apple-password">App-specific password</label>
          <input id="apple-password" type="password" autoComplete="off" value={password} onChange={(e) => setPassword(e.target.value)} placeholder="xxxx-xxxx-xxxx-xxxx" />
        </div>
        <button type="button" className="btn btn-link small" onClick={onHelp}>
          How do I create an app-specific password?
        </button>
        <ConnectFormFooter busy={busy} label="Connect Apple Calendar" onCancel={onClose} />
      </form>
    </Dialog>
  );
}

function AppleHelp({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Create an app-specific password" description="Apple requires an app-specific password for third-party calendar access.">
      <ol className="help-steps">
        <li>
          Sign in at{' '}
          <a href="https://appleid.apple.com" target="_blank" rel="noreferrer">
            appleid.apple.com
          </a>{' '}
          with your Apple ID.
        </li>
        <li>Open the &ldquo;Sign-In and Security&rdquo; section.</li>
        <li>Select &ldquo;App-Specific Passwords&rdquo;.</li>
        <li>Click &ldquo;Generate an app-specific password&rdquo; (or the + button).</li>
        <li>Enter a label such as &ldquo;Avail&rdquo; and confirm with your Apple ID password if asked.</li>
        <li>Copy the generated password (xxxx-xxxx-xxxx-xxxx) and paste it into the Avail connect form.</li>
      </ol>
    </Dialog>
  );
}

const PROVIDER_LETTER = { google: 'G', microsoft: 'M', apple: 'A', caldav: 'C', ics: 'I' } as const;

/** One card of "Connect a calendar": provider mark, name, one line of help, and its action. */
function ProviderCard({
  kind,
  name,
  description,
  descriptionId,
  children,
}: {
  kind: keyof typeof PROVIDER_LETTER;
  name: string;
  description: ReactNode;
  descriptionId?: string;
  children: ReactNode;
}) {
  return (
    <li className="provider-card" data-provider={kind}>
      <span className={`provider-icon provider-${kind}`} aria-hidden="true">
        {PROVIDER_LETTER[kind]}
      </span>
      <div>
        <p className="provider-name">{name}</p>
        <p className="muted small" id={descriptionId}>
          {description}
        </p>
      </div>
      {children}
    </li>
  );
}

function ConnectButton({ onClick, unavailableReason, describedBy }: { onClick: () => void; unavailableReason?: string | null; describedBy?: string }) {
  return (
    <button
      type="button"
      className="btn btn-primary btn-sm"
      onClick={onClick}
      disabled={Boolean(unavailableReason)}
      aria-describedby={unavailableReason ? describedBy : undefined}
    >
      Connect
    </button>
  );
}

/**
 * Google / Microsoft: Connect opens the provider's consent page in a popup. Unavailable on this
 * server → the server's reason and a disabled Connect; connected → the account; expired or in
 * error → Reconnect (the same flow).
 */
function OAuthProviderCard({
  provider,
  connection,
  unavailableReason,
  pending,
  busy,
  onConnect,
}: {
  provider: OAuthProvider;
  connection: ConnectionView | null;
  unavailableReason: string | null;
  pending: boolean;
  busy: boolean;
  onConnect: () => void;
}) {
  const noteId = `provider-${provider}-note`;
  const name = PROVIDER_LABEL[provider] ?? provider;
  let note: ReactNode;
  if (pending) note = <span role="status">Finish signing in to {OAUTH_LABEL[provider]} in the pop-up window…</span>;
  else if (connection?.status === 'active') {
    note = (
      <span className="provider-connected">
        Connected{connection.account ? <> as <strong className="provider-account">{connection.account}</strong></> : null}
      </span>
    );
  } else if (unavailableReason) note = <span className="provider-unavailable">Unavailable: {unavailableReason}</span>;
  else if (connection) {
    note = (
      <>
        <span className="provider-problem">{statusText(connection.status)}</span>: reconnect to resume syncing.
        {connection.account ? <span className="provider-account">{connection.account}</span> : null}
      </>
    );
  }
  else note = provider === 'google' ? 'Read-only access to your Google calendars.' : 'Outlook.com and Microsoft 365 calendars, read-only.';
  const label = pending ? 'Connecting...' : connection && connection.status !== 'active' ? 'Reconnect' : 'Connect';
  return (
    <ProviderCard kind={provider} name={name} description={note} descriptionId={noteId}>
      {connection?.status === 'active' ? null : (
        <button
          type="button"
          className="btn btn-primary btn-sm"
          onClick={onConnect}
          disabled={pending || busy || Boolean(unavailableReason)}
          aria-describedby={noteId}
          aria-label={`${label} ${name}`}
        >
          {pending ? (
            <>
              <Spinner size={14} /> Connecting...
            </>
          ) : (
            label
          )}
        </button>
      )}
    </ProviderCard>
  );
}

/** Cancel + submit row of the connect dialogs; the submit reads 'Connecting...' while busy. */
function ConnectFormFooter({ busy, label, onCancel }: { busy: boolean; label: string; onCancel: () => void }) {
  return (
    <div className="dialog-footer">
      <button type="button" className="btn btn-secondary" onClick={onCancel}>Cancel</button>
      <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? 'Connecting...' : label}</button>
    </div>
  );
}
