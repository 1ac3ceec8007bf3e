/**
 * RxDB schemas of the owner's data on the device (local-first; issue 3). Each is an `as const`
 * literal passed through `toTypedRxJsonSchema`, so the document types are derived, never written
 * twice. Wire and device documents are the same shape; RxDB adds `_deleted` (the soft-delete flag
 * that replicates deletes) and its own `_meta`/`_rev`, which never leave the device.
 *
 * Units: instants are UTC epoch milliseconds (`*_at`, `*_ms`); local times are `HH:MM` in the
 * owner's zone; weekday 0 = Monday … 6 = Sunday; dates are `YYYY-MM-DD` in the owner's zone.
 *
 * - `updated_at` is stamped by the SERVER on every write (monotonic per user): it orders the pull
 *   checkpoint `{ id, updated_at }`. A device writing locally sets it to its own clock; the server
 *   overwrites it.
 * - `edited_at` + `device_id` (writable collections only) are the edit's own time and author: they
 *   decide conflicts (latest `edited_at` wins, ties by the larger `device_id`) and identify a
 *   revision when the server compares a push's assumed master state with the stored one.
 *
 * Writable on the device: availability rules and exceptions, busy blocks, a proposal's request. Read-only (the server
 * owns them): calendar events, calendar connections, profile.
 */
import { toTypedRxJsonSchema, type ExtractDocumentTypeFromTypedRxJsonSchema } from 'rxdb';
import { BUSY_BLOCK_NOTE_MAX_LENGTH } from '../constants.ts';

/** Largest epoch-ms value a document may carry (year 33658); lets RxDB index number fields. */
const MAX_MS = 1e15;
const ms = { type: 'number', minimum: 0, maximum: MAX_MS, multipleOf: 1 } as const;
const id = { type: 'string', maxLength: 64 } as const;
const hhmm = { type: 'string', maxLength: 5 } as const;

const availabilityRuleSchemaLiteral = {
  title: 'availability rule',
  description: 'One weekly available window of the owner (availability-semantics.md "Inputs").',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id,
    weekday: { type: 'integer', minimum: 0, maximum: 6, multipleOf: 1 },
    start_time_local: hhmm,
    end_time_local: hhmm,
    edited_at: ms,
    device_id: { type: 'string', maxLength: 64 },
    updated_at: ms,
  },
  required: ['id', 'weekday', 'start_time_local', 'end_time_local', 'edited_at', 'device_id', 'updated_at'],
  additionalProperties: false,
} as const;

const availabilityExceptionSchemaLiteral = {
  title: 'availability exception',
  description: 'A date override: both times null = day off; otherwise the only available window that day.',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id,
    date: { type: 'string', maxLength: 10 },
    start_time_local: { type: ['string', 'null'], maxLength: 5 },
    end_time_local: { type: ['string', 'null'], maxLength: 5 },
    edited_at: ms,
    device_id: { type: 'string', maxLength: 64 },
    updated_at: ms,
  },
  required: ['id', 'date', 'start_time_local', 'end_time_local', 'edited_at', 'device_id', 'updated_at'],
  additionalProperties: false,
} as const;

const busyBlockSchemaLiteral = {
  title: 'busy block',
  description:
    'A time the owner marked busy by hand (issue 10): [start_ms, end_ms) UTC epoch ms, at most 14 days; counted as busy on the public page. The note is owner-only (null = none).',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id,
    start_ms: ms,
    end_ms: ms,
    note: { type: ['string', 'null'], maxLength: BUSY_BLOCK_NOTE_MAX_LENGTH },
    edited_at: ms,
    device_id: { type: 'string', maxLength: 64 },
    updated_at: ms,
  },
  required: ['id', 'start_ms', 'end_ms', 'note', 'edited_at', 'device_id', 'updated_at'],
  indexes: ['start_ms'],
  additionalProperties: false,
} as const;

const calendarEventSchemaLiteral = {
  title: 'calendar event',
  description: 'One expanded event instance of a connected calendar; owner-only (titles never reach visitors).',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id,
    connection_id: id,
    title: { type: 'string' },
    start_ms: ms,
    end_ms: ms,
    all_day: { type: 'boolean' },
    is_busy: { type: 'boolean' },
    updated_at: ms,
  },
  required: ['id', 'connection_id', 'title', 'start_ms', 'end_ms', 'all_day', 'is_busy', 'updated_at'],
  indexes: ['start_ms'],
  additionalProperties: false,
} as const;

const calendarConnectionSchemaLiteral = {
  title: 'calendar connection',
  description: 'A connected calendar account and its sync health (spec §7 connections).',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id,
    provider: { type: 'string', maxLength: 16 },
    name: { type: 'string' },
    status: { type: 'string', maxLength: 16 },
    account: { type: ['string', 'null'] },
    calendars_count: { type: 'integer', minimum: 0 },
    included_calendars_count: { type: 'integer', minimum: 0 },
    last_error: { type: ['string', 'null'] },
    last_synced_at: { type: ['number', 'null'] },
    connected_at: ms,
    warnings: { type: 'array', items: { type: 'string' } },
    updated_at: ms,
  },
  required: [
    'id', 'provider', 'name', 'status', 'account', 'calendars_count', 'included_calendars_count',
    'last_error', 'last_synced_at', 'connected_at', 'warnings', 'updated_at',
  ],
  additionalProperties: false,
} as const;

