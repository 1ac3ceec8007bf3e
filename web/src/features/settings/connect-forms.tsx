/**
 * Settings → My Calendars: the connect forms of an ICS feed, a CalDAV server and Apple iCloud (with
 * the app-specific password help), validated with the shared schemas before the call (spec §8 messages).
 */
import { useState, type FormEvent } from 'react';
import { api, ApiError, serverMessage } from '@avail/shared/api/api-client.ts';
import { appleConnectSchema, caldavConnectSchema, icsConnectSchema, APPLE_ERROR_ALERT_MS } from '@avail/shared';
import { useAlert } from '../../components/ui/alert.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { PasswordField } from '../../components/password-field.tsx';
import { appleError } from './connection-status.ts';

function firstIssue(r: { success: boolean; error?: { issues: { message: string }[] } }): string {
  return r.success ? '' : (r.error?.issues[0]?.message ?? 'Please check your input.');
}

function errorText(e: unknown, fallback: string): string {
  if (e instanceof ApiError) {
    const f = e.fieldErrors;
    return serverMessage(e) || (f ? Object.values(f).join(' ') : '') || fallback;
  }
  return fallback;
}

export function IcsForm({ onClose, onDone }: { onClose: () => void; onDone: (msg: string) => void }) {
  const [url, setUrl] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const r = icsConnectSchema.safeParse({ url });
    if (!r.success) return setError(firstIssue(r));
    setBusy(true);
    setError('');
    try {
      await api.connectIcs(r.data.url);
      onDone('Calendar feed connected successfully!');
    } catch (err) {
      setError(errorText(err, 'Failed to connect the calendar feed. Please try again.'));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title="Connect an ICS feed" description="Paste the secret iCal address of your calendar (https:// or webcal://).">
      <form className="form" onSubmit={submit} noValidate>
        {error && <p className="field-error" role="alert">{error}</p>}
        <div className="field">
          <label htmlFor="ics-url">Calendar feed URL</label>
          <input id="ics-url" type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://example.com/calendar.ics" autoFocus />
        </div>
        <ConnectFormFooter busy={busy} label="Connect feed" onCancel={onClose} />
      </form>
    </Dialog>
  );
}

/** Connects, replacing connection `oldId`: a 409 (same server and user) removes the old one first; any other success removes it after. */
async function reconnectCaldav(oldId: string | number, body: { server_url: string; username: string; password: string }) {
  try {
    await api.connectCaldav(body);
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 409) throw e;
    await api.disconnect(oldId);
    await api.connectCaldav(body);
    return;
  }
  await api.disconnect(oldId).catch(() => undefined);
}

/**
 * `replacing`: an expired CalDAV connection being reconnected (issue 23 item 1): the new
 * connection replaces it (the server refuses a second connection to the same server and user).
 */
export function CaldavForm({ onClose, onDone, replacing = null }: { onClose: () => void; onDone: (msg: string) => void; replacing?: { id: string | number; account?: string | null } | null }) {
  const [form, setForm] = useState({ server_url: '', username: replacing?.account ?? '', password: '' });
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const r = caldavConnectSchema.safeParse(form);
    if (!r.success) return setError(firstIssue(r));
    setBusy(true);
    setError('');
    try {
      if (replacing) await reconnectCaldav(replacing.id, r.data);
      else await api.connectCaldav(r.data);
      onDone('CalDAV calendar connected successfully!');
    } catch (err) {
      setError(errorText(err, 'Failed to connect CalDAV calendar. Please try again.'));
    } finally {
      setBusy(false);
    }
  }
  const set = (k: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => setForm((f) => ({ ...f, [k]: e.target.value }));
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={replacing ? 'Reconnect your CalDAV server' : 'Connect a CalDAV server'}
      description={replacing ? 'Sign in again: the new connection replaces the expired one. Avail only reads your calendars.' : 'Avail only reads your calendars.'}
    >
      <form className="form" onSubmit={submit} noValidate>
        {error && <p className="field-error" role="alert">{error}</p>}
        <div className="field">
          <label htmlFor="caldav-url">Server URL</label>
          <input id="caldav-url" type="url" value={form.server_url} onChange={set('server_url')} placeholder="https://caldav.example.com/" autoFocus />
        </div>
        <div className="field">
          <label htmlFor="caldav-username">Username</label>
          <input id="caldav-username" autoComplete="username" value={form.username} onChange={set('username')} />
        </div>
        <PasswordField id="caldav-password" label="Password" autoComplete="current-password" value={form.password} onChange={(value) => setForm((f) => ({ ...f, password: value }))} />
        <ConnectFormFooter busy={busy} label="Connect" onCancel={onClose} />
      </form>
    </Dialog>
  );
}

export function AppleForm({ onClose, onDone, onHelp }: { onClose: () => void; onDone: () => void; onHelp: () => void }) {
  const [appleId, setAppleId] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const alert = useAlert();
  async function submit(e: FormEvent) {
    e.preventDefault();
    const r = appleConnectSchema.safeParse({ apple_id: appleId, app_specific_password: password });
    if (!r.success) {
      alert.show('error', 'Please enter both Apple ID and app-specific password.', APPLE_ERROR_ALERT_MS);
      return;
    }
    setBusy(true);
    try {
      await api.connectApple(r.data);
      onDone();
    } catch (err) {
      alert.show('error', appleError(err), APPLE_ERROR_ALERT_MS);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title="Connect Apple iCloud Calendar" description="Use an app-specific password, not your Apple ID password.">
      <form className="form" onSubmit={submit} noValidate>
        {alert.node}
        <div className="field">
          <label htmlFor="apple-id">Apple ID</label>
          <input id="apple-id" type="email" autoComplete="username" value={appleId} onChange={(e) => setAppleId(e.target.value)} placeholder="you@icloud.com" autoFocus />
        </div>
        <PasswordField id="apple-password" label="App-specific password" autoComplete="off" value={password} onChange={setPassword} placeholder="xxxx-xxxx-xxxx-xxxx" />
        <button type="button" className="btn btn-link small" onClick={onHelp}>
          How do I create an app-specific password?
        </button>
        <ConnectFormFooter busy={busy} label="Connect Apple Calendar" onCancel={onClose} />
      </form>
    </Dialog>
  );
}

export function AppleHelp({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Create an app-specific password" description="Apple requires an app-specific password for third-party calendar access.">
      <ol className="help-steps">
        <li>
          Sign in at{' '}
          <a href="https://appleid.apple.com" target="_blank" rel="noreferrer">
            appleid.apple.com
          </a>{' '}
          with your Apple ID.
        </li>
        <li>Open the &ldquo;Sign-In and Security&rdquo; section.</li>
        <li>Select &ldquo;App-Specific Passwords&rdquo;.</li>
        <li>Click &ldquo;Generate an app-specific password&rdquo; (or the + button).</li>
        <li>Enter a label such as &ldquo;Avail&rdquo; and confirm with your Apple ID password if asked.</li>
        <li>Copy the generated password (xxxx-xxxx-xxxx-xxxx) and paste it into the Avail connect form.</li>
      </ol>
    </Dialog>
  );
}

function ConnectFormFooter({ busy, label, onCancel }: { busy: boolean; label: string; onCancel: () => void }) {
  return (
    <div className="dialog-footer">
      <button type="button" className="btn btn-secondary" onClick={onCancel}>Cancel</button>
      <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? 'Connecting...' : label}</button>
    </div>
  );
}
