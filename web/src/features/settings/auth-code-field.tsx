/**
 * The "Authentication code" field of a change to the account made while signed in with two-factor
 * sign-in on (issue 26; docs/account-security.md): changing the password or the e-mail address.
 * It takes the 6-digit code of the authenticator app or a recovery code (`xxxxx-xxxxx`), so the
 * keyboard is not limited to digits (a phone's numeric keypad has no letters); send it through
 * `cleanAnyCode` (lib/two-factor.ts). The error (the client's or the server's
 * `errors.two_factor_code`) shows under the field, tied to it with aria-describedby.
 */
import { FieldError } from '../../components/ui/field-error.tsx';

/** What the client says when the field is left empty (the server's own wording). */
export const AUTH_CODE_REQUIRED = 'Enter the 6-digit code from your authenticator app.';

/**
 * `label` defaults to "Authentication code" with a hint under the field; with a `label` that
 * already says what the field takes (turning two-factor off, deleting the account), no hint.
 */
export function AuthCodeField({ id, value, error, onChange, label }: { id: string; value: string; error?: string; onChange: (value: string) => void; label?: string }) {
  const hint = label === undefined;
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label ?? 'Authentication code'}</label>
      <input
        id={id}
        type="text"
        name="two_factor_code"
        autoComplete="one-time-code"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={24}
        value={value}
        aria-invalid={Boolean(error)}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.value)}
      />
      {error || !hint ? (
        <FieldError id={`${id}-error`}>{error}</FieldError>
      ) : (
        <p id={`${id}-hint`} className="muted small">
          The 6-digit code from your authenticator app, or one of your recovery codes.
        </p>
      )}
    </div>
  );
}