const profileSchemaLiteral = {
  title: 'profile',
  description: 'The signed-in owner (one document, id = user id); edited through the REST profile calls.',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id,
    name: { type: 'string' },
    email: { type: 'string' },
    timezone: { type: 'string' },
    username: { type: ['string', 'null'] },
    username_changed_at: { type: ['number', 'null'] },
    email_verified_at: { type: ['number', 'null'] },
    updated_at: ms,
  },
  required: ['id', 'name', 'email', 'timezone', 'username', 'username_changed_at', 'email_verified_at', 'updated_at'],
  additionalProperties: false,
} as const;

/**
 * A visitor's proposal on the owner's device (issue 24). The server owns every field but the
 * `request_*` ones: a device confirms, declines or cancels — also offline — by setting
 * `request_action` (+ message, target calendar) with its own `edited_at`/`device_id`; the push
 * stores only those fields, the server carries the action out and writes the outcome (`status`,
 * `request_action` null again, or `request_error` with the reason). While `request_action` is set
 * the device shows the action as pending.
 */
const proposalSchemaLiteral = {
  title: 'proposal',
  description: "A visitor's proposed time and the owner's decision; owner-only.",
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id,
    start_ms: ms,
    end_ms: ms,
    name: { type: 'string' },
    email: { type: 'string' },
    note: { type: 'string' },
    visitor_timezone: { type: 'string' },
    visitor_language: { type: 'string', maxLength: 8 },
    status: { type: 'string', enum: ['pending', 'confirmed', 'declined', 'cancelled'], maxLength: 16 },
    uid: { type: ['string', 'null'] },
    sequence: { type: 'number', minimum: 0, maximum: 1e6, multipleOf: 1 },
    created_at: ms,
    decided_at: { type: ['number', 'null'] },
    message: { type: 'string' },
    calendar_name: { type: ['string', 'null'] },
    request_action: { type: ['string', 'null'], enum: ['confirm', 'decline', 'cancel', null] },
    request_message: { type: ['string', 'null'] },
    request_connection_id: { type: ['string', 'null'] },
    request_calendar_id: { type: ['string', 'null'] },
    request_error: { type: ['string', 'null'] },
    edited_at: ms,
    device_id: { type: 'string', maxLength: 64 },
    updated_at: ms,
  },
  required: [
    'id', 'start_ms', 'end_ms', 'name', 'email', 'note', 'visitor_timezone', 'visitor_language', 'status', 'uid', 'sequence',
    'created_at', 'decided_at', 'message', 'calendar_name', 'request_action', 'request_message', 'request_connection_id',
    'request_calendar_id', 'request_error', 'edited_at', 'device_id', 'updated_at',
  ],
  indexes: ['created_at'],
  additionalProperties: false,
} as const;

export const availabilityRuleRxSchema = toTypedRxJsonSchema(availabilityRuleSchemaLiteral);
export const availabilityExceptionRxSchema = toTypedRxJsonSchema(availabilityExceptionSchemaLiteral);
export const busyBlockRxSchema = toTypedRxJsonSchema(busyBlockSchemaLiteral);
export const calendarEventRxSchema = toTypedRxJsonSchema(calendarEventSchemaLiteral);
export const calendarConnectionRxSchema = toTypedRxJsonSchema(calendarConnectionSchemaLiteral);
export const profileRxSchema = toTypedRxJsonSchema(profileSchemaLiteral);
export const proposalRxSchema = toTypedRxJsonSchema(proposalSchemaLiteral);

export type RuleDoc = ExtractDocumentTypeFromTypedRxJsonSchema<typeof availabilityRuleRxSchema>;
export type ExceptionDoc = ExtractDocumentTypeFromTypedRxJsonSchema<typeof availabilityExceptionRxSchema>;
/** A busy block on the device and on the wire: `{ id, start_ms, end_ms, note: string | null, edited_at, device_id, updated_at }`. */
export type BlockDoc = ExtractDocumentTypeFromTypedRxJsonSchema<typeof busyBlockRxSchema>;
export type EventDoc = ExtractDocumentTypeFromTypedRxJsonSchema<typeof calendarEventRxSchema>;
export type ConnectionDoc = ExtractDocumentTypeFromTypedRxJsonSchema<typeof calendarConnectionRxSchema>;
export type ProfileDoc = ExtractDocumentTypeFromTypedRxJsonSchema<typeof profileRxSchema>;
export type ProposalDoc = ExtractDocumentTypeFromTypedRxJsonSchema<typeof proposalRxSchema>;
