/** Settings → My Calendars: the list of connections with their status, sync time, errors and busy rules (spec §2, §4). */
import type { ConnectionView } from '../../data/local-data.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { BusyRulesEditor } from './busy-rules-editor.tsx';
import { PROVIDER_LABEL, statusText } from './connection-status.ts';

function formatWhen(iso: string | null): string {
  if (!iso) return 'Never';
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return 'Never';
  return new Date(t).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A spinner while `connections` is null, the empty text, or one row per connection. */
export function ConnectionList({ connections, onDisconnect }: { connections: ConnectionView[] | null; onDisconnect: (c: ConnectionView) => void }) {
  if (connections === null) {
    return (
      <div className="center-block">
        <Spinner size={22} label="Loading calendars" />
      </div>
    );
  }
  if (connections.length === 0) {
    return <p className="muted empty-inline">No calendars connected yet. Connect one below so busy times are hidden from your public page.</p>;
  }
  return (
    <ul className="connection-list">
      {connections.map((c) => (
        <ConnectionRow key={String(c.id)} c={c} onDisconnect={onDisconnect} />
      ))}
    </ul>
  );
}

/** One connection: provider, name, status, account, calendars included, last sync, last error, warnings, busy rules, Disconnect. */
function ConnectionRow({ c, onDisconnect }: { c: ConnectionView; onDisconnect: (c: ConnectionView) => void }) {
  return (
    <li className="connection-row" data-testid="connection-row">
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
        <button type="button" className="btn btn-danger-ghost btn-sm" onClick={() => onDisconnect(c)}>
          Disconnect
        </button>
      )}
    </li>
  );
}
