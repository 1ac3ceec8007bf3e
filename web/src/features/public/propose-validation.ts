/** What the propose dialog and form share: the chosen window, and the visitor fields' checks (issue 4). */

/** A free window (or its part on one day) the visitor chose, and the instant they pointed at. */
export interface ProposeTarget {
  startMs: number;
  endMs: number;
  /** Preferred start (week view: where the block was clicked). */
  atMs?: number;
  /** The element to focus again when the dialog closes. */
  returnFocus?: HTMLElement | null;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type Errors = Partial<Record<'name' | 'email', string>>;

/** Client checks with the server's messages: 'Name is required', 'Email is required', 'Email is invalid'. */
export function validateProposal(name: string, email: string): Errors {
  const errors: Errors = {};
  if (!name.trim()) errors.name = 'Name is required';
  else if (name.trim().length > 100) errors.name = 'Name must be no more than 100 characters';
  const e = email.trim();
  if (!e) errors.email = 'Email is required';
  else if (e.length > 254 || !EMAIL_PATTERN.test(e) || /[,;<>()"\\[\]]/.test(e)) errors.email = 'Email is invalid';
  return errors;
}
