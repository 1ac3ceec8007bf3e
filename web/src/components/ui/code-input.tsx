/**
 * The 6-digit code field (e-mail verification, password reset; spec §5): numeric keyboard, the
 * browser's one-time-code autofill, at most VERIFICATION_CODE_LENGTH characters. Other input
 * attributes (id, value, onChange, aria-*) pass through.
 */
import type { InputHTMLAttributes } from 'react';
import { VERIFICATION_CODE_LENGTH } from '@avail/shared/constants.ts';

export function CodeInput(props: InputHTMLAttributes<HTMLInputElement>) {
  return <input className="code-input" name="code" inputMode="numeric" autoComplete="one-time-code" placeholder="000000" maxLength={VERIFICATION_CODE_LENGTH} {...props} />;
}
