/**
 * Settings → "Changes replaced on another device" (issue 13): the owner's versions of weekly
 * hours, date overrides and busy blocks that lost to an edit made on another device in the last
 * 30 days (GET /me/conflicts), each with what it was, which device replaced it and when, and
 * "Restore this version" — a new local edit on this device (shared/src/rx/restore-version.ts) that
 * replicates like any other.
 */
import { useEffect, useState } from 'react';
import { api, type ReplacedVersion } from '@avail/shared/api/api-client.ts';
import { restoreVersion } from '@avail/shared/rx/restore-version.ts';
import { useLocalData } from '../../data/local-data.tsx';
import { useSession } from '../../data/session.tsx';
import { useOwnerFormats, type OwnerFormats } from '../../data/use-owner-formats.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { WEEKDAYS } from '../../components/slot-editor.tsx';
import { browserTimeZone, to12h } from '../../lib/time.ts';

/** How long a restore waits for the device to catch up with the server first (ms). */
const RESTORE_SYNC_WAIT_MS = 5_000;

/**
 * What a version said, in words ("Tuesday 9:00 AM – 12:00 PM", "2030-02-01: unavailable all day", …);
 * a busy block's instants in the owner's formats `fmt` and zone `tz` ('Mon 30 Nov, 09:00').
 */
function describeVersion(v: ReplacedVersion, fmt: OwnerFormats, tz: string): string {
  const r = v.replaced;
  const time = (s: unknown) => (typeof s === 'string' ? to12h(s) : '');
  let what: string;
  if (v.collection === 'availability_rules') {
    what = `Weekly hours: ${WEEKDAYS[Number(r.weekday)] ?? 'a day'} ${time(r.start_time_local)} – ${time(r.end_time_local)}`;
  } else if (v.collection === 'availability_exceptions') {
    what =
      r.start_time_local == null
        ? `Date override ${String(r.date)}: unavailable all day`
        : `Date override ${String(r.date)}: ${time(r.start_time_local)} – ${time(r.end_time_local)}`;
  } else {
    const at = (ms: unknown) => fmt.dateTime(Number(ms), tz);
    what = `Busy block ${at(r.start_ms)} – ${at(r.end_ms)}${typeof r.note === 'string' && r.note ? ` (${r.note})` : ''}`;
  }
  return r._deleted ? `Deletion of: ${what.charAt(0).toLowerCase()}${what.slice(1)}` : what;
}

/** Which device made the winning version, as the owner reads it. */
function deviceLabel(byDevice: string, thisDevice: string | undefined): string {
  if (thisDevice && byDevice === thisDevice) return 'this device';
  if (byDevice === 'server') return 'the web app';
  return `another device (${byDevice.slice(0, 8)})`;
}

export function ConflictsSection() {
  const local = useLocalData();
  const fmt = useOwnerFormats();
  const tz = useSession().user?.timezone || browserTimeZone();
  const [items, setItems] = useState<ReplacedVersion[] | null>(null);
  const [loadError, setLoadError] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ kind: 'success' | 'info' | 'error'; text: string } | null>(null);

  useEffect(() => {
    let live = true;
    api
      .conflicts()
      .then((r) => live && setItems(r.conflicts))
      .catch(() => live && setLoadError(true));
    return () => {
      live = false;
    };
  }, []);

  async function onRestore(v: ReplacedVersion) {
    if (!local.data) return;
    setBusy(v.id);
    setNotice(null);
    try {
      // Compare with what the server holds now, not with a device that has not pulled the winning
      // version yet (just reloaded, or back online): otherwise "already in place" could be said of
      // a version the server no longer has. Offline, the wait ends after RESTORE_SYNC_WAIT_MS and
      // the restore is a local edit that replicates later.
      const replication = local.data.replication;
      if (replication) {
        replication.reconnect();
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([replication.awaitInSync(), new Promise<void>((resolve) => (timer = setTimeout(resolve, RESTORE_SYNC_WAIT_MS)))]);
        clearTimeout(timer);
      }
      const outcome = await restoreVersion(local.data.db, local.data.deviceId, v);
      setNotice(
        outcome === 'restored'
          ? { kind: 'success', text: 'Version restored. Your other devices get it at their next sync.' }
          : { kind: 'info', text: 'This version is already in place.' },
      );
    } catch (err) {
      const issues = (err as { issues?: Array<{ message: string }> }).issues;
      setNotice({ kind: 'error', text: issues?.[0]?.message ?? 'This version could not be restored. Please try again.' });
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="card" aria-labelledby="conflicts-title">
      <div className="card-header">
        <h2 id="conflicts-title" className="card-title">
          Changes replaced on another device
        </h2>
      </div>
      <p className="muted">When two devices change the same hours while offline, the later change wins. Versions replaced in the last 30 days:</p>
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      {loadError && <Alert kind="error">Could not load this list. Please try again later.</Alert>}
      {items && items.length === 0 && <p className="muted">No conflicts in the last 30 days.</p>}
      {items && items.length > 0 && (
        <ul className="conflict-list">
          {items.map((v) => (
            <li key={v.id} className="conflict-item">
              <div>
                <div>{describeVersion(v, fmt, tz)}</div>
                <div className="muted small">
                  Replaced by {deviceLabel(v.byDevice, local.data?.deviceId)} on{' '}
                  <time dateTime={v.decidedAt}>{fmt.dateTime(Date.parse(v.decidedAt), tz)}</time>
                </div>
              </div>
              <button type="button" className="btn btn-secondary btn-sm" disabled={!local.data || busy !== null} onClick={() => void onRestore(v)}>
                {busy === v.id ? 'Restoring...' : 'Restore this version'}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
