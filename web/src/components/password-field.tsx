/**
 * The password field of the auth and Settings screens (spec §2 Login / Register / Reset password,
 * §4 Settings; issue 26): a label, the password input and its error line. The error (the client's
 * or the server's) shows under the input as `${id}-error`, tied to it with aria-describedby and
 * aria-invalid; without an error an optional hint shows there as `${id}-hint` instead. Browser
 * tests find each field by its label text, so the label is the caller's, verbatim.
 */
import type { ReactNode } from 'react';
import { FieldError } from './ui/field-error.tsx';
import { PasswordToggle } from './ui/password-toggle.tsx';

interface PasswordFieldProps {
  /** The input's id; the error line is `${id}-error`, the hint `${id}-hint`. */
  id: string;
  label: string;
  value: string;
  /** Gets the input's new value. */
  onChange(value: string): void;
  /** 'current-password' (sign-in, confirming a change) or 'new-password' (register, reset, change). */
  autoComplete: string;
  /** The error shown under the field ('' or undefined: none). */
  error?: string;
  /** Shown under the field while it has no error (e.g. the minimum length). */
  hint?: ReactNode;
  /** The form field's name (the browser's password manager reads it). */
  name?: string;
  placeholder?: string;
  autoFocus?: boolean;
  required?: boolean;
  /** The password shows as text (the show/hide toggle is on; a confirmation field follows its toggle). */
  shown?: boolean;
  /** Gives the field its show/hide toggle (login, password reset). */
  onToggleShown?: () => void;
  /** Beside the label, in one row with it (login: "Forgot password?"). */
  labelAside?: ReactNode;
}

/** A labelled password input with its error line (or hint) and, when asked, the show/hide toggle. */
export function PasswordField({ id, label, value, onChange, autoComplete, error, hint, name, placeholder, autoFocus, required, shown = false, onToggleShown, labelAside }: PasswordFieldProps) {
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  const labelElement = <label htmlFor={id}>{label}</label>;
  const input = (
    <input
      id={id}
      type={shown ? 'text' : 'password'}
      name={name}
      autoComplete={autoComplete}
      required={required}
      value={value}
      placeholder={placeholder}
      autoFocus={autoFocus}
      aria-invalid={Boolean(error)}
      aria-describedby={describedBy}
      onChange={(e) => onChange(e.target.value)}
    />
  );
  return (
    <div className="field">
      {labelAside ? (
        <div className="field-label-row">
          {labelElement}
          {labelAside}
        </div>
      ) : (
        labelElement
      )}
      {onToggleShown ? (
        <div className="input-with-action">
          {input}
          <PasswordToggle shown={shown} onToggle={onToggleShown} />
        </div>
      ) : (
        input
      )}
      {error || !hint ? (
        <FieldError id={`${id}-error`}>{error}</FieldError>
      ) : (
        <p id={`${id}-hint`} className="muted small">
          {hint}
        </p>
      )}
    </div>
  );
}
