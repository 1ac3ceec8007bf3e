/** Settings → My Calendars: the list of connections with their status, sync time, errors and busy rules (spec §2, §4). */
import type { ConnectionView } from '../../data/local-data.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { BusyRulesEditor } from './busy-rules-editor.tsx';
import { ConnectionCalendars } from './connection-calendars.tsx';
import { ConnectionActions, type ConnectionActionHandlers } from './connection-actions.tsx';
import { PROVIDER_LABEL, statusText } from './connection-status.ts';

function formatWhen(iso: string | null): string {
  if (!iso) return 'Never';
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return 'Never';
  return new Date(t).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A spinner while `connections` is null, the empty text, or one row per connection (`handlers`: its buttons). */
export function ConnectionList({ connections, ...handlers }: { connections: ConnectionView[] | null } & ConnectionActionHandlers) {
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
        <ConnectionRow key={String(c.id)} c={c} handlers={handlers} />
      ))}
    </ul>
  );
}

/**
 * One connection: provider, name, status, account, calendars included, last sync, last error,
 * warnings, busy rules, and its buttons (connection-actions.tsx: Disconnect, and for a broken
 * connection the fix — issue 23 widens spec T-31 so error/expired ones can be removed and fixed).
 */
function ConnectionRow({ c, handlers }: { c: ConnectionView; handlers: ConnectionActionHandlers }) {
  const nameId = `connection-name-${String(c.id)}`;
  return (
    <li className="connection-row" data-testid="connection-row">
      <div className="connection-main">
        <span className={`provider-icon provider-${c.provider}`} aria-hidden="true">
          {(PROVIDER_LABEL[c.provider] ?? c.provider)[0]}
        </span>
        <div className="connection-text">
          <p className="connection-name">
            <span id={nameId}>{c.name || PROVIDER_LABEL[c.provider] || c.provider}</span>{' '}
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
          {c.last_error && (
            <p className="field-error small connection-error" data-testid="connection-error">
              Last error: {c.last_error}
            </p>
          )}
          {!c.last_error && c.status === 'expired' && (
            <p className="field-error small connection-error" data-testid="connection-error">
              The sign-in expired: reconnect to resume syncing.
            </p>
          )}
          {c.warnings?.map((w) => (
            <p key={w} className="warning-text small">
              {w}
            </p>
          ))}
          <ConnectionCalendars
            connectionId={String(c.id)}
            connectionName={c.name || PROVIDER_LABEL[c.provider] || c.provider}
            total={c.calendars_count}
            included={c.included_calendars_count}
          />
          <BusyRulesEditor connectionId={String(c.id)} connectionName={c.name || PROVIDER_LABEL[c.provider] || c.provider} initial={c.busy_rules} />
        </div>
      </div>
      <ConnectionActions c={c} describedBy={nameId} {...handlers} />
    </li>
  );
}
