/**
 * /forgot-password: a real password reset. Step 1 asks for the e-mail and sends a 6-digit reset
 * code; step 2 takes the code and a new password; then a 'Sign in' link. `?email=&code=` (the
 * e-mail's link) prefills the form and opens step 2 directly.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { api, serverMessage } from '@avail/shared/api/api-client.ts';
import { GENERIC_ERROR_MESSAGE, MIN_PASSWORD_LENGTH, VERIFICATION_CODE_LENGTH } from '@avail/shared/constants.ts';
import { EMAIL_PATTERN } from '@avail/shared/schemas/auth.schema.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { AuthLayout } from './auth-layout.tsx';
import { FieldError } from '../../components/ui/field-error.tsx';
import { PasswordToggle } from '../../components/ui/password-toggle.tsx';

type Step = 'request' | 'reset' | 'done';
type ResetField = 'code' | 'password' | 'confirm';

const TITLES: Record<Step, string> = {
  request: 'Forgot your password?',
  reset: 'Reset your password',
  done: 'Password reset',
};

/** The e-mail field's client-side check (spec §5 wording). */
function emailError(email: string): string | undefined {
  if (!email.trim()) return 'Email is required';
  if (!EMAIL_PATTERN.test(email.trim())) return 'Email is invalid';
  return undefined;
}

