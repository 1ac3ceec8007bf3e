import type { ReactNode } from 'react';

/** A field's error line (announced by screen readers); nothing when there is no error. */
export function FieldError({ id, children }: { id: string; children?: ReactNode }) {
  if (!children) return null;
  return (
    <p id={id} className="field-error" role="alert">
      {children}
    </p>
  );
}
