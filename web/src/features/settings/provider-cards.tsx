/**
 * Settings → My Calendars: the provider cards of "Connect a calendar" — a card per provider with its
 * Connect button (disabled with the server's reason when the provider is unavailable), and the
 * Google/Microsoft card that shows its connection's state.
 */
import type { ReactNode } from 'react';
import type { ConnectionView } from '../../data/local-data.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { PROVIDER_LABEL, statusText } from './connection-status.ts';
import { OAUTH_LABEL, type OAuthProvider, type ReportedProvider } from './oauth-popup.ts';

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

/**
 * "Connect a calendar": Google and Microsoft (OAuth: `oauth.connect`, `oauth.pending` while a
 * consent is open), Apple iCloud, CalDAV and an ICS feed (`onOpen` opens their form; `onHelp` the
 * app-specific password help). `unavailable(provider)`: the server's reason, or null.
 */
export function ProviderGrid({
  connections,
  unavailable,
  oauth,
  onOpen,
  onHelp,
}: {
  connections: ConnectionView[];
  unavailable: (provider: ReportedProvider) => string | null;
  oauth: { pending: OAuthProvider | null; connect(provider: OAuthProvider): void };
  onOpen: (form: 'ics' | 'caldav' | 'apple') => void;
  onHelp: () => void;
}) {
  const has = (p: string) => connections.some((c) => c.provider === p);
  return (
    <ul className="provider-grid">
      {(['google', 'microsoft'] as const).map((p) => (
        <OAuthProviderCard
          key={p}
          provider={p}
          connection={connections.find((c) => c.provider === p) ?? null}
          unavailableReason={unavailable(p)}
          pending={oauth.pending === p}
          busy={oauth.pending !== null && oauth.pending !== p}
          onConnect={() => oauth.connect(p)}
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
            <button type="button" className="btn btn-link small" onClick={onHelp}>
              How do I get an app-specific password?
            </button>
          </>
        }
      >
        <ConnectButton onClick={() => onOpen('apple')} unavailableReason={unavailable('apple')} describedBy="provider-apple-note" />
      </ProviderCard>
      <ProviderCard kind="caldav" name="CalDAV" description="Fastmail, Nextcloud, Radicale and other CalDAV servers.">
        <ConnectButton onClick={() => onOpen('caldav')} />
      </ProviderCard>
      <ProviderCard kind="ics" name="ICS feed URL" description="Any calendar published as an iCal (.ics) link.">
        <ConnectButton onClick={() => onOpen('ics')} />
      </ProviderCard>
    </ul>
  );
}
