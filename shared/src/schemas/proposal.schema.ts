/**
 * A visitor's proposed time (issue 4: visitors propose, the owner confirms by e-mail; nothing is
 * booked). Shared by the server (POST /api/public/:slug/proposals) and the public page's form.
 * Matches `ProposalInput` of shared/src/api/api-client.ts.
 */
import './zod-setup.ts';
import { z } from 'zod';
import { canonicalIanaZone } from '../domain/zone-time.ts';
import { emailField } from './auth.schema.ts';
import { LANGUAGES } from '../i18n/languages.ts';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from './storable-text.ts';
import { PROPOSAL_MESSAGE_MAX, PROPOSAL_MESSAGE_TOO_LONG, PROPOSAL_NAME_MAX, PROPOSAL_NOTE_MAX } from './proposal-limits.ts';

/** Shortest proposal: 15 minutes. */
const PROPOSAL_MIN_MINUTES = 15;
/** Longest proposal: 8 hours (480 minutes). */
const PROPOSAL_MAX_MINUTES = 480;

/**
 * An ISO 8601 instant with `Z` or a numeric offset (`2026-11-24T09:00:00Z`,
 * `2026-11-24T10:00+01:00`); seconds and fractions optional. Local times without a zone are refused.
 */
const ISO_INSTANT_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/** UTC epoch ms of an ISO instant matching {@link ISO_INSTANT_PATTERN}, or NaN. */
export function parseIsoInstant(value: string): number {
  return ISO_INSTANT_PATTERN.test(value) ? Date.parse(value) : Number.NaN;
}

const instant = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .refine((v) => Number.isFinite(parseIsoInstant(v)), message);

/**
 * `{ start, end, name, email, note?, visitor_timezone, language? }`. Output: the same strings trimmed, e-mail
 * lower-cased, note '' when absent, zone with its canonical letter case. Messages per field:
 * start/end 'Start time is invalid' / 'End time is invalid'; end: 'End time must be after start time',
 * 'A proposal must be at least 15 minutes long', 'A proposal can be at most 8 hours long';
 * name 'Name is required' / 'Name must be no more than 100 characters' (PROPOSAL_NAME_MAX); email 'Email is required' /
 * 'Email is invalid'; note 'Note must be no more than 1000 characters' (PROPOSAL_NOTE_MAX); visitor_timezone 'Unknown timezone'.
 */
export const proposalSchema = z
  .object({
    start: instant('Start time is invalid'),
    end: instant('End time is invalid'),
    name: z
      .string({ error: 'Name is required' })
      .trim()
      .min(1, 'Name is required')
      .max(PROPOSAL_NAME_MAX, `Name must be no more than ${PROPOSAL_NAME_MAX} characters`),
    // A Reply-To address: no list separators, quotes or brackets that a mail header would parse.
    email: emailField('Email is required').refine((v) => !/[,;<>()"\\[\]]/.test(v), 'Email is invalid'),
    note: z
      .string({ error: 'Note must be text' })
      .trim()
      .max(PROPOSAL_NOTE_MAX, `Note must be no more than ${PROPOSAL_NOTE_MAX} characters`)
      .nullish()
      .transform((v) => v ?? ''),
    visitor_timezone: z
      .string({ error: 'Unknown timezone' })
      .trim()
      .refine((v) => canonicalIanaZone(v) !== null, 'Unknown timezone')
      .transform((v) => canonicalIanaZone(v) ?? v),
    /** The page's language (issue 24: the invitation is written in it); absent or unknown → the server reads Accept-Language. */
    language: z
      .string()
      .optional()
      .catch(undefined)
      .transform((v) => (v && (LANGUAGES as readonly string[]).includes(v) ? v : undefined)),
  })
  .superRefine((body, ctx) => {
    const start = parseIsoInstant(body.start);
    const end = parseIsoInstant(body.end);
    if (!Number.isFinite(start) || !Number.isFinite(end)) return;
    const minutes = (end - start) / 60_000;
    let message: string | null = null;
    if (end <= start) message = 'End time must be after start time';
    else if (minutes < PROPOSAL_MIN_MINUTES) message = 'A proposal must be at least 15 minutes long';
    else if (minutes > PROPOSAL_MAX_MINUTES) message = 'A proposal can be at most 8 hours long';
    if (message) ctx.addIssue({ code: 'custom', message, path: ['end'] });
  });
export type ProposalBody = z.infer<typeof proposalSchema>;

/** Where a proposal stands (issue 24): nothing is booked while `pending`. */
const PROPOSAL_STATUSES = ['pending', 'confirmed', 'declined', 'cancelled'] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];
/** What the owner does to a proposal: confirm or decline a pending one, cancel a confirmed one. */
const PROPOSAL_ACTIONS = ['confirm', 'decline', 'cancel'] as const;
export type ProposalAction = (typeof PROPOSAL_ACTIONS)[number];
/** How long the one-click links of the owner's proposal e-mail work (ms): 7 days. */
export const PROPOSAL_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** A calendar of one connection: `{ connection_id, calendar_id }` (calendar_id as in GET …/calendars). */
const calendarTargetSchema = z.object({
  connection_id: z.string({ error: 'Choose a calendar' }).trim().min(1, 'Choose a calendar').max(64, 'Choose a calendar'),
  calendar_id: z.string({ error: 'Choose a calendar' }).min(1, 'Choose a calendar').max(2048, 'Choose a calendar'),
});
export type CalendarTarget = z.infer<typeof calendarTargetSchema>;

/** POST /me/proposals/{id}/confirm body: `{ target? }` (absent: the proposal settings' calendar). */
export const confirmProposalSchema = z.object({ target: calendarTargetSchema.nullish() }).default({});
/** POST /me/proposals/{id}/decline and …/cancel body: `{ message? }`, ≤ PROPOSAL_MESSAGE_MAX characters, '' when absent. */
export const proposalMessageSchema = z
  .object({
    message: z
      .string({ error: 'Message must be text' })
      .trim()
      .max(PROPOSAL_MESSAGE_MAX, PROPOSAL_MESSAGE_TOO_LONG)
      .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE)
      .nullish()
      .transform((v) => v ?? ''),
  })
  .default({ message: '' });
