/**
 * Local-first decisions on a visitor's proposal (issue 24): the owner confirms, declines or cancels
 * on the device — also offline — by setting the proposal's `request_*` fields (the only fields a
 * device may write, with its `edited_at`/`device_id`); replication pushes them, the server carries
 * the action out and writes the outcome back (`status`, `request_action` null again, or
 * `request_error`). Until then the proposal shows the action as pending.
 *
 * Same checks as the REST calls where the device can make them: the message ≤ PROPOSAL_MESSAGE_MAX characters
 * (`proposalMessageSchema`), confirm/decline only a pending proposal, cancel only a confirmed one.
 */
import { proposalMessageSchema, type CalendarTarget, type ProposalAction } from '../schemas/proposal.schema.ts';
import type { AvailDatabase } from './avail-database.ts';
import { markPending, newEdit } from './local-writes.ts';
import type { ProposalDoc } from './rx-schemas.ts';

/** What the owner asks for: the action, a decline's or cancel's message, a confirm's calendar (absent: the settings' one). */
export interface ProposalRequest {
  action: ProposalAction;
  message?: string | null;
  target?: CalendarTarget | null;
}

/** Thrown when the action does not fit the proposal as the device knows it (text shown to the owner). */
export class ProposalRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProposalRequestError';
  }
}

export const NOT_ON_DEVICE_MESSAGE = 'This proposal is not on this device yet.';
export const ALREADY_DECIDED_MESSAGE = 'This proposal has already been decided.';
export const NOT_CONFIRMED_MESSAGE = 'Only a confirmed meeting can be cancelled.';

/**
 * Why `action` cannot be asked of a proposal with `status`, or null when it can: confirm and
 * decline need `pending`, cancel needs `confirmed`. Pure.
 */
export function proposalActionRefusal(status: string, action: ProposalAction): string | null {
  if (action === 'cancel') return status === 'confirmed' ? null : NOT_CONFIRMED_MESSAGE;
  return status === 'pending' ? null : ALREADY_DECIDED_MESSAGE;
}

/**
 * The `request_*` fields of `req` (pure): confirm → no message, the target's ids or null; decline
 * and cancel → the trimmed message ('' none), no target.
 * @throws ZodError PROPOSAL_MESSAGE_TOO_LONG (the message is over PROPOSAL_MESSAGE_MAX characters).
 */
export function proposalRequestFields(req: ProposalRequest): Pick<ProposalDoc, 'request_action' | 'request_message' | 'request_connection_id' | 'request_calendar_id'> {
  if (req.action === 'confirm') {
    return {
      request_action: 'confirm',
      request_message: null,
      request_connection_id: req.target?.connection_id ?? null,
      request_calendar_id: req.target?.calendar_id ?? null,
    };
  }
  const { message } = proposalMessageSchema.parse({ message: req.message ?? '' });
  return { request_action: req.action, request_message: message, request_connection_id: null, request_calendar_id: null };
}

/**
 * Asks for `req` on proposal `id` on the device: writes the `request_*` fields stamped with the
 * device's hybrid logical clock and id, and marks the write pending until the server has it.
 * @returns the stored document.
 * @throws ProposalRequestError when the proposal is not on the device or the action does not fit
 *   its status (nothing is written then); ZodError for a message over PROPOSAL_MESSAGE_MAX characters.
 */
export async function requestProposalActionLocal(db: AvailDatabase, deviceId: string, id: string, req: ProposalRequest): Promise<ProposalDoc> {
  const fields = proposalRequestFields(req);
  const cur = await db.proposals.findOne(id).exec();
  if (!cur) throw new ProposalRequestError(NOT_ON_DEVICE_MESSAGE);
  const refusal = proposalActionRefusal(cur.status, req.action);
  if (refusal) throw new ProposalRequestError(refusal);
  const edit = newEdit(db);
  const next = await cur.incrementalModify((data) => ({ ...data, ...fields, edited_at: edit.at, device_id: deviceId }));
  await markPending(db, [{ collection: 'proposals', id, edit }]);
  return next.toJSON() as ProposalDoc;
}
