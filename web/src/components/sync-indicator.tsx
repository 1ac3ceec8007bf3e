/**
 * The device's sync status in the owner's header: 'Online', 'Syncing…', 'Offline' or
 * 'Update required', announced politely (`role="status"`). Rendering it also opens the owner's
 * device database (useLocalData), so every owner screen with the header replicates.
 */
import { SYNC_STATUS_LABEL, useSyncStatus } from '../data/local-data.tsx';

export function SyncIndicator() {
  const status = useSyncStatus();
  return (
    <span role="status" className={`sync-indicator sync-${status}`} data-testid="sync-status" title={status === 'outdated' ? 'Reload the page to get the latest version of Avail' : undefined}>
      <span className="sync-dot" aria-hidden="true" />
      {SYNC_STATUS_LABEL[status]}
    </span>
  );
}
