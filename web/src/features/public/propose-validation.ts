/** What the propose dialog and form share: the chosen window, and the visitor fields' checks (issue 4). */
import { PROPOSAL_NAME_MAX } from '@avail/shared/schemas/proposal-limits.ts';

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

/** A field check's failure: the key of its text under `propose.` (in English, the server's message). */
type ProposalError = 'nameRequired' | 'nameTooLong' | 'emailRequired' | 'emailInvalid';
export type Errors = Partial<Record<'name' | 'email', ProposalError>>;

/**
 * Client checks, the server's rules: name required, ≤ PROPOSAL_NAME_MAX (100) characters; e-mail required, ≤ 254
 * characters, one address without header-breaking characters. Texts: `t('propose.' + error)`
 * ('Name is required', 'Email is invalid', … in English).
 */
export function validateProposal(name: string, email: string): Errors {
  const errors: Errors = {};
  if (!name.trim()) errors.name = 'nameRequired';
  else if (name.trim().length > PROPOSAL_NAME_MAX) errors.name = 'nameTooLong';
  const e = email.trim();
  if (!e) errors.email = 'emailRequired';
  else if (e.length > 254 || !EMAIL_PATTERN.test(e) || /[,;<>()"\\[\]]/.test(e)) errors.email = 'emailInvalid';
  return errors;
}
