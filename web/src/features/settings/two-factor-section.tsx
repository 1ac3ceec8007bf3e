/**
 * Settings → Privacy & Security → Two-step verification (issue 26, docs/account-security.md
 * "Two-factor sign-in"). Off: "Turn on two-step verification" asks the server for a secret
 * (`POST /me/two-factor/setup`) and shows it as a QR code — the server's SVG shown as an image
 * (`data:` address), never inserted into the page — and as text with a copy button; the app's
 * 6-digit code turns it on (`POST /me/two-factor/enable`), and the 10 recovery codes are shown this
 * once with Copy, Download (.txt) and "I saved them". On: "Turn off" asks for the password and a
 * code (authenticator or recovery; `DELETE /me/two-factor`). Field errors are the server's.
 */
import './two-factor-section.css';
import { useState, type FormEvent } from 'react';
import { api, ApiError, serverMessage, type TwoFactorSetup } from '@avail/shared/api/api-client.ts';
import { GENERIC_ERROR_MESSAGE } from '@avail/shared/constants.ts';
import { useSession } from '../../data/session.tsx';
import { Alert, useAutoDismiss } from '../../components/ui/alert.tsx';
import { FieldError } from '../../components/ui/field-error.tsx';
import { PasswordField } from '../../components/password-field.tsx';
import { useCopy } from '../../components/use-copy.ts';
import { AuthCodeField } from './auth-code-field.tsx';
import { cleanAnyCode, cleanTotpInput, groupSecret, RECOVERY_CODES_FILE_NAME, recoveryCodesText, svgDataUrl, TOTP_CODE_LENGTH } from '../../lib/two-factor.ts';

type Step = { kind: 'idle' } | { kind: 'password' } | { kind: 'setup'; setup: TwoFactorSetup } | { kind: 'codes'; codes: string[]; ended: number } | { kind: 'disable' };

/** The field errors of a 422 answer (`errors.{field}`), else `{}`. */
function fieldErrors(err: unknown): Record<string, string> {
  return (err instanceof ApiError && err.fieldErrors) || {};
}

export function TwoFactorSection() {
  const { user, refreshUser } = useSession();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  // The server's word once this screen changed it; until then the signed-in user's.
  const [enabled, setEnabled] = useState<boolean | null>(null);
  const on = enabled ?? Boolean(user?.two_factor_enabled);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  // spec §4: alerts close by themselves (10 s for errors, 5 s otherwise).
  useAutoDismiss(error, 'error', () => setError(''));
  useAutoDismiss(notice, 'success', () => setNotice(''));

  /** The password confirmed: the server makes the secret (a stolen session alone cannot turn this on). */
  async function startSetup(password: string): Promise<string | undefined> {
    setBusy(true);
    setError('');
    setNotice('');
    try {
      setStep({ kind: 'setup', setup: await api.twoFactorSetup(password) });
      return undefined;
    } catch (err) {
      const field = fieldErrors(err).password;
      if (field) return field;
      if (err instanceof ApiError && err.code === 'two_factor_enabled') {
        setEnabled(true);
        setStep({ kind: 'idle' });
      }
      setError(serverMessage(err) ?? GENERIC_ERROR_MESSAGE);
      return undefined;
    } finally {
      setBusy(false);
    }
  }

  function finish(message: string, nowOn: boolean) {
    setEnabled(nowOn);
    setStep({ kind: 'idle' });
    setNotice(message);
    refreshUser().catch(() => undefined); // the session's copy of the user follows; this screen already knows
  }

  return (
    <section className="settings-subsection two-factor" aria-labelledby="two-factor-title">
      <h3 id="two-factor-title" className="subhead">
        Two-step verification <span className={`status ${on ? 'status-ok' : 'status-unknown'}`}>{on ? 'On' : 'Off'}</span>
      </h3>
      {error && <Alert kind="error">{error}</Alert>}
      {notice && <Alert kind="success">{notice}</Alert>}
      {step.kind === 'password' && <ConfirmPasswordForm busy={busy} onSubmit={startSetup} onCancel={() => setStep({ kind: 'idle' })} />}
      {step.kind === 'setup' && (
        <SetupForm
          setup={step.setup}
          onCancel={() => setStep({ kind: 'idle' })}
          onEnabled={(codes, ended) => {
            setEnabled(true);
            setStep({ kind: 'codes', codes, ended });
          }}
          onRestart={(message) => {
            setStep({ kind: 'idle' });
            setError(message);
          }}
        />
      )}
      {step.kind === 'codes' && <RecoveryCodes codes={step.codes} ended={step.ended} email={user?.email ?? ''} onDone={() => finish('Two-step verification is on.', true)} />}
      {step.kind === 'disable' && <DisableForm onCancel={() => setStep({ kind: 'idle' })} onDisabled={() => finish('Two-step verification is off.', false)} />}
      {step.kind === 'idle' &&
        (on ? (
          <>
            <p className="muted">Signing in asks for a 6-digit code from your authenticator app after your password.</p>
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => setStep({ kind: 'disable' })}>
              Turn off
            </button>
          </>
        ) : (
          <>
            <p className="muted">
              Protect your account with a second step when you sign in: a 6-digit code from an authenticator app on your phone (such as Google Authenticator, Microsoft
              Authenticator, 1Password or Aegis).
            </p>
            <button type="button" className="btn btn-primary btn-sm" onClick={() => setStep({ kind: 'password' })}>
              Turn on two-step verification
            </button>
          </>
        ))}
    </section>
  );
}

