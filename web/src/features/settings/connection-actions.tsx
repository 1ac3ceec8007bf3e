/**
 * A connection row's buttons (issue 23 item 1): Disconnect on every connection, plus the fix for a
 * broken one — "Try again" for an error, Reconnect for an expired sign-in (connection-status.ts
 * `connectionActions`; this deliberately widens spec T-31, which offered actions on active ones only).
 */
import { useState } from 'react';
import type { ConnectionView } from '../../data/local-data.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { connectionActions } from './connection-status.ts';

export interface ConnectionActionHandlers {
  onDisconnect: (c: ConnectionView) => void;
  /** Syncs again; resolves when the answer is shown. */
  onRetry?: (c: ConnectionView) => Promise<void>;
  /** Runs the provider's connect flow again. */
  onReconnect?: (c: ConnectionView) => void;
}

/** `describedBy`: the id of the row's name, so each button says which calendar it acts on. */
export function ConnectionActions({ c, describedBy, onDisconnect, onRetry, onReconnect }: ConnectionActionHandlers & { c: ConnectionView; describedBy: string }) {
  const [retrying, setRetrying] = useState(false);
  const actions = connectionActions(c);
  return (
    <div className="connection-actions">
      {actions.includes('retry') && onRetry && (
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          disabled={retrying}
          aria-describedby={describedBy}
          onClick={() => {
            setRetrying(true);
            void onRetry(c).finally(() => setRetrying(false));
          }}
        >
          {retrying ? (
            <>
              <Spinner size={14} /> Syncing...
            </>
          ) : (
            'Try again'
          )}
        </button>
      )}
      {actions.includes('reconnect') && onReconnect && (
        <button type="button" className="btn btn-primary btn-sm" onClick={() => onReconnect(c)} aria-describedby={describedBy}>
          Reconnect
        </button>
      )}
      {actions.includes('disconnect') && (
        <button type="button" className="btn btn-danger-ghost btn-sm" onClick={() => onDisconnect(c)} aria-describedby={describedBy}>
          Disconnect
        </button>
      )}
    </div>
  );
}
