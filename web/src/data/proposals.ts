/**
 * Visitors' proposals for the owner's screens (issue 24): one shape for the device database's
 * documents and the REST answers, newest first, and the owner's decision — straight to the server
 * when it can be reached, else written on the device (`request_*` fields) for replication to push.
 *
 * Units: instants UTC epoch ms.
 */
import { api, ApiError, serverMessage, type CalendarTarget, type Proposal, type ProposalAction, type ProposalStatus } from '@avail/shared/api/api-client.ts';
import { ProposalRequestError, requestProposalActionLocal, type ProposalRequest } from '@avail/shared/rx/proposal-writes.ts';
import type { ProposalDoc } from '@avail/shared/rx/rx-schemas.ts';
import type { LocalData } from './local-db.ts';

/** A proposal as the owner's screens show it. */
export interface ProposalView {
  id: string;
  start_ms: number;
  end_ms: number;
  name: string;
  email: string;
  note: string;
  visitor_timezone: string;
  status: ProposalStatus;
  created_at: number;
  decided_at: number | null;
  /** The owner's message of a decline or cancel ('' none). */
  message: string;
  /** The calendar the confirmed meeting was written to, null when none. */
  calendar_name: string | null;
  /** An action asked for on a device and not carried out by the server yet. */
  pending_action: ProposalAction | null;
  /** Why the last such action could not be carried out, else null. */
  error: string | null;
}

const STATUSES: readonly string[] = ['pending', 'confirmed', 'declined', 'cancelled'];
const ACTIONS: readonly string[] = ['confirm', 'decline', 'cancel'];

/**
 * A device document as a view. Its `request_*` fields: a request the server has not answered is
 * the pending action; one it refused keeps `request_action` with `request_error` — the error is
 * shown and the proposal offered again — unless `unsynced` (this device wrote a newer request the
 * server has not acknowledged yet: pending again, the old error hidden).
 */
export function proposalFromDoc(d: ProposalDoc, unsynced = false): ProposalView {
  const action = d.request_action && ACTIONS.includes(d.request_action) ? (d.request_action as ProposalAction) : null;
  const error = unsynced ? null : d.request_error || null;
  return {
    id: d.id,
    start_ms: d.start_ms,
    end_ms: d.end_ms,
    name: d.name,
    email: d.email,
    note: d.note,
    visitor_timezone: d.visitor_timezone,
    status: (STATUSES.includes(d.status) ? d.status : 'pending') as ProposalStatus,
    created_at: d.created_at,
    decided_at: d.decided_at ?? null,
    message: d.message ?? '',
    calendar_name: d.calendar_name ?? null,
    pending_action: error ? null : action,
    error,
  };
}

/** A REST answer (GET /me/proposals, an action's answer) as a view; an old server's answer without status reads as pending. */
export function proposalFromRest(p: Proposal): ProposalView {
  return {
    id: p.id,
    start_ms: Date.parse(p.start),
    end_ms: Date.parse(p.end),
    name: p.name,
    email: p.email,
    note: p.note ?? '',
    visitor_timezone: p.visitor_timezone,
    status: (p.status && STATUSES.includes(p.status) ? p.status : 'pending') as ProposalStatus,
    created_at: p.created_at ? Date.parse(p.created_at) : 0,
    decided_at: p.decided_at ? Date.parse(p.decided_at) : null,
    message: p.message ?? '',
    calendar_name: p.calendar?.name ?? null,
    pending_action: p.pending_action ?? null,
    error: p.error ?? null,
  };
}

/** Newest first (by when the visitor proposed; then the later time first; then id), a new array. */
export function newestFirst(list: readonly ProposalView[]): ProposalView[] {
  return [...list].sort((a, b) => b.created_at - a.created_at || b.start_ms - a.start_ms || a.id.localeCompare(b.id));
}

/**
 * The list shown: the device's (or REST's) proposals, each replaced by the server's answer to an
 * action made here while the device has not received that answer yet (its status still differs
 * and it has no pending request). `answers` whose status the device already shows are spent.
 */
export function withAnswers(list: readonly ProposalView[], answers: ReadonlyMap<string, ProposalView>): ProposalView[] {
  if (answers.size === 0) return [...list];
  return list.map((p) => {
    const a = answers.get(p.id);
    return a && a.status !== p.status && !p.pending_action ? { ...p, ...a } : p;
  });
}

/** The pending proposals of a list, soonest first (the tray). */
export function pendingSoonestFirst(list: readonly ProposalView[]): ProposalView[] {
  return list.filter((p) => p.status === 'pending').sort((a, b) => a.start_ms - b.start_ms || a.id.localeCompare(b.id));
}

/** What became of a decision. */
export type DecisionResult =
  /** The server carried it out; its answer. */
  | { kind: 'done'; proposal: ProposalView }
  /** Written on the device; replication sends it when the server is reachable. */
  | { kind: 'queued' };

/** A failure that means "the server cannot be reached" (fetch's TypeError, an aborted request) rather than an answer. */
function isNetworkFailure(err: unknown): boolean {
  return !(err instanceof ApiError) && (err instanceof TypeError || (err instanceof Error && err.name === 'AbortError'));
}

function callServer(id: string, req: ProposalRequest): Promise<{ proposal: Proposal }> {
  if (req.action === 'confirm') return api.confirmProposal(id, req.target ?? undefined);
  if (req.action === 'decline') return api.declineProposal(id, req.message ?? '');
  return api.cancelProposal(id, req.message ?? '');
}

/**
 * Carries out the owner's decision: online, the REST call (its answer, or its ApiError — a 409's
 * `error` is the reason to show); offline, or when the call fails for want of a network, the
 * request is written on the device (`local` needed then).
 * @throws ApiError (the server refused); ProposalRequestError / ZodError (the device refused);
 *   the network failure itself when there is no device database to queue it in.
 */
export async function decideProposal(
  local: Pick<LocalData, 'db' | 'deviceId'> | null,
  id: string,
  req: ProposalRequest,
  online: boolean = typeof navigator === 'undefined' ? true : navigator.onLine,
): Promise<DecisionResult> {
  if (online || !local) {
    try {
      const res = await callServer(id, req);
      return { kind: 'done', proposal: proposalFromRest(res.proposal) };
    } catch (err) {
      if (!local || !isNetworkFailure(err)) throw err;
    }
  }
  await requestProposalActionLocal(local.db, local.deviceId, id, req);
  return { kind: 'queued' };
}

/**
 * The owner's text for a decision that failed: the server's own words (a 409's reason: the time
 * is no longer free, already decided), else the device's refusal, else the connection message.
 */
export function actionErrorText(err: unknown): string {
  if (err instanceof ApiError) return serverMessage(err) ?? 'Something went wrong. Please try again.';
  if (err instanceof ProposalRequestError) return err.message;
  const issues = (err as { issues?: Array<{ message?: string }> } | null)?.issues;
  if (Array.isArray(issues) && issues[0]?.message) return issues[0].message;
  return 'Unable to connect. Please check your internet connection and try again.';
}