/** The QR code, the key for typing in by hand, and the app's first code. */
/** First step of turning it on: the account password (checked by the server, which answers `errors.password`). */
function ConfirmPasswordForm({ busy, onSubmit, onCancel }: { busy: boolean; onSubmit: (password: string) => Promise<string | undefined>; onCancel: () => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!password) {
      setError('Please enter your password');
      return;
    }
    setError((await onSubmit(password)) ?? '');
  }

  return (
    <form className="form" onSubmit={submit} noValidate>
      <PasswordField
        id="two-factor-setup-password"
        label="Confirm your password to continue"
        autoComplete="current-password"
        value={password}
        autoFocus
        error={error}
        onChange={(value) => {
          setPassword(value);
          setError('');
        }}
      />
      <div className="button-row">
        <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
          {busy ? 'Preparing…' : 'Continue'}
        </button>
        <button type="button" className="btn btn-secondary btn-sm" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function SetupForm({ setup, onCancel, onEnabled, onRestart }: { setup: TwoFactorSetup; onCancel: () => void; onEnabled: (codes: string[], ended: number) => void; onRestart: (message: string) => void }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const { copied, copy } = useCopy();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (code.length !== TOTP_CODE_LENGTH) {
      setError('Please enter the complete 6-digit code');
      return;
    }
    setBusy(true);
    setError('');
    try {
      const res = await api.twoFactorEnable(code);
      onEnabled(res.recovery_codes, res.ended_sessions ?? 0);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'two_factor_setup_required') {
        onRestart(serverMessage(err) ?? 'The setup expired. Please start again.');
        return;
      }
      setError(fieldErrors(err).code ?? serverMessage(err) ?? GENERIC_ERROR_MESSAGE);
      setBusy(false);
    }
  }

  return (
    <form className="form two-factor-setup" onSubmit={onSubmit} noValidate>
      <ol className="two-factor-steps">
        <li>
          <p>Scan this QR code with your authenticator app.</p>
          <img className="two-factor-qr" src={svgDataUrl(setup.qr_svg)} alt="QR code for your authenticator app" width={192} height={192} />
        </li>
        <li>
          <p>Can’t scan it? Enter this key in the app instead:</p>
          <div className="copy-row">
            <code className="link-box two-factor-secret" data-testid="two-factor-secret">
              {groupSecret(setup.secret)}
            </code>
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => copy(setup.secret)}>
              {copied ? 'Copied!' : 'Copy key'}
            </button>
          </div>
        </li>
        <li>
          <div className="field">
            <label htmlFor="two-factor-setup-code">Enter the 6-digit code the app shows</label>
            <input
              id="two-factor-setup-code"
              className="code-input"
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              placeholder="000000"
              maxLength={TOTP_CODE_LENGTH + 2}
              value={code}
              onChange={(e) => {
                setCode(cleanTotpInput(e.target.value));
                setError('');
              }}
              aria-invalid={Boolean(error)}
              aria-describedby={error ? 'two-factor-setup-code-error' : undefined}
            />
            <FieldError id="two-factor-setup-code-error">{error}</FieldError>
          </div>
        </li>
      </ol>
      <div className="button-row">
        <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
          {busy ? 'Turning on…' : 'Turn on'}
        </button>
        <button type="button" className="btn btn-secondary btn-sm" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** The recovery codes, shown this once: copy, download as .txt, then "I saved them". */
