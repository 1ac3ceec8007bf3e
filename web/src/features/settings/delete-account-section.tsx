/**
 * Settings → Privacy & Security → Delete account (issue 12): a radix dialog asks for the password
 * and for the username (or, without one, the e-mail) typed out; the button stays disabled until
 * it matches. With two-factor sign-in on (the user says so, or the server answered 422 with
 * `errors.two_factor_code`; issue 26) it asks for a code too: the authenticator's or a recovery code.
 * On success the server has removed everything; this device signs out, drops its local data and
 * lands on the home page with a notice. A wrong password or code is shown in the dialog; nothing is lost.
 */
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { api, ApiError } from '@avail/shared/api/api-client.ts';
import { useSession } from '../../data/session.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { PasswordField } from '../../components/password-field.tsx';
import { cleanAnyCode } from '../../lib/two-factor.ts';
import { AuthCodeField } from './auth-code-field.tsx';

/** Shown on the home page after the deletion. */
const ACCOUNT_DELETED_NOTICE = 'Your account has been deleted. Everything it held is gone from Avail.';

export function DeleteAccountSection() {
  const { user, logout } = useSession();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [typed, setTyped] = useState('');
  const [error, setError] = useState('');
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState('');
  const [serverAsksCode, setServerAsksCode] = useState(false);
  const askCode = serverAsksCode || Boolean(user?.two_factor_enabled);
  const [busy, setBusy] = useState(false);
  const phrase = user?.username ?? user?.email ?? '';
  const matches = phrase !== '' && typed.trim().toLowerCase() === phrase.toLowerCase();

  function reset(next: boolean) {
    setOpen(next);
    if (!next) {
      setPassword('');
      setTyped('');
      setError('');
      setCode('');
      setCodeError('');
      setServerAsksCode(false);
    }
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!matches || !password || (askCode && !code.trim()) || busy) return;
    setBusy(true);
    setError('');
    setCodeError('');
    try {
      await api.deleteAccount(password, askCode ? cleanAnyCode(code) : undefined);
    } catch (err) {
      const fields = (err instanceof ApiError && err.fieldErrors) || {};
      if (fields.two_factor_code) {
        setServerAsksCode(true);
        setCodeError(fields.two_factor_code);
      }
      if (fields.password || !fields.two_factor_code) setError(fields.password ?? (err as Error).message);
      setBusy(false);
      return;
    }
    await logout();
    navigate('/', { replace: true, state: { notice: ACCOUNT_DELETED_NOTICE } });
  }

  return (
    <>
      <p className="muted">Deleting your account removes your calendars, availability, links, proposals and statistics from Avail at once. Your public link stops working. This cannot be undone.</p>
      <button type="button" className="btn btn-danger-ghost btn-sm" onClick={() => reset(true)}>
        Delete account
      </button>
      <Dialog open={open} onOpenChange={reset} title="Delete your account?" description="Everything in your Avail account is deleted for good, and your public link stops working.">
        <form className="form" onSubmit={onSubmit} noValidate>
          <PasswordField
            id="delete-password"
            label="Password"
            autoComplete="current-password"
            value={password}
            error={error}
            onChange={(value) => {
              setPassword(value);
              setError('');
            }}
          />
          {askCode && (
            <AuthCodeField
              id="delete-two-factor-code"
              label="Code from your authenticator app, or a recovery code"
              value={code}
              error={codeError}
              onChange={(v) => {
                setCode(v);
                setCodeError('');
              }}
            />
          )}
          <div className="field">
            <label htmlFor="delete-confirm">
              Type <strong>{phrase}</strong> to confirm
            </label>
            <input id="delete-confirm" type="text" autoComplete="off" value={typed} onChange={(e) => setTyped(e.target.value)} />
          </div>
          <div className="dialog-footer">
            <button type="button" className="btn btn-secondary" onClick={() => reset(false)}>
              Cancel
            </button>
            <button type="submit" className="btn btn-danger" disabled={!matches || !password || (askCode && !code.trim()) || busy}>
              {busy ? 'Deleting…' : 'Delete my account'}
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
