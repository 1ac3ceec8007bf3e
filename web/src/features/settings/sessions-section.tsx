/**
 * Settings → Privacy & Security → Signed-in devices (issue 26; docs/account-security.md "Sessions"):
 * every session of the owner (GET /me/sessions) with its label ('Chrome on macOS', 'Avail desktop
 * on Windows'), "This device" on the current one, when it signed in and when it was last active in
 * the owner's formats (session-times.ts). "Sign out" ends one other session at once
 * (DELETE /me/sessions/{id}); on this device it is the ordinary sign-out (to /login). "Sign out
 * everywhere else" asks first, then ends all the others (DELETE /me/sessions).
 */
import { useCallback, useEffect, useState } from 'react';
import { api, serverMessage, type AccountSession } from '@avail/shared/api/api-client.ts';
import { GENERIC_ERROR_MESSAGE } from '@avail/shared/constants.ts';
import { useSession } from '../../data/session.tsx';
import { useOwnerFormats } from '../../data/use-owner-formats.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { ConfirmDialog } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { lastActiveText, signedInText } from './session-times.ts';

/** Window event after which the list is read again (a password change ended the other sessions). */
export const SESSIONS_CHANGED_EVENT = 'avail:sessions-changed';

/** How often the "last active" texts are re-read while the section is open (ms). */
const TICK_MS = 60_000;

function ownerZone(timezone: string | null | undefined): string {
  return timezone || Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export function SessionsSection() {
  const { user, logout } = useSession();
  const formats = useOwnerFormats();
  const zone = ownerZone(user?.timezone);
  const [sessions, setSessions] = useState<AccountSession[] | null>(null);
  const [loadError, setLoadError] = useState('');
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [busyId, setBusyId] = useState<string | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [now, setNow] = useState(() => Date.now());

  const load = useCallback(async () => {
    setLoadError('');
    try {
      const { sessions: list } = await api.sessions();
      setSessions(list);
      setNow(Date.now());
    } catch (e) {
      setLoadError(serverMessage(e) ?? 'Failed to load your signed-in devices');
    }
  }, []);

  useEffect(() => {
    void load();
    const t = setInterval(() => setNow(Date.now()), TICK_MS);
    const reload = () => void load();
    window.addEventListener(SESSIONS_CHANGED_EVENT, reload);
    return () => {
      clearInterval(t);
      window.removeEventListener(SESSIONS_CHANGED_EVENT, reload);
    };
  }, [load]);

  async function signOut(s: AccountSession) {
    setError('');
    setNotice('');
    if (s.current) {
      await logout();
      return;
    }
    setBusyId(s.id);
    try {
      await api.endSession(s.id);
      setSessions((list) => list?.filter((x) => x.id !== s.id) ?? null);
      setNotice(`Signed out: ${s.label}.`);
    } catch (e) {
      setError(serverMessage(e) ?? GENERIC_ERROR_MESSAGE);
      void load(); // a 404: it had ended already — show the list as it is now
    } finally {
      setBusyId(null);
    }
  }

  async function signOutOthers() {
    setError('');
    setNotice('');
    setBusyId('others');
    try {
      const { ended } = await api.endOtherSessions();
      setNotice(ended === 1 ? 'Signed out of 1 other device.' : `Signed out of ${ended} other devices.`);
      await load();
    } catch (e) {
      setError(serverMessage(e) ?? GENERIC_ERROR_MESSAGE);
    } finally {
      setBusyId(null);
    }
  }

  const others = sessions?.filter((s) => !s.current).length ?? 0;
  return (
    <div className="account-block" role="group" aria-labelledby="sessions-title">
      <h3 id="sessions-title" className="subhead">
        Signed-in devices
      </h3>
      <p className="muted small">Where your account is signed in. Sign out of any device you do not recognise, then change your password.</p>
      {loadError && (
        <Alert kind="error">
          <p>{loadError}</p>
          <button type="button" className="btn btn-link" onClick={() => void load()}>
            Try again
          </button>
        </Alert>
      )}
      {error && <Alert kind="error">{error}</Alert>}
      <p className="muted small" role="status">
        {notice}
      </p>
      {sessions === null && !loadError && (
        <div className="center-block">
          <Spinner size={22} label="Loading signed-in devices" />
        </div>
      )}
      {sessions && (
        <ul className="session-list" aria-labelledby="sessions-title">
          {sessions.map((s) => {
            const labelId = `session-label-${s.id}`;
            return (
              <li key={s.id} className="session-row" data-testid="session-row">
                <div className="session-text">
                  <p className="session-label">
                    <span id={labelId}>{s.label}</span>
                    {s.current && <span className="badge">This device</span>}
                  </p>
                  <p className="muted small">
                    Signed in {signedInText(s.created_at, formats, zone)} · Last active {s.current ? 'just now' : lastActiveText(s.last_used_at, now, formats, zone)}
                  </p>
                </div>
                <button
                  type="button"
                  className="btn btn-secondary btn-sm"
                  aria-describedby={labelId}
                  disabled={busyId !== null}
                  onClick={() => void signOut(s)}
                >
                  {busyId === s.id ? 'Signing out…' : 'Sign out'}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {others > 0 && (
        <button type="button" className="btn btn-danger-ghost btn-sm" disabled={busyId !== null} onClick={() => setConfirmOpen(true)}>
          {busyId === 'others' ? 'Signing out…' : 'Sign out everywhere else'}
        </button>
      )}
      <ConfirmDialog
        open={confirmOpen}
        onOpenChange={setConfirmOpen}
        title="Sign out everywhere else?"
        message={`Every other device (${others}) is signed out at once and has to sign in again. This device stays signed in.`}
        confirmLabel="Sign out everywhere else"
        danger
        onConfirm={() => void signOutOthers()}
      />
    </div>
  );
}
