/**
 * The proposal calls (product spec §7, issue 24): the owner's proposals and their decisions, where
 * confirmed meetings go, and the e-mail's one-click links (no sign-in). Part of `api`
 * (`api-client.ts`).
 */
import { get, post, put, del } from './api-transport.ts';
import type { Proposal, ProposalLinkInfo } from './api-shapes.ts';
import type { CalendarTarget, ProposalSettings } from '../schemas/proposal.schema.ts';

export const proposalCalls = {
  /** GET /me/proposals: the owner's proposals, newest first (pending, confirmed, declined, cancelled), at most 50. */
  proposals: () => get<{ proposals: Proposal[] }>('/me/proposals'),
  /** POST /me/proposals/{id}/confirm: the meeting goes into `target` (else the proposal settings' calendar); 409 `not_free` (with the reason) / `already_decided`. */
  confirmProposal: (id: string, target?: CalendarTarget | null) =>
    post<{ proposal: Proposal }>(`/me/proposals/${encodeURIComponent(id)}/confirm`, target ? { target } : {}),
  /** POST /me/proposals/{id}/decline: the visitor is told (with `message` and the next free times); 409 `already_decided`. */
  declineProposal: (id: string, message?: string) => post<{ proposal: Proposal }>(`/me/proposals/${encodeURIComponent(id)}/decline`, { message: message ?? '' }),
  /** POST /me/proposals/{id}/cancel (confirmed only): the event is removed and the visitor gets a cancellation; 409 `not_confirmed`. */
  cancelProposal: (id: string, message?: string) => post<{ proposal: Proposal }>(`/me/proposals/${encodeURIComponent(id)}/cancel`, { message: message ?? '' }),
  /** GET /me/proposal-settings: where confirmed meetings go, and the writable calendars to choose from. */
  proposalSettings: () => get<ProposalSettings>('/me/proposal-settings'),
  /** PUT /me/proposal-settings: `target` null = the default calendar; 422 `errors.target` for a calendar that cannot be written. */
  setProposalSettings: (target: CalendarTarget | null) => put<ProposalSettings>('/me/proposal-settings', { target }),
  /** POST /proposal-links/inspect (no sign-in): the one-click link's proposal; 404 forged or unknown, 410 `expired` / `used`. */
  inspectProposalLink: (token: string) => post<ProposalLinkInfo>('/proposal-links/inspect', { token }, { auth: false }),
  /** POST /proposal-links/act (no sign-in): carries the link's action out once; same errors, plus 409 as the owner's API. */
  actOnProposalLink: (token: string, message?: string) => post<{ proposal: ProposalLinkInfo['proposal'] }>('/proposal-links/act', { token, message: message ?? '' }, { auth: false }),
  /** DELETE /me/proposals/{id}: the owner dismisses a proposal. 204; 404 when it is not one of the owner's. */
  dismissProposal: (id: string) => del<unknown>(`/me/proposals/${encodeURIComponent(id)}`),
};
