/**
 * The limits of a proposal's texts (issue 4, issue 24), in characters, and the error of a message
 * over its limit. Kept apart from proposal.schema.ts, which re-exports them, so that the public
 * page can read them without loading zod (its JavaScript budget, scripts/bench/public-page-js.ts).
 */

/** Longest visitor's name (characters). */
export const PROPOSAL_NAME_MAX = 100;
/** Longest note a visitor adds to a proposal (characters). */
export const PROPOSAL_NOTE_MAX = 1000;
/** Longest message the owner adds to a decline or a cancel (characters). */
export const PROPOSAL_MESSAGE_MAX = 1000;
/** The error for a longer message: 'Message must be no more than 1000 characters' (the server, device writes, the owner's message fields). */
export const PROPOSAL_MESSAGE_TOO_LONG = `Message must be no more than ${PROPOSAL_MESSAGE_MAX} characters`;
