/**
 * Settings → Privacy & Security → E-mail address (issue 26; docs/account-security.md "E-mail change"),
 * in two steps:
 *  1. the new address and the password (POST /me/email): a 6-digit code goes to the new address
 *     (409 `errors.email` taken, 422 `errors.password` / `errors.email`, 429 too many codes); with
 *     two-factor sign-in on (the session's user says so, or the server answered 422 with
 *     `errors.two_factor_code`) an "Authentication code" field asks for the authenticator's or a
 *     recovery code too;
 *  2. the code (POST /me/email/verify): the account moves to the new address, the session's user is
 *     read again (refreshUser) so every screen shows it, and the old address gets a notice
 *     (422 `invalid_code`, 429 after 5 wrong guesses: ask for a new code).
 * Field errors show under their field; other failures above the form.
 */
import { useState, type FormEvent } from 'react';
import { api, ApiError, serverMessage } from '@avail/shared/api/api-client.ts';
import { GENERIC_ERROR_MESSAGE, VERIFICATION_CODE_LENGTH } from '@avail/shared/constants.ts';
import { EMAIL_PATTERN } from '@avail/shared/schemas/auth.schema.ts';
import { useSession } from '../../data/session.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { CodeInput } from '../../components/ui/code-input.tsx';
import { FieldError } from '../../components/ui/field-error.tsx';
import { PasswordField } from '../../components/password-field.tsx';
import { cleanAnyCode } from '../../lib/two-factor.ts';
import { AUTH_CODE_REQUIRED, AuthCodeField } from './auth-code-field.tsx';

type Step = { kind: 'request' } | { kind: 'code'; email: string; message: string };
type RequestField = 'email' | 'password' | 'two_factor_code';
const REQUEST_IDS: Record<RequestField, string> = { email: 'email-change-new', password: 'email-change-password', two_factor_code: 'email-change-two-factor-code' };

