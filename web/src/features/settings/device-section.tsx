/**
 * Settings → "This device" (issue 10), shown where the platform allows it (the desktop app): which
 * Avail server the app talks to — changing it signs out, since the account and its token belong to
 * the old server — and a notice when the sign-in lasts only until the app quits (no OS keyring).
 */
import { useState, type FormEvent } from 'react';
import { api } from '@avail/shared/api/api-client.ts';
import { useSession } from '../../data/session.tsx';
import { SESSION_ONLY_TOKEN_TEXT, usePlatformInfo } from '../../components/server-field.tsx';
import { switchServer } from '../../platform/platform.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { FieldError } from '../../components/ui/field-error.tsx';

export function DeviceSection() {
  const { server, tokenPersistence } = usePlatformInfo();
  const { logout } = useSession();
  const [value, setValue] = useState<string | null>(null);
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  if (!server.editable && tokenPersistence !== 'session') return null;
  const current = value ?? server.origin;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setSaving(true);
    // The account and its token belong to the old server: end the session there, store the new
    // server (a failure is shown here), sign out on this device — device database and token — and
    // only then reload onto the new server (platform.ts switchServer).
    const problem = await switchServer(current, {
      endRemoteSession: () => api.logout(),
      logout: () => logout({ waitForDeviceData: true }),
      reload: () => window.location.reload(),
    });
    if (problem) {
      setError(problem);
      setSaving(false);
    }
  }

  return (
    <section className="card" aria-labelledby="device-title">
      <div className="card-header">
        <h2 id="device-title" className="card-title">
          This device
        </h2>
      </div>
      {tokenPersistence === 'session' && <Alert kind="info">{SESSION_ONLY_TOKEN_TEXT}</Alert>}
      {server.editable && (
        <form className="form" onSubmit={onSubmit}>
          <div className="field">
            <label htmlFor="settings-server">Avail server</label>
            <input
              id="settings-server"
              type="url"
              inputMode="url"
              value={current}
              aria-invalid={Boolean(error)}
              aria-describedby={error ? 'settings-server-error' : 'settings-server-hint'}
              onChange={(e) => {
                setValue(e.target.value);
                setError('');
              }}
            />
            {error ? (
              <FieldError id="settings-server-error">{error}</FieldError>
            ) : (
              <p id="settings-server-hint" className="muted small">
                Changing the server signs you out; sign in with your account on the new one.
              </p>
            )}
          </div>
          <button type="submit" className="btn btn-secondary" disabled={saving || current === server.origin}>
            {saving ? 'Saving...' : 'Save server'}
          </button>
        </form>
      )}
    </section>
  );
}
