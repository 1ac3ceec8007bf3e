/**
 * The two forms of Settings → E-mail address (email-change-section.tsx; issue 26,
 * docs/account-security.md "E-mail change"): the request (new address, password and, with
 * two-factor sign-in on, an authentication code: POST /me/email) and the code sent to the new
 * address (POST /me/email/verify). Field errors show under their field; other failures above the form.
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

type RequestField = 'email' | 'password' | 'two_factor_code';
const REQUEST_IDS: Record<RequestField, string> = { email: 'email-change-new', password: 'email-change-password', two_factor_code: 'email-change-two-factor-code' };

/** The server's errors (`errors.<field>` of an ApiError) for `fields`. */
function fieldErrorsOf(err: unknown, fields: Array<RequestField | 'code'>): Partial<Record<RequestField | 'code', string>> {
  const all = err instanceof ApiError ? err.fieldErrors : undefined;
  return Object.fromEntries(fields.filter((f) => all?.[f]).map((f) => [f, all![f]]));
}

/**
 * Step 1. `email`/`onEmailChange`: the new address (the section's: it outlasts step 2);
 * `currentEmail`: the account's; `askCode`: two-factor sign-in is on (the "Authentication code"
 * field shows); `onServerAsksCode` when the server asked for that code; `onEdit` when the owner
 * edits the address or sends the form (the section's success line clears); `onSent(email, message)`
 * when the code went out.
 */
export function EmailRequestForm({
  email,
  onEmailChange,
  currentEmail,
  askCode,
  onServerAsksCode,
  onEdit,
  onSent,
}: {
  email: string;
  onEmailChange: (email: string) => void;
  currentEmail: string;
  askCode: boolean;
  onServerAsksCode: () => void;
  onEdit: () => void;
  onSent: (email: string, message: string) => void;
}) {
  const [password, setPassword] = useState('');
  const [authCode, setAuthCode] = useState('');
  const [errors, setErrors] = useState<Partial<Record<RequestField, string>>>({});
  const [formError, setFormError] = useState('');
  const [busy, setBusy] = useState(false);

  async function request(e: FormEvent) {
    e.preventDefault();
    setFormError('');
    onEdit();
    const found: Partial<Record<RequestField, string>> = {};
    const address = email.trim();
    if (!address) found.email = 'Email is required';
    else if (!EMAIL_PATTERN.test(address)) found.email = 'Email is invalid';
    else if (address.toLowerCase() === currentEmail.toLowerCase()) found.email = 'This is already your e-mail address';
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
      onSent(res.email || address, res.message);
    } catch (err) {
      const fields = fieldErrorsOf(err, ['email', 'password', 'two_factor_code']);
      if (fields.two_factor_code) onServerAsksCode();
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

  return (
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
            onEmailChange(e.target.value);
            setErrors((x) => ({ ...x, email: undefined }));
            onEdit();
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
  );
}

/**
 * Step 2: the 6-digit code sent to `email` (`message`: the server's words about it). `onChanged(message)`
 * after the account moved to the new address (the session's user read again); `onStartOver`: back to step 1.
 */
export function EmailCodeForm({ email, message, onChanged, onStartOver }: { email: string; message: string; onChanged: (message: string) => void; onStartOver: () => void }) {
  const { refreshUser } = useSession();
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ code?: string }>({});
  const [formError, setFormError] = useState('');
  const [busy, setBusy] = useState(false);

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
      onChanged(res.message || 'Your e-mail address has been changed.');
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

  return (
    <form className="form account-form" onSubmit={verify} noValidate>
      <p className="small" role="status">
        {message || `We sent a 6-digit code to ${email}.`}
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
        <button type="button" className="btn btn-ghost" onClick={onStartOver} disabled={busy}>
          Use another address
        </button>
      </div>
    </form>
  );
}
