/** Settings → My Calendars: "Sync Now" (spec §4 `POST /api/me/calendar/sync`; "✓ Sync Complete" for SYNC_COMPLETE_MS). */
import { useEffect, useRef, useState } from 'react';
import { api } from '@avail/shared/api/api-client.ts';
import { SYNC_COMPLETE_MS } from '@avail/shared';
import type { useAlert } from '../../components/ui/alert.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { SYNC_COMPLETED_EVENT } from '../../data/data-store.ts';

/** Syncs every connection, then `refresh()`es the list; a failure shows the spec's error alert. */
export function SyncNowButton({ disabled, refresh, alert }: { disabled: boolean; refresh: () => Promise<void>; alert: ReturnType<typeof useAlert> }) {
  const [state, setState] = useState<'idle' | 'loading' | 'done'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function syncNow() {
    setState('loading');
    try {
      await api.sync();
      await refresh();
      setState('done');
      window.dispatchEvent(new Event(SYNC_COMPLETED_EVENT));
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setState('idle'), SYNC_COMPLETE_MS);
    } catch {
      setState('idle');
      alert.show('error', 'Failed to sync calendars. Please try again.');
    }
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
