/**
 * Settings → Privacy & Security → Change password (issue 26; docs/account-security.md "Password change
 * while signed in"): the current password, the new one and its confirmation (PUT /me/password).
 * The rules are checked here first with the server's wording ('Password must be at least 8
 * characters', 'Passwords do not match'); the server's field errors (`errors.current_password`,
 * `errors.password`, `errors.password_confirmation`) show under their fields, any other failure (429
 * while throttled) above the form. On success the server's message says other devices were signed
 * out (the device list is read again); this device stays signed in. With two-factor sign-in on
 * (the session's user says so, or the server answered 422 with `errors.two_factor_code`) an
 * "Authentication code" field asks for the authenticator's or a recovery code too.
 */
import { useState, type FormEvent } from 'react';
import { api, ApiError, serverMessage, setToken } from '@avail/shared/api/api-client.ts';
import { GENERIC_ERROR_MESSAGE, MIN_PASSWORD_LENGTH } from '@avail/shared/constants.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { PasswordField } from '../../components/password-field.tsx';
import { useSession } from '../../data/session.tsx';
import { cleanAnyCode } from '../../lib/two-factor.ts';
import { AUTH_CODE_REQUIRED, AuthCodeField } from './auth-code-field.tsx';
import { SESSIONS_CHANGED_EVENT } from './sessions-section.tsx';

type Field = 'current_password' | 'password' | 'password_confirmation' | 'two_factor_code';
type PasswordName = Exclude<Field, 'two_factor_code'>;
const FIELD_IDS: Record<Field, string> = {
  current_password: 'password-current',
  password: 'password-new',
  password_confirmation: 'password-confirm',
  two_factor_code: 'password-two-factor-code',
};
const EMPTY: Record<Field, string> = { current_password: '', password: '', password_confirmation: '', two_factor_code: '' };

export function PasswordSection() {
  const { user } = useSession();
  const [serverAsksCode, setServerAsksCode] = useState(false);
  const askCode = serverAsksCode || Boolean(user?.two_factor_enabled);
  const [values, setValues] = useState<Record<Field, string>>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState('');
  const [success, setSuccess] = useState('');
  const [saving, setSaving] = useState(false);

  function validate(): Partial<Record<Field, string>> {
    const out: Partial<Record<Field, string>> = {};
    if (!values.current_password) out.current_password = 'Enter your current password';
    if (values.password.length < MIN_PASSWORD_LENGTH) out.password = `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;
    if (values.password_confirmation !== values.password) out.password_confirmation = 'Passwords do not match';
    if (askCode && !values.two_factor_code.trim()) out.two_factor_code = AUTH_CODE_REQUIRED;
    return out;
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setFormError('');
    setSuccess('');
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length > 0) {
      document.getElementById(FIELD_IDS[(Object.keys(found) as Field[])[0]])?.focus();
      return;
    }
    setSaving(true);
    try {
      const { two_factor_code: typedCode, ...passwords } = values;
      const res = await api.changePassword(askCode ? { ...passwords, two_factor_code: cleanAnyCode(typedCode) } : passwords);
      // This device goes on under a new token (the one it sent stopped working; the desktop app stores it through its bridge).
      if (res.token) setToken(res.token);
      setValues(EMPTY);
      setSuccess(res.message || 'Your password has been changed.');
      window.dispatchEvent(new Event(SESSIONS_CHANGED_EVENT)); // the other devices are gone from the list
    } catch (err) {
      const fields = err instanceof ApiError ? err.fieldErrors : undefined;
      const mine = fields ? (Object.keys(FIELD_IDS) as Field[]).filter((f) => fields[f]) : [];
      if (fields?.two_factor_code) setServerAsksCode(true);
      if (mine.length > 0) {
        setErrors(Object.fromEntries(mine.map((f) => [f, fields![f]])));
        // The code field may appear only now (the server asked for it): focus after it rendered.
        setTimeout(() => document.getElementById(FIELD_IDS[mine[0]])?.focus(), 0);
      } else {
        setFormError(serverMessage(err) ?? GENERIC_ERROR_MESSAGE);
      }
    } finally {
      setSaving(false);
    }
  }

  function field(name: PasswordName, label: string, autoComplete: string) {
    return (
      <PasswordField
        id={FIELD_IDS[name]}
        label={label}
        autoComplete={autoComplete}
        value={values[name]}
        error={errors[name]}
        hint={name === 'password' ? `At least ${MIN_PASSWORD_LENGTH} characters.` : undefined}
        onChange={(value) => {
          setValues((v) => ({ ...v, [name]: value }));
          setErrors((x) => ({ ...x, [name]: undefined }));
          setSuccess('');
        }}
      />
    );
  }

  return (
    <div className="account-block" role="group" aria-labelledby="password-title">
      <h3 id="password-title" className="subhead">
        Change password
      </h3>
      <form className="form account-form" onSubmit={onSubmit} noValidate>
        {formError && <Alert kind="error">{formError}</Alert>}
        {field('current_password', 'Current password', 'current-password')}
        {field('password', 'New password', 'new-password')}
        {field('password_confirmation', 'Confirm new password', 'new-password')}
        {askCode && (
          <AuthCodeField
            id={FIELD_IDS.two_factor_code}
            value={values.two_factor_code}
            error={errors.two_factor_code}
            onChange={(v) => {
              setValues((x) => ({ ...x, two_factor_code: v }));
              setErrors((x) => ({ ...x, two_factor_code: undefined }));
              setSuccess('');
            }}
          />
        )}
        <div>
          <button type="submit" className="btn btn-primary" disabled={saving}>
            {saving ? 'Changing...' : 'Change password'}
          </button>
        </div>
      </form>
      <p className="account-success small" role="status">
        {success}
      </p>
    </div>
  );
}
