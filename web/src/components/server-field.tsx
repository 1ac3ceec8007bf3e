/**
 * "Avail server" (issue 10): in the desktop app the owner chooses which Avail server the app talks
 * to — on first run before signing in or up, later in Settings. It shows only where the platform
 * says the server is editable (never in a browser, whose server is the site itself).
 *
 * A changed server reloads the app: the renderer's Content-Security-Policy names the server it may
 * connect to, and a page's policy is fixed when it loads.
 */
import { useState, useSyncExternalStore, type FormEvent, type ReactNode } from 'react';
import { changeServerOrigin, platformInfo, subscribePlatform } from '../platform/platform.ts';
import { FieldError } from './ui/field-error.tsx';

/** The platform's server setting and token persistence, re-read when they change. */
export function usePlatformInfo() {
  return useSyncExternalStore(subscribePlatform, platformInfo);
}

/** Shown where the sign-in token lasts only until the app quits (no OS keyring). */
export const SESSION_ONLY_TOKEN_TEXT =
  'This computer has no keyring Avail can use to protect your sign-in, so you stay signed in only until you quit Avail.';

/**
 * Stores `value` as the server and reloads the app when the origin changed (or was never
 * confirmed) — only after main's answer, which comes once it removed any stored token (first run:
 * nobody is signed in yet). Resolves to an error message, or never (the page reloads).
 */
async function applyServer(value: string, current: { origin: string; confirmed: boolean }): Promise<string | null> {
  try {
    const origin = await changeServerOrigin(value);
    if (origin !== current.origin || !current.confirmed) window.location.reload();
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * Wraps the sign-in / sign-up form. Where the server is editable: until a server is confirmed (first
 * run), or while the owner changes it, it shows the "Avail server" step instead of `children`;
 * afterwards a line naming the server with a Change button above them.
 */
export function ServerGate({ children, idPrefix }: { children: ReactNode; idPrefix: string }) {
  const { server } = usePlatformInfo();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState<string | null>(null);
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  if (!server.editable) return <>{children}</>;
  const id = `${idPrefix}-server`;

  if (server.confirmed && !editing) {
    return (
      <>
        <p className="muted small server-line">
          Avail server: <strong>{server.origin}</strong>{' '}
          <button type="button" className="btn btn-link" onClick={() => setEditing(true)}>
            Change
          </button>
        </p>
        {children}
      </>
    );
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setSaving(true);
    const problem = await applyServer(value ?? server.origin, server);
    setSaving(false);
    if (problem) setError(problem);
    else setEditing(false);
  }

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <div className="field">
        <label htmlFor={id}>Avail server</label>
        <input
          id={id}
          type="url"
          name="server"
          inputMode="url"
          autoComplete="url"
          value={value ?? server.origin}
          placeholder="https://avail.example.com"
          aria-invalid={Boolean(error)}
          aria-describedby={error ? `${id}-error` : `${id}-hint`}
          onChange={(e) => {
            setValue(e.target.value);
            setError('');
          }}
        />
        {error ? (
          <FieldError id={`${id}-error`}>{error}</FieldError>
        ) : (
          <p id={`${id}-hint`} className="muted small">
            The address of the Avail server your account lives on.
          </p>
        )}
      </div>
      <button type="submit" className="btn btn-primary btn-block" disabled={saving}>
        {saving ? 'Connecting...' : 'Continue'}
      </button>
    </form>
  );
}
