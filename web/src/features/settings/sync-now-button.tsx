/**
 * Settings → My Calendars: "Sync Now" (spec §4 `POST /api/me/calendar/sync`; "✓ Sync Complete" for
 * SYNC_COMPLETE_MS). Issue 23 item 2: "✓ Sync Complete" only when every calendar synced; otherwise
 * the spec's error alert names each calendar that failed and why, and the list is refreshed so its
 * error state shows.
 */
import { useEffect, useRef, useState } from 'react';
import { api } from '@avail/shared/api/api-client.ts';
import { SYNC_COMPLETE_MS } from '@avail/shared';
import type { useAlert } from '../../components/ui/alert.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { SYNC_COMPLETED_EVENT } from '../../data/data-store.ts';
import { syncOutcome, type SyncFailure } from './sync-result.ts';

/** spec §8: the Sync Now failure message. */
export const SYNC_FAILED_TEXT = 'Failed to sync calendars. Please try again.';

/** The error alert's content: the spec's message, then one line per failed calendar. */
export function SyncFailedMessage({ failures }: { failures: SyncFailure[] }) {
  return (
    <>
      {SYNC_FAILED_TEXT}
      {failures.length > 0 && (
        <ul className="sync-failures" data-testid="sync-failures">
          {failures.map((f) => (
            <li key={f.connectionId}>{f.line}</li>
          ))}
        </ul>
      )}
    </>
  );
}

/** Syncs every connection, then `refresh()`es the list; a failure shows the spec's error alert with the failed calendars. */
export function SyncNowButton({ disabled, refresh, alert }: { disabled: boolean; refresh: () => Promise<void>; alert: ReturnType<typeof useAlert> }) {
  const [state, setState] = useState<'idle' | 'loading' | 'done'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function syncNow() {
    setState('loading');
    clearTimeout(timer.current);
    let outcome;
    try {
      outcome = syncOutcome(await api.sync());
    } catch {
      setState('idle');
      alert.show('error', SYNC_FAILED_TEXT);
      return;
    }
    // Either way the list shows the new state (a failed calendar turns 'Error' with its reason).
    await refresh().catch(() => undefined);
    window.dispatchEvent(new Event(SYNC_COMPLETED_EVENT));
    if (!outcome.ok) {
      setState('idle');
      alert.show('error', <SyncFailedMessage failures={outcome.failures} />);
      return;
    }
    alert.clear();
    setState('done');
    timer.current = setTimeout(() => setState('idle'), SYNC_COMPLETE_MS);
  }

  return (
    <button type="button" className="btn btn-secondary btn-sm" onClick={() => void syncNow()} disabled={state === 'loading' || disabled}>
      {state === 'loading' ? (
        <>
          <Spinner size={14} /> Syncing...
        </>
      ) : state === 'done' ? (
        '✓ Sync Complete'
      ) : (
        'Sync Now'
      )}
    </button>
  );
}