/** The forgot-password / reset-password screen. */
export default function ForgotPasswordPage() {
  const [params] = useSearchParams();
  const urlEmail = (params.get('email') ?? '').trim();
  const urlCode = (params.get('code') ?? '').trim();
  const linkCode = urlCode.length === VERIFICATION_CODE_LENGTH ? urlCode : '';

  const [step, setStep] = useState<Step>(urlEmail && linkCode ? 'reset' : 'request');
  const [email, setEmail] = useState(urlEmail);
  const [emailErr, setEmailErr] = useState<string>();
  const [code, setCode] = useState(linkCode);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<ResetField, string>>>({});
  const [serverError, setServerError] = useState('');
  const [notice, setNotice] = useState('');
  const [noticeKey, setNoticeKey] = useState(0);
  const [doneMessage, setDoneMessage] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [resending, setResending] = useState(false);
  const doneRef = useRef<HTMLDivElement>(null);

  // Declared first so it captures the title from before this page set its own.
  useEffect(() => {
    const previous = document.title;
    return () => {
      document.title = previous;
    };
  }, []);
  useEffect(() => {
    document.title = `${TITLES[step]} · Avail`;
    if (step === 'done') doneRef.current?.focus();
  }, [step]);

  async function sendCode() {
    const res = await api.forgotPassword(email.trim());
    setNotice(res.message);
    setNoticeKey((k) => k + 1); // a fresh status element, so a resend is announced again
  }

  async function onRequest(e: FormEvent) {
    e.preventDefault();
    setServerError('');
    const err = emailError(email);
    setEmailErr(err);
    if (err) return;
    setSubmitting(true);
    try {
      await sendCode();
      setStep('reset');
    } catch (error) {
      setServerError(serverMessage(error) ?? GENERIC_ERROR_MESSAGE);
    } finally {
      setSubmitting(false);
    }
  }

  async function onResend() {
    setServerError('');
    setResending(true);
    try {
      await sendCode();
    } catch (error) {
      setServerError(serverMessage(error) ?? GENERIC_ERROR_MESSAGE);
    } finally {
      setResending(false);
    }
  }

  function validateReset(): Partial<Record<ResetField, string>> {
    const out: Partial<Record<ResetField, string>> = {};
    if (code.length !== VERIFICATION_CODE_LENGTH) out.code = 'Please enter the complete 6-digit code';
    if (password.length < MIN_PASSWORD_LENGTH) out.password = 'Password must be at least 8 characters';
    if (confirm !== password) out.confirm = 'Passwords do not match';
    return out;
  }

  async function onReset(e: FormEvent) {
    e.preventDefault();
    setServerError('');
    const found = validateReset();
    setErrors(found);
    if (Object.values(found).some(Boolean)) {
      const first = (['code', 'password', 'confirm'] as const).find((f) => found[f]);
      if (first) document.getElementById(`reset-${first}`)?.focus();
      return;
    }
    setSubmitting(true);
    try {
      const res = await api.resetPassword({ email: email.trim(), code, password, password_confirmation: confirm });
      setDoneMessage(res.message);
      setStep('done');
    } catch (error) {
      setServerError(serverMessage(error) ?? GENERIC_ERROR_MESSAGE);
    } finally {
      setSubmitting(false);
    }
  }

  function edit(field: ResetField, value: string) {
    if (field === 'code') setCode(value.replace(/\s/g, '').slice(0, VERIFICATION_CODE_LENGTH));
    if (field === 'password') setPassword(value);
    if (field === 'confirm') setConfirm(value);
    setErrors((er) => ({ ...er, [field]: undefined }));
    setServerError('');
  }

  function changeEmail() {
    setStep('request');
    setNotice('');
    setServerError('');
    setErrors({});
    setCode('');
  }

  const footer = (
    <p>
      Remembered it? <Link to="/login">Back to sign in</Link>
    </p>
  );

  if (step === 'done') {
    return (
      <AuthLayout title={TITLES.done}>
        <div className="verify-success" ref={doneRef} tabIndex={-1}>
          <div className="success-badge" aria-hidden="true">
            ✓
          </div>
          <p className="lead" role="status">
            {doneMessage}
          </p>
          <Link to="/login" className="btn btn-primary btn-block">
            Sign in
          </Link>
        </div>
      </AuthLayout>
    );
  }

  if (step === 'request') {
    return (
      <AuthLayout title={TITLES.request} subtitle="Enter the e-mail you signed up with and we will send you a 6-digit reset code." footer={footer}>
        <form className="form" onSubmit={onRequest} noValidate>
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
      </AuthLayout>
    );
  }

  const fieldProps = (field: ResetField) => ({
    id: `reset-${field}`,
    'aria-invalid': Boolean(errors[field]),
    'aria-describedby': errors[field] ? `reset-${field}-error` : undefined,
  });

  return (
    <AuthLayout
      title={TITLES.reset}
      subtitle={
        <>
          Enter the 6-digit code from our e-mail to <strong>{email.trim()}</strong> and choose a new password.
        </>
      }
      footer={footer}
    >
      <form className="form" onSubmit={onReset} noValidate>
        {notice && (
          <Alert key={noticeKey} kind="success">
            {notice}
          </Alert>
        )}
        {serverError && <Alert kind="error">{serverError}</Alert>}
        <div className="field">
          <label htmlFor="reset-code">Reset code</label>
          <input
            {...fieldProps('code')}
            className="code-input"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            placeholder="000000"
            maxLength={VERIFICATION_CODE_LENGTH}
            value={code}
            autoFocus={!linkCode}
            onChange={(e) => edit('code', e.target.value)}
          />
          <FieldError id="reset-code-error">{errors.code}</FieldError>
        </div>
        <div className="field">
          <label htmlFor="reset-password">New password</label>
          <div className="input-with-action">
            <input
              {...fieldProps('password')}
              type={showPassword ? 'text' : 'password'}
              name="password"
              autoComplete="new-password"
              value={password}
              autoFocus={Boolean(linkCode)}
              onChange={(e) => edit('password', e.target.value)}
            />
            <PasswordToggle shown={showPassword} onToggle={() => setShowPassword((s) => !s)} />
          </div>
          <FieldError id="reset-password-error">{errors.password}</FieldError>
        </div>
        <div className="field">
          <label htmlFor="reset-confirm">Confirm new password</label>
          <input
            {...fieldProps('confirm')}
            type={showPassword ? 'text' : 'password'}
            name="password_confirmation"
            autoComplete="new-password"
            value={confirm}
            onChange={(e) => edit('confirm', e.target.value)}
          />
          <FieldError id="reset-confirm-error">{errors.confirm}</FieldError>
        </div>
        <button type="submit" className="btn btn-primary btn-block" disabled={submitting}>
          {submitting ? 'Resetting...' : 'Reset password'}
        </button>
        <div className="center muted small">
          <p>
            Didn&apos;t get a code?{' '}
            <button type="button" className="btn btn-link" onClick={onResend} disabled={resending}>
              {resending ? 'Sending...' : 'Send a new code'}
            </button>
          </p>
          <p>
            Wrong address?{' '}
            <button type="button" className="btn btn-link" onClick={changeEmail}>
              Use a different email
            </button>
          </p>
        </div>
      </form>
    </AuthLayout>
  );
}
