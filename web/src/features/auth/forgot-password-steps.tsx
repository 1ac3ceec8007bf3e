/**
 * The three steps of /forgot-password (forgot-password-page.tsx holds which one shows): ask for the
 * e-mail (`POST /api/auth/forgot-password`), take the 6-digit code and a new password
 * (`POST /api/auth/reset-password`, spec §4), and the confirmation with a 'Sign in' link. Each step
 * keeps its own field state, errors and server error (spec §5 wording).
 */
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { api, serverMessage } from '@avail/shared/api/api-client.ts';
import { GENERIC_ERROR_MESSAGE, MIN_PASSWORD_LENGTH, VERIFICATION_CODE_LENGTH } from '@avail/shared/constants.ts';
import { EMAIL_PATTERN } from '@avail/shared/schemas/auth.schema.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { CodeInput } from '../../components/ui/code-input.tsx';
import { FieldError } from '../../components/ui/field-error.tsx';
import { PasswordField } from '../../components/password-field.tsx';

type ResetField = 'code' | 'password' | 'confirm';

/** The e-mail field's client-side check (spec §5 wording). */
function emailError(email: string): string | undefined {
  if (!email.trim()) return 'Email is required';
  if (!EMAIL_PATTERN.test(email.trim())) return 'Email is invalid';
  return undefined;
}

/** Step 1: the e-mail; `sendCode()` asks for a code (throws on failure), then the page moves on. */
export function RequestStep({ email, setEmail, sendCode }: { email: string; setEmail: (v: string) => void; sendCode: () => Promise<void> }) {
  const [emailErr, setEmailErr] = useState<string>();
  const [serverError, setServerError] = useState('');
  const [submitting, setSubmitting] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setServerError('');
    const err = emailError(email);
    setEmailErr(err);
    if (err) return;
    setSubmitting(true);
    try {
      await sendCode();
    } catch (error) {
      setServerError(serverMessage(error) ?? GENERIC_ERROR_MESSAGE);
      setSubmitting(false);
    }
  }

  return (
    <form className="form" onSubmit={submit} noValidate>
      {serverError && <Alert kind="error">{serverError}</Alert>}
      <div className="field">
        <label htmlFor="forgot-email">Email</label>
        <input
          id="forgot-email"
          type="email"
          name="email"
          autoComplete="email"
          placeholder="you@example.com"
          value={email}
          autoFocus
          aria-invalid={Boolean(emailErr)}
          aria-describedby={emailErr ? 'forgot-email-error' : undefined}
          onChange={(e) => {
            setEmail(e.target.value);
            setEmailErr(undefined);
            setServerError('');
          }}
        />
        <FieldError id="forgot-email-error">{emailErr}</FieldError>
      </div>
      <button type="submit" className="btn btn-primary btn-block" disabled={submitting}>
        {submitting ? 'Sending...' : 'Send reset code'}
      </button>
    </form>
  );
}

/**
 * Step 2: the code (prefilled from the e-mail's link: `initialCode`, `fromLink` focuses the
 * password instead), the new password twice; `notice` is the last "code sent" message (`key`
 * changes on every send, so a resend is announced again). `onDone(message)` after the reset.
 */
