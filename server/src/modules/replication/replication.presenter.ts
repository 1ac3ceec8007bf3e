/**
 * Database rows → wire documents of shared/src/rx/rx-schemas.ts (the only place they are built).
 * Mapping: is_deleted 1 ↔ `_deleted: true`; SQLite/PG integers 0/1 → booleans (events' all_day,
 * is_busy); bigint epoch ms → number; connections' warnings_json → `warnings` string array;
 * the profile document is the users row. Tombstones become full-shape documents with neutral
 * placeholder values and `_deleted: true` (RxDB validates deleted documents against the schema too).
 */
import type { WithDeleted } from 'rxdb';
import type { BlockDoc, ConnectionDoc, EventDoc, ExceptionDoc, ProfileDoc, ProposalDoc, RuleDoc } from '@avail/shared/rx/rx-schemas.ts';
import type {
  AvailabilityExceptionRow,
  AvailabilityRuleRow,
  BusyBlockRow,
  CalendarConnectionRow,
  CalendarEventRow,
  ProposalRow,
  UserRow,
} from '../../db/schema.ts';
import { openNullable } from '../../lib/crypto.ts';

/** availability_rules row → RuleDoc (`_deleted` from is_deleted; edited_at/updated_at epoch ms). */
export function ruleDoc(r: AvailabilityRuleRow): WithDeleted<RuleDoc> {
  return {
    id: r.id,
    weekday: Number(r.weekday),
    start_time_local: r.start_time_local,
    end_time_local: r.end_time_local,
    edited_at: Number(r.edited_at),
    device_id: r.device_id,
    updated_at: Number(r.updated_at),
    _deleted: Number(r.is_deleted) === 1,
  };
}

/** availability_exceptions row → ExceptionDoc (times null = day off; `_deleted` from is_deleted). */
export function exceptionDoc(e: AvailabilityExceptionRow): WithDeleted<ExceptionDoc> {
  return {
    id: e.id,
    date: e.date,
    start_time_local: e.start_time_local,
    end_time_local: e.end_time_local,
    edited_at: Number(e.edited_at),
    device_id: e.device_id,
    updated_at: Number(e.updated_at),
    _deleted: Number(e.is_deleted) === 1,
  };
}

/**
 * busy_blocks row → BlockDoc (owner-only: the note is the owner's, sealed at rest and opened here
 * with `key`; start/end/edited_at/updated_at epoch ms; `_deleted` from is_deleted).
 */
export function blockDoc(b: BusyBlockRow, key: Uint8Array): WithDeleted<BlockDoc> {
  return {
    id: b.id,
    start_ms: Number(b.start_ms),
    end_ms: Number(b.end_ms),
    note: openNullable(b.note, key),
    edited_at: Number(b.edited_at),
    device_id: b.device_id,
    updated_at: Number(b.updated_at),
    _deleted: Number(b.is_deleted) === 1,
  };
}

/**
 * proposals row → ProposalDoc (issue 24). A dismissed proposal replicates as deleted. The sealed
 * columns (target calendar, remote id) never leave the server.
 */
export function proposalDoc(p: ProposalRow): WithDeleted<ProposalDoc> {
  return {
    id: p.id,
    start_ms: Number(p.start_ms),
    end_ms: Number(p.end_ms),
    name: p.name,
    email: p.email,
    note: p.note,
    visitor_timezone: p.visitor_timezone,
    visitor_language: p.visitor_language,
    status: p.status,
    uid: p.remote_uid ?? p.uid,
    sequence: Number(p.sequence),
    created_at: Number(p.created_at),
    decided_at: p.decided_at == null ? null : Number(p.decided_at),
    message: p.message,
    calendar_name: p.calendar_name,
    request_action: p.request_action,
    request_message: p.request_message,
    request_connection_id: p.request_connection_id,
    request_calendar_id: p.request_calendar_id,
    request_error: p.request_error,
    edited_at: Number(p.edited_at),
    device_id: p.device_id,
    updated_at: Number(p.updated_at),
    _deleted: p.dismissed_at != null,
  };
}

/** The calendar_events columns an EventDoc is built from. */
export type EventDocRow = Pick<CalendarEventRow, 'id' | 'connection_id' | 'title' | 'start_ms' | 'end_ms' | 'all_day' | 'is_busy' | 'updated_at'>;

/** calendar_events row → EventDoc (all_day/is_busy 0/1 → booleans; start/end UTC epoch ms); never deleted (deletes are tombstones). */
export function eventDoc(e: EventDocRow): WithDeleted<EventDoc> {
  return {
    id: e.id,
    connection_id: e.connection_id,
    title: e.title,
    start_ms: Number(e.start_ms),
    end_ms: Number(e.end_ms),
    all_day: Number(e.all_day) === 1,
    is_busy: Number(e.is_busy) === 1,
    updated_at: Number(e.updated_at),
    _deleted: false,
  };
}

/** A deleted EventDoc for a tombstone: id and stamp real, other fields neutral placeholders. */
export function eventTombstoneDoc(id: string, updatedAt: number): WithDeleted<EventDoc> {
  return { id, connection_id: '', title: '', start_ms: 0, end_ms: 0, all_day: false, is_busy: false, updated_at: Number(updatedAt), _deleted: true };
}

function warningsOf(json: string | null): string[] {
  if (!json) return [];
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.filter((w): w is string => typeof w === 'string') : [];
  } catch {
    // Warnings are advisory and rewritten by the next sync: an unreadable list shows none.
    return [];
  }
}

/** calendar_connections row → ConnectionDoc. Never carries secrets, config or sync state: the same fields as the REST ConnectionView, instants as epoch ms. */
export function connectionDoc(c: CalendarConnectionRow): WithDeleted<ConnectionDoc> {
  return {
    id: c.id,
    provider: c.provider,
    name: c.name,
    status: c.status,
    account: c.account,
    calendars_count: Number(c.calendars_count),
    included_calendars_count: Number(c.included_calendars_count),
    last_error: c.last_error,
    last_synced_at: c.last_synced_at == null ? null : Number(c.last_synced_at),
    connected_at: Number(c.connected_at),
    warnings: warningsOf(c.warnings_json),
    updated_at: Number(c.updated_at),
    _deleted: false,
  };
}

/** A deleted ConnectionDoc for a tombstone: id and stamp real, other fields neutral placeholders. */
export function connectionTombstoneDoc(id: string, updatedAt: number): WithDeleted<ConnectionDoc> {
  return {
    id,
    provider: '',
    name: '',
    status: '',
    account: null,
    calendars_count: 0,
    included_calendars_count: 0,
    last_error: null,
    last_synced_at: null,
    connected_at: 0,
    warnings: [],
    updated_at: Number(updatedAt),
    _deleted: true,
  };
}

/** users row → ProfileDoc (id = user id; updated_at = the profile's replication stamp). Never password or token data. */
export function profileDoc(u: UserRow): WithDeleted<ProfileDoc> {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    timezone: u.timezone,
    username: u.username,
    username_changed_at: u.username_changed_at == null ? null : Number(u.username_changed_at),
    email_verified_at: u.email_verified_at == null ? null : Number(u.email_verified_at),
    updated_at: Number(u.updated_at),
    _deleted: false,
  };
}
