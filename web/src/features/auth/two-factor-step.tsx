/**
 * The login's second step (issue 26, docs/account-security.md "Two-factor sign-in"): shown on the
 * login page after the server answered 401 `two_factor_required`. The 6-digit code of the owner's
 * authenticator app (numeric keyboard, one-time-code autofill, sent by itself once six digits are
 * in), or — behind "Use a recovery code" — one of the saved recovery codes (`xxxxx-xxxxx`). A
 * wrong code shows the server's message under the field; a throttled login (429) its own message.
 * "Back" returns to the e-mail and password.
 */
import './two-factor-step.css';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { FieldError } from '../../components/ui/field-error.tsx';
import { cleanRecoveryInput, cleanTotpInput, TOTP_CODE_LENGTH } from '../../lib/two-factor.ts';

/** Shown for a 429 without a message of the server's own. */
export const TWO_FACTOR_THROTTLED_TEXT = 'Too many attempts. Please wait a moment and try again.';

export function TwoFactorStep({ verify, onBack }: {
  /** Sends the code with the remembered e-mail and password; resolves with the message to show under the field ('' = signed in). */
  verify: (code: string) => Promise<string>;
  onBack: () => void;
}) {
  const [mode, setMode] = useState<'app' | 'recovery'>('app');
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  /** The last six digits sent by themselves: a refused code is not sent again until it changes. */
  const autoSent = useRef('');

  useEffect(() => inputRef.current?.focus(), [mode]);

  async function send(value: string) {
    if (submitting) return;
    setSubmitting(true);
    setError('');
    const message = await verify(value);
    // Signed in: the page navigates away; nothing more to set here.
    if (!message) return;
    setSubmitting(false);
    setError(message);
    inputRef.current?.select();
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const value = mode === 'app' ? code : cleanRecoveryInput(code);
    if (mode === 'app' && value.length !== TOTP_CODE_LENGTH) {
      setError('Please enter the complete 6-digit code');
      return;
    }
    if (mode === 'recovery' && !value) {
      setError('Please enter a recovery code');
      return;
    }
    void send(value);
  }

  function onChange(raw: string) {
    setError('');
    if (mode === 'recovery') {
      setCode(raw);
      return;
    }
    const digits = cleanTotpInput(raw);
    setCode(digits);
    if (digits.length === TOTP_CODE_LENGTH && digits !== autoSent.current) {
      autoSent.current = digits;
      void send(digits);
    }
  }

  function switchMode() {
    setMode((m) => (m === 'app' ? 'recovery' : 'app'));
    setCode('');
    setError('');
    autoSent.current = '';
  }

  const fieldId = mode === 'app' ? 'two-factor-code' : 'two-factor-recovery';
  const errorId = `${fieldId}-error`;
  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <p className="muted">
        {mode === 'app'
          ? 'Open your authenticator app and enter the 6-digit code it shows for Avail.'
          : 'Enter one of the recovery codes you saved when you turned on two-step verification. Each code works once.'}
      </p>
      <div className="field">
        <label htmlFor={fieldId}>{mode === 'app' ? 'Authentication code' : 'Recovery code'}</label>
        {mode === 'app' ? (
          <input
            ref={inputRef}
            id={fieldId}
            className="code-input"
            name="two_factor_code"
            inputMode="numeric"
            autoComplete="one-time-code"
            placeholder="000000"
            maxLength={TOTP_CODE_LENGTH + 2}
            value={code}
            onChange={(e) => onChange(e.target.value)}
            aria-invalid={Boolean(error)}
            aria-describedby={error ? errorId : undefined}
          />
        ) : (
          <input
            ref={inputRef}
            id={fieldId}
            className="recovery-code-input"
            name="recovery_code"
            type="text"
            autoComplete="off"
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            placeholder="xxxxx-xxxxx"
            maxLength={24}
            value={code}
            onChange={(e) => onChange(e.target.value)}
            aria-invalid={Boolean(error)}
            aria-describedby={error ? errorId : undefined}
          />
        )}
        <FieldError id={errorId}>{error}</FieldError>
      </div>
      <button type="submit" className="btn btn-primary btn-block" disabled={submitting}>
        {submitting ? 'Verifying...' : 'Verify'}
      </button>
      <div className="two-factor-step-links">
        <button type="button" className="btn btn-link" onClick={switchMode}>
          {mode === 'app' ? 'Use a recovery code' : 'Use your authenticator app'}
        </button>
        <button type="button" className="btn btn-link" onClick={onBack}>
          Back
        </button>
      </div>
    </form>
  );
}