export function EmailChangeSection() {
  const { user, refreshUser } = useSession();
  const [step, setStep] = useState<Step>({ kind: 'request' });
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [authCode, setAuthCode] = useState('');
  const [serverAsksCode, setServerAsksCode] = useState(false);
  const askCode = serverAsksCode || Boolean(user?.two_factor_enabled);
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Partial<Record<RequestField | 'code', string>>>({});
  const [formError, setFormError] = useState('');
  const [success, setSuccess] = useState('');
  const [busy, setBusy] = useState(false);

  function fieldErrorsOf(err: unknown, fields: Array<RequestField | 'code'>): Partial<Record<RequestField | 'code', string>> {
    const all = err instanceof ApiError ? err.fieldErrors : undefined;
    return Object.fromEntries(fields.filter((f) => all?.[f]).map((f) => [f, all![f]]));
  }

  async function request(e: FormEvent) {
    e.preventDefault();
    setFormError('');
    setSuccess('');
    const found: Partial<Record<RequestField, string>> = {};
    const address = email.trim();
    if (!address) found.email = 'Email is required';
    else if (!EMAIL_PATTERN.test(address)) found.email = 'Email is invalid';
    else if (address.toLowerCase() === user?.email.toLowerCase()) found.email = 'This is already your e-mail address';
    if (!password) found.password = 'Enter your password';
    if (askCode && !authCode.trim()) found.two_factor_code = AUTH_CODE_REQUIRED;
    setErrors(found);
    const firstFound = (Object.keys(REQUEST_IDS) as RequestField[]).find((f) => found[f]);
    if (firstFound) {
      document.getElementById(REQUEST_IDS[firstFound])?.focus();
      return;
    }
    setBusy(true);
    try {
      const res = await api.requestEmailChange(askCode ? { email: address, password, two_factor_code: cleanAnyCode(authCode) } : { email: address, password });
      setPassword('');
      setAuthCode('');
      setCode('');
      setStep({ kind: 'code', email: res.email || address, message: res.message });
    } catch (err) {
      const fields = fieldErrorsOf(err, ['email', 'password', 'two_factor_code']);
      if (fields.two_factor_code) setServerAsksCode(true);
      const firstField = (Object.keys(REQUEST_IDS) as RequestField[]).find((f) => fields[f]);
      if (firstField) {
        setErrors(fields);
        // The code field may appear only now (the server asked for it): focus after it rendered.
        setTimeout(() => document.getElementById(REQUEST_IDS[firstField])?.focus(), 0);
      } else {
        setFormError(serverMessage(err) ?? GENERIC_ERROR_MESSAGE);
      }
    } finally {
      setBusy(false);
    }
  }

  async function verify(e: FormEvent) {
    e.preventDefault();
    setFormError('');
    if (code.length !== VERIFICATION_CODE_LENGTH) {
      setErrors({ code: 'Please enter the complete 6-digit code' });
      document.getElementById('email-change-code')?.focus();
      return;
    }
    setBusy(true);
    try {
      const res = await api.verifyEmailChange(code);
      await refreshUser().catch(() => undefined);
      setStep({ kind: 'request' });
      setEmail('');
      setCode('');
      setErrors({});
      setSuccess(res.message || 'Your e-mail address has been changed.');
    } catch (err) {
      const fields = fieldErrorsOf(err, ['code']);
      const message = fields.code ?? serverMessage(err) ?? GENERIC_ERROR_MESSAGE;
      // A wrong or expired code belongs to the code field; anything else (429: too many guesses) above the form.
      if (fields.code || (err instanceof ApiError && err.code === 'invalid_code')) setErrors({ code: message });
      else setFormError(message);
      document.getElementById('email-change-code')?.focus();
    } finally {
      setBusy(false);
    }
  }

  function startOver() {
    setStep({ kind: 'request' });
    setCode('');
    setErrors({});
    setFormError('');
  }

  return (
    <div className="account-block" role="group" aria-labelledby="email-change-title">
      <h3 id="email-change-title" className="subhead">
        E-mail address
      </h3>
      <p className="muted small">
        You sign in with <strong className="account-email">{user?.email}</strong>. A new address is confirmed with a code sent to it; the current one gets a notice.
      </p>
      {step.kind === 'request' ? (
        <form className="form account-form" onSubmit={request} noValidate>
          {formError && <Alert kind="error">{formError}</Alert>}
          <div className="field">
            <label htmlFor="email-change-new">New e-mail address</label>
            <input
              id="email-change-new"
              type="email"
              autoComplete="email"
              value={email}
              aria-invalid={Boolean(errors.email)}
              aria-describedby={errors.email ? 'email-change-new-error' : undefined}
              onChange={(e) => {
                setEmail(e.target.value);
                setErrors((x) => ({ ...x, email: undefined }));
                setSuccess('');
              }}
            />
            <FieldError id="email-change-new-error">{errors.email}</FieldError>
          </div>
          <PasswordField
            id="email-change-password"
            label="Password"
            autoComplete="current-password"
            value={password}
            error={errors.password}
            onChange={(value) => {
              setPassword(value);
              setErrors((x) => ({ ...x, password: undefined }));
            }}
          />
          {askCode && (
            <AuthCodeField
              id={REQUEST_IDS.two_factor_code}
              value={authCode}
              error={errors.two_factor_code}
              onChange={(v) => {
                setAuthCode(v);
                setErrors((x) => ({ ...x, two_factor_code: undefined }));
              }}
            />
          )}
          <div>
            <button type="submit" className="btn btn-secondary" disabled={busy}>
              {busy ? 'Sending...' : 'Send code'}
            </button>
          </div>
        </form>
      ) : (
        <form className="form account-form" onSubmit={verify} noValidate>
          <p className="small" role="status">
            {step.message || `We sent a 6-digit code to ${step.email}.`}
          </p>
          {formError && <Alert kind="error">{formError}</Alert>}
          <div className="field">
            <label htmlFor="email-change-code">Code from the e-mail</label>
            <CodeInput
              id="email-change-code"
              value={code}
              autoFocus
              aria-invalid={Boolean(errors.code)}
              aria-describedby={errors.code ? 'email-change-code-error' : 'email-change-code-hint'}
              onChange={(e) => {
                setCode(e.target.value.replace(/\s/g, '').slice(0, VERIFICATION_CODE_LENGTH));
                setErrors({});
                setFormError('');
              }}
            />
            {errors.code ? (
              <FieldError id="email-change-code-error">{errors.code}</FieldError>
            ) : (
              <p id="email-change-code-hint" className="muted small">
                The code works for 15 minutes.
              </p>
            )}
          </div>
          <div className="account-actions">
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy ? 'Confirming...' : 'Confirm new address'}
            </button>
            <button type="button" className="btn btn-ghost" onClick={startOver} disabled={busy}>
              Use another address
            </button>
          </div>
        </form>
      )}
      <p className="account-success small" role="status">
        {success}
      </p>
    </div>
  );
}
