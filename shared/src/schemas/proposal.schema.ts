/**
 * A visitor's proposed time (issue 4: visitors propose, the owner confirms by e-mail; nothing is
 * booked). Shared by the server (POST /api/public/:slug/proposals) and the public page's form.
 * Matches `ProposalInput` of shared/src/api/api-client.ts.
 */
import './zod-setup.ts';
import { z } from 'zod';
import { canonicalIanaZone } from '../domain/zone-time.ts';
import { emailField } from './auth.schema.ts';

/** Shortest proposal: 15 minutes. */
export const PROPOSAL_MIN_MINUTES = 15;
/** Longest proposal: 8 hours (480 minutes). */
export const PROPOSAL_MAX_MINUTES = 480;
export const PROPOSAL_NAME_MAX = 100;
export const PROPOSAL_NOTE_MAX = 1000;

/**
 * An ISO 8601 instant with `Z` or a numeric offset (`2026-11-24T09:00:00Z`,
 * `2026-11-24T10:00+01:00`); seconds and fractions optional. Local times without a zone are refused.
 */
export const ISO_INSTANT_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

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
 * `{ start, end, name, email, note?, visitor_timezone }`. Output: the same strings trimmed, e-mail
 * lower-cased, note '' when absent, zone with its canonical letter case. Messages per field:
 * start/end 'Start time is invalid' / 'End time is invalid'; end: 'End time must be after start time',
 * 'A proposal must be at least 15 minutes long', 'A proposal can be at most 8 hours long';
 * name 'Name is required' / 'Name must be no more than 100 characters'; email 'Email is required' /
 * 'Email is invalid'; note 'Note must be no more than 1000 characters'; visitor_timezone 'Unknown timezone'.
 */
export const proposalSchema = z
  .object({
    start: instant('Start time is invalid'),
    end: instant('End time is invalid'),
    name: z
      .string({ error: 'Name is required' })
      .trim()
      .min(1, 'Name is required')
      .max(PROPOSAL_NAME_MAX, 'Name must be no more than 100 characters'),
    // A Reply-To address: no list separators, quotes or brackets that a mail header would parse.
    email: emailField('Email is required').refine((v) => !/[,;<>()"\\[\]]/.test(v), 'Email is invalid'),
    note: z
      .string({ error: 'Note must be text' })
      .trim()
      .max(PROPOSAL_NOTE_MAX, 'Note must be no more than 1000 characters')
      .nullish()
      .transform((v) => v ?? ''),
    visitor_timezone: z
      .string({ error: 'Unknown timezone' })
      .trim()
      .refine((v) => canonicalIanaZone(v) !== null, 'Unknown timezone')
      .transform((v) => canonicalIanaZone(v) ?? v),
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