export function ResetStep({
  email,
  initialCode,
  fromLink,
  notice,
  resendCode,
  onChangeEmail,
  onDone,
}: {
  email: string;
  initialCode: string;
  fromLink: boolean;
  notice: { text: string; key: number };
  resendCode: () => Promise<void>;
  onChangeEmail: () => void;
  onDone: (message: string) => void;
}) {
  const [code, setCode] = useState(initialCode);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<ResetField, string>>>({});
  const [serverError, setServerError] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [resending, setResending] = useState(false);

  function validate(): Partial<Record<ResetField, string>> {
    const out: Partial<Record<ResetField, string>> = {};
    if (code.length !== VERIFICATION_CODE_LENGTH) out.code = 'Please enter the complete 6-digit code';
    if (password.length < MIN_PASSWORD_LENGTH) out.password = 'Password must be at least 8 characters';
    if (confirm !== password) out.confirm = 'Passwords do not match';
    return out;
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setServerError('');
    const found = validate();
    setErrors(found);
    if (Object.values(found).some(Boolean)) {
      const first = (['code', 'password', 'confirm'] as const).find((f) => found[f]);
      if (first) document.getElementById(`reset-${first}`)?.focus();
      return;
    }
    setSubmitting(true);
    try {
      const res = await api.resetPassword({ email: email.trim(), code, password, password_confirmation: confirm });
      onDone(res.message);
    } catch (error) {
      setServerError(serverMessage(error) ?? GENERIC_ERROR_MESSAGE);
      setSubmitting(false);
    }
  }

  async function resend() {
    setServerError('');
    setResending(true);
    try {
      await resendCode();
    } catch (error) {
      setServerError(serverMessage(error) ?? GENERIC_ERROR_MESSAGE);
    } finally {
      setResending(false);
    }
  }

  function edit(field: ResetField, value: string) {
    if (field === 'code') setCode(value.replace(/\s/g, '').slice(0, VERIFICATION_CODE_LENGTH));
    if (field === 'password') setPassword(value);
    if (field === 'confirm') setConfirm(value);
    setErrors((er) => ({ ...er, [field]: undefined }));
    setServerError('');
  }

  const fieldProps = (field: ResetField) => ({
    id: `reset-${field}`,
    'aria-invalid': Boolean(errors[field]),
    'aria-describedby': errors[field] ? `reset-${field}-error` : undefined,
  });

  return (
    <form className="form" onSubmit={submit} noValidate>
      {notice.text && (
        <Alert key={notice.key} kind="success">
          {notice.text}
        </Alert>
      )}
      {serverError && <Alert kind="error">{serverError}</Alert>}
      <div className="field">
        <label htmlFor="reset-code">Reset code</label>
        <CodeInput
          {...fieldProps('code')}
          value={code}
          autoFocus={!fromLink}
          onChange={(e) => edit('code', e.target.value)}
        />
        <FieldError id="reset-code-error">{errors.code}</FieldError>
      </div>
      <PasswordField
        id="reset-password"
        label="New password"
        name="password"
        autoComplete="new-password"
        value={password}
        autoFocus={fromLink}
        error={errors.password}
        onChange={(value) => edit('password', value)}
        shown={showPassword}
        onToggleShown={() => setShowPassword((s) => !s)}
      />
      <PasswordField
        id="reset-confirm"
        label="Confirm new password"
        name="password_confirmation"
        autoComplete="new-password"
        value={confirm}
        error={errors.confirm}
        onChange={(value) => edit('confirm', value)}
        shown={showPassword}
      />
      <button type="submit" className="btn btn-primary btn-block" disabled={submitting}>
        {submitting ? 'Resetting...' : 'Reset password'}
      </button>
      <div className="center muted small">
        <p>
          Didn&apos;t get a code?{' '}
          <button type="button" className="btn btn-link" onClick={resend} disabled={resending}>
            {resending ? 'Sending...' : 'Send a new code'}
          </button>
        </p>
        <p>
          Wrong address?{' '}
          <button type="button" className="btn btn-link" onClick={onChangeEmail}>
            Use a different email
          </button>
        </p>
      </div>
    </form>
  );
}

/** Step 3: the server's confirmation (focused, announced) and 'Sign in'. */
export function DoneStep({ message }: { message: ReactNode }) {
  const doneRef = useRef<HTMLDivElement>(null);
  useEffect(() => doneRef.current?.focus(), []);
  return (
    <div className="verify-success" ref={doneRef} tabIndex={-1}>
      <div className="success-badge" aria-hidden="true">
        ✓
      </div>
      <p className="lead" role="status">
        {message}
      </p>
      <Link to="/login" className="btn btn-primary btn-block">
        Sign in
      </Link>
    </div>
  );
}