function RecoveryCodes({ codes, ended, email, onDone }: { codes: string[]; ended: number; email: string; onDone: () => void }) {
  const { copied, copy } = useCopy();
  const text = () => recoveryCodesText(codes, email, new Date());

  function download() {
    const url = URL.createObjectURL(new Blob([text()], { type: 'text/plain;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = RECOVERY_CODES_FILE_NAME;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }

  return (
    <div className="two-factor-codes">
      <Alert kind="success">
        Two-step verification is on.
        {ended > 0 && ` Your other devices were signed out (${ended}): they ask for the code when you sign in again.`}
      </Alert>
      <h4 id="recovery-codes-title">Save your recovery codes</h4>
      <p className="muted">
        If you lose your phone, each of these codes signs you in once instead of the app’s code. They are shown only now: copy or download them and keep them somewhere safe.
      </p>
      <ul className="recovery-codes" aria-labelledby="recovery-codes-title">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <div className="button-row">
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => copy(codes.join('\n'))}>
          {copied ? 'Copied!' : 'Copy codes'}
        </button>
        <button type="button" className="btn btn-secondary btn-sm" onClick={download}>
          Download (.txt)
        </button>
        <button type="button" className="btn btn-primary btn-sm" onClick={onDone}>
          I saved them
        </button>
      </div>
    </div>
  );
}

/** Turning it off: the password and a current code (authenticator or recovery code). */
function DisableForm({ onCancel, onDisabled }: { onCancel: () => void; onDisabled: () => void }) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ password?: string; code?: string }>({});
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  useAutoDismiss(error, 'error', () => setError(''));

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const found = { password: password ? undefined : 'Please enter your password', code: code.trim() ? undefined : 'Please enter a code' };
    setErrors(found);
    setError('');
    if (found.password || found.code) return;
    setBusy(true);
    try {
      await api.twoFactorDisable({ password, code: cleanAnyCode(code) });
      onDisabled();
    } catch (err) {
      const fields = fieldErrors(err);
      if (fields.password || fields.code) setErrors({ password: fields.password, code: fields.code });
      else setError(serverMessage(err) ?? GENERIC_ERROR_MESSAGE);
      setBusy(false);
    }
  }

  return (
    <form className="form two-factor-disable" onSubmit={onSubmit} noValidate>
      <p className="muted">Signing in will ask only for your password again.</p>
      {error && <Alert kind="error">{error}</Alert>}
      <PasswordField
        id="two-factor-off-password"
        label="Password"
        autoComplete="current-password"
        value={password}
        error={errors.password}
        onChange={(value) => {
          setPassword(value);
          setErrors((x) => ({ ...x, password: undefined }));
        }}
      />
      <AuthCodeField
        id="two-factor-off-code"
        label="Code from your authenticator app, or a recovery code"
        value={code}
        error={errors.code}
        onChange={(v) => {
          setCode(v);
          setErrors((x) => ({ ...x, code: undefined }));
        }}
      />
      <div className="button-row">
        <button type="submit" className="btn btn-danger btn-sm" disabled={busy}>
          {busy ? 'Turning off…' : 'Turn off two-step verification'}
        </button>
        <button type="button" className="btn btn-secondary btn-sm" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