/** PUT /me/proposal-settings body: `{ target: { connection_id, calendar_id } | null }` (null: the default calendar). */
export const proposalSettingsSchema = z.object({ target: calendarTargetSchema.nullable() });

/** One-click link bodies (POST /api/proposal-links/inspect and …/act): the token of the e-mail's link. */
export const proposalLinkSchema = z.object({
  token: z.string({ error: 'This link is not valid.' }).min(1, 'This link is not valid.').max(512, 'This link is not valid.'),
  message: z.string().trim().max(PROPOSAL_MESSAGE_MAX, PROPOSAL_MESSAGE_TOO_LONG).nullish().transform((v) => v ?? ''),
});

/** A calendar confirmed meetings can be written to (GET /me/proposal-settings). */
export interface WritableCalendar {
  connection_id: string;
  connection_name: string;
  provider: string;
  calendar_id: string;
  calendar_name: string;
  color?: string;
}

/** GET/PUT /me/proposal-settings answer. */
export interface ProposalSettings {
  /** The owner's choice, or null (the default). */
  target: CalendarTarget | null;
  /** Where the next confirmed meeting goes: the choice, else the first writable calendar of the oldest writable connection; null = no calendar write (the .ics goes to the owner by e-mail). */
  effective: WritableCalendar | null;
  /** Every writable calendar, oldest connection first. */
  calendars: WritableCalendar[];
}

/**
 * A proposal as the owner sees it (GET /me/proposals and every action's answer). Instants ISO 8601 UTC.
 * `pending_action`: an action made offline and not yet carried out by the server (replicated);
 * `error`: why the last such action could not be carried out (shown to the owner), else null.
 */
export interface OwnerProposal {
  id: string;
  start: string;
  end: string;
  name: string;
  email: string;
  note: string;
  visitor_timezone: string;
  /** The visitor's language (en, de, fr, es, nl, pt): the invitation and every later e-mail are in it. */
  visitor_language: string;
  created_at: string;
  status: ProposalStatus;
  /** The meeting's iCalendar UID once confirmed, else null. */
  uid: string | null;
  sequence: number;
  decided_at: string | null;
  /** The owner's message of a decline or cancel ('' none). */
  message: string;
  /** The calendar the meeting was written to, null when none (no writable calendar: .ics by e-mail). */
  calendar: { connection_id: string; calendar_id: string; name: string } | null;
  pending_action: ProposalAction | null;
  error: string | null;
}

/**
 * The fields a device may push for a proposal (replicated collection `proposals`, issue 24): its
 * request. Every other field of the pushed document is the server's and is ignored.
 */
export const proposalRequestFieldsSchema = z.object({
  request_action: z.enum(PROPOSAL_ACTIONS, { error: 'Unknown action' }).nullable(),
  request_message: z.string().max(PROPOSAL_MESSAGE_MAX, PROPOSAL_MESSAGE_TOO_LONG).nullable(),
  request_connection_id: z.string().max(64).nullable(),
  request_calendar_id: z.string().max(2048).nullable(),
});
export type ProposalRequestFields = z.infer<typeof proposalRequestFieldsSchema>;
