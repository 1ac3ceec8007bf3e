/**
 * Typed API client (product spec §7) — the front door. One fetch wrapper with the spec's "Handling
 * of answers" rules (`api-transport.ts`), the answers' shapes (`api-shapes.ts`) and one typed
 * function per call, grouped by area in the `*-calls.ts` files and gathered here as `api`.
 * Browser-safe and light: it imports constants only (no zod), so the visitor's public page can use
 * it without pulling in the schemas.
 */
import { accountCalls } from './account-calls.ts';
import { authCalls } from './auth-calls.ts';
import { availabilityCalls } from './availability-calls.ts';
import { calendarCalls } from './calendar-calls.ts';
import { linkCalls } from './link-calls.ts';
import { profileCalls } from './profile-calls.ts';
import { proposalCalls } from './proposal-calls.ts';
import { publicCalls } from './public-calls.ts';

export {
  ApiError,
  serverMessage,
  localStorageTokenStore,
  configureApiClient,
  apiOrigin,
  getToken,
  setToken,
  clearToken,
  setUnauthorizedListener,
  checkAnswer,
  request,
  get,
  post,
} from './api-transport.ts';
export type { TokenStore } from './api-transport.ts';
export type {
  User,
  Profile,
  TwoFactorSetup,
  AvailabilityRule,
  AvailabilityException,
  DashboardStats,
  CalendarProvider,
  CalendarConnection,
  SyncNowResponse,
  CalendarEvent,
  PublicAvailability,
  OwnerLink,
  LinkAnalytics,
  GeneratedEmailText,
  Proposal,
  BusyBlock,
  AccountSession,
  ProposalLinkInfo,
} from './api-shapes.ts';
export type { ReplacedVersion } from '../rx/replication-protocol.ts';
export type { BusyRules } from '../ical/busy-rules.ts';
export type { ShareLink, ShareLinks } from '../schemas/share-link.schema.ts';
export type { EventSource } from '../schemas/calendar.schema.ts';
export type { CalendarTarget, ProposalSettings, WritableCalendar, ProposalStatus, ProposalAction } from '../schemas/proposal.schema.ts';

/** Every call of the API, one typed function each (the groups' docstrings give paths, answers and errors). */
export const api = {
  ...authCalls,
  ...accountCalls,
  ...profileCalls,
  ...availabilityCalls,
  ...calendarCalls,
  ...publicCalls,
  ...linkCalls,
  ...proposalCalls,
};
