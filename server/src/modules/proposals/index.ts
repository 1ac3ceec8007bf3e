/**
 * Front door of the proposals module (visitors' proposed times, the owner's decisions, one-click
 * links): what the app may use. Everything else in modules/proposals is internal.
 */
export { proposalsRouter } from './proposals.routes.ts';
export { startProposalRequests, stopProposalRequests } from './proposal-requests.service.ts';
