/**
 * The owner's decision on a proposal (issue 24): confirm, decline, cancel. Each is idempotent by
 * proposal id (doing it again answers the same proposal and changes nothing) and changes nothing
 * when it fails.
 *
 * - Confirm (pending → confirmed): the time must still be free in the public page's own engine
 *   (else 409 `not_free` with the reason, to the owner only); the meeting (lib/meeting-ical.ts:
 *   ORGANIZER the owner, ATTENDEE the visitor, UID `<proposal id>@<host>`, SEQUENCE 0) is written
 *   to the target calendar first (proposal-calendar.service.ts); only then is the status set, by a
 *   compare-and-set, so a failed write leaves the proposal pending. The visitor gets the iMIP
 *   invitation (RFC 6047, METHOD:REQUEST) in their language — except from Microsoft Graph, whose
 *   Exchange sends its own; without a writable calendar the owner gets the .ics by e-mail. The time
 *   is busy on the public page at once (store/proposals.repo.ts confirmedMeetingTimes, until the
 *   calendar's own copy arrives by sync).
 * - Decline (pending → declined): the visitor gets the owner's message and the next three free
 *   windows, each a link to the public page at that date.
 * - Cancel (confirmed → cancelled): the event is deleted from the calendar, the visitor gets
 *   METHOD:CANCEL (same UID, SEQUENCE + 1), and the calendar connection is synced at once so its
 *   copy leaves the public page's busy time.
 * Every status write goes through replicatedWrite (the device's `proposals` collection and the
 * public cache hear it).
 */
import { formatInstant } from '@avail/shared/domain/free-windows.ts';
import { isLanguage, type Language } from '@avail/shared/i18n/languages.ts';
import type { CalendarTarget, OwnerProposal, ProposalAction } from '@avail/shared/schemas/proposal.schema.ts';
import type { ProposalRow } from '../../db/schema.ts';
import type { Deps } from '../../http/deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { openContent, sealContent } from '../../lib/crypto.ts';
import { meetingCalendar, meetingOf, type Meeting } from '../../lib/meeting-ical.ts';
import { cancellationEmail, declineEmail, invitationEmail, ownerCancelledEmail, ownerConfirmedEmail } from '../../mail/proposal-mails.ts';
import { eventWriterFor } from '../../providers/event-writers.ts';
import { findConnection } from '../../store/calendars.repo.ts';
import { findOwnerContact, findProposal, overlapsConfirmed, updateProposal } from '../../store/proposals.repo.ts';
import { replicatedWrite } from '../../store/repl-clock.repo.ts';
import { ownerFreeWindows, ownerHoursWindows } from '../public/index.ts';
import { liveShareLinkUrl } from '../share-links/index.ts';
import { scheduleSync, syncConnection } from '../sync/index.ts';
import { removeMeeting, removeQuietly, writeMeeting } from './proposal-calendar.service.ts';
import { resolveTarget } from './proposal-settings.service.ts';

/** The owner's error texts of the decisions (409 bodies' `error`). */
const DECISION_MESSAGES = {
  notFound: 'Proposal not found',
  declined: 'This proposal was already declined.',
  cancelled: 'This meeting was already cancelled.',
  confirmed: 'This proposal was already confirmed.',
  notConfirmed: 'Only a confirmed meeting can be cancelled.',
  started: 'That time is no longer free: it has already begun.',
  busy: 'That time is no longer free: something in your calendars or a busy block now covers it.',
  hours: 'That time is no longer free: it is outside your available hours now.',
  meeting: 'That time is no longer free: another confirmed meeting now covers it.',
} as const;

/** How far ahead a decline looks for the next free windows (ms): 60 days (the decline e-mail lists the first three). */
const DECLINE_LOOKAHEAD_MS = 60 * 24 * 60 * 60 * 1000;
/** How long cancel waits for the calendar's sync before answering (ms); the sync goes on afterwards. */
const CANCEL_SYNC_WAIT_MS = 10_000;

/** A proposal as the owner's API shows it (OwnerProposal); `key` opens the sealed calendar id. */
export function presentProposal(row: ProposalRow, key: Uint8Array): OwnerProposal {
  return {
    id: row.id,
    start: formatInstant(Number(row.start_ms)),
    end: formatInstant(Number(row.end_ms)),
    name: row.name,
    email: row.email,
    note: row.note,
    visitor_timezone: row.visitor_timezone,
    visitor_language: row.visitor_language,
    created_at: formatInstant(Number(row.created_at)),
    status: row.status,
    uid: row.remote_uid ?? row.uid,
    sequence: Number(row.sequence),
    decided_at: row.decided_at == null ? null : formatInstant(Number(row.decided_at)),
    message: row.message,
    calendar:
      row.target_connection_id && row.calendar_name != null
        ? { connection_id: row.target_connection_id, calendar_id: row.target_calendar ? openContent(row.target_calendar, key) : '', name: row.calendar_name }
        : null,
    pending_action: row.request_action,
    error: row.request_error,
  };
}

function alreadyDecided(status: ProposalRow['status']) {
  const message = status === 'declined' ? DECISION_MESSAGES.declined : status === 'cancelled' ? DECISION_MESSAGES.cancelled : DECISION_MESSAGES.confirmed;
  return new HttpError(409, 'already_decided', message);
}

async function load(deps: Deps, userId: string, id: string) {
  const row = await findProposal(deps.db, userId, id, deps.config.AVAIL_SECRET_KEY);
  if (!row) throw notFound(DECISION_MESSAGES.notFound);
  const owner = await findOwnerContact(deps.db, userId);
  if (!owner) throw notFound(DECISION_MESSAGES.notFound);
  return { row, owner };
}

/** 409 `not_free` with the reason when [start, end) is no longer inside one free window. */
async function assertStillFree(deps: Deps, owner: { id: string; timezone: string }, row: ProposalRow): Promise<void> {
  const start = Number(row.start_ms);
  const end = Number(row.end_ms);
  if (start <= deps.now()) throw new HttpError(409, 'not_free', DECISION_MESSAGES.started);
  const inside = (ws: Array<{ start: number; end: number }>) => ws.some((w) => w.start <= start && end <= w.end);
  if (inside(await ownerFreeWindows(deps, owner, start, end))) return;
  const withinHours = inside(await ownerHoursWindows(deps, owner, start, end));
  throw new HttpError(409, 'not_free', withinHours ? DECISION_MESSAGES.busy : DECISION_MESSAGES.hours);
}

function language(row: ProposalRow): Language {
  return isLanguage(row.visitor_language) ? row.visitor_language : 'en';
}

/** Who the meeting's e-mails are between (the mail inputs' people fields). */
function people(row: ProposalRow, owner: { name: string; email: string; timezone: string }) {
  return {
    ownerName: owner.name,
    ownerEmail: owner.email,
    ownerTimezone: owner.timezone,
    visitorName: row.name,
    visitorEmail: row.email,
    visitorTimezone: row.visitor_timezone,
    language: language(row),
  };
}

/** The fields of the owner's own receipts (English): to the owner, about the visitor, times UTC ms. */
function ownerReceipt(row: ProposalRow, owner: { name: string; email: string; timezone: string }) {
  return {
    to: owner.email,
    ownerName: owner.name,
    ownerTimezone: owner.timezone,
    visitorName: row.name,
    visitorEmail: row.email,
    start: Number(row.start_ms),
    end: Number(row.end_ms),
  };
}

function uidFor(deps: Deps, row: ProposalRow): string {
  let host = 'avail.local';
  try {
    host = new URL(deps.config.PUBLIC_BASE_URL).hostname || host;
  } catch {
    /* keep the fallback */
  }
  return `${row.id}@${host}`;
}

/** The meeting of a proposal (lib/meeting-ical.ts meetingOf): the owner ORGANIZER, the visitor ATTENDEE, the note as DESCRIPTION. */
function proposalMeeting(row: ProposalRow, owner: { name: string; email: string }, uid: string, sequence: number, stampMs: number): Meeting {
  return meetingOf(
    { uid, sequence, startMs: Number(row.start_ms), endMs: Number(row.end_ms), description: row.note, stampMs },
    { name: owner.name, email: owner.email },
    { name: row.name, email: row.email },
  );
}

/** Sends one e-mail; a failure is logged (names only, never addresses or bodies) and does not undo the decision. */
async function sendQuietly(deps: Deps, what: string, proposalId: string, build: () => Parameters<Deps['mailer']['send']>[0]) {
  try {
    await deps.mailer.send(build());
  } catch (err) {
    const e = err as { name?: unknown; code?: unknown };
    deps.logger.warn({ proposalId, mail: what, errName: String(e?.name ?? 'Error'), errCode: e?.code == null ? undefined : String(e.code) }, 'could not send a proposal e-mail');
  }
}

/**
 * Compare-and-set of the status (and the rest of `set`) inside one replicated write.
 * The device request read with `row` is cleared with it; a request a device pushed meanwhile
 * (another `edited_at`) is kept, for the request worker to answer. `guard` runs inside the
 * transaction (the user row is locked first: replicatedWrite) and may refuse.
 * @returns 'done', 'status' (the status was not `from`), or 'guard' (the guard refused).
 */
function transition(
  deps: Deps,
  userId: string,
  row: ProposalRow,
  from: ProposalRow['status'],
  set: Partial<ProposalRow>,
  guard?: (trx: Parameters<Parameters<typeof replicatedWrite>[2]>[0]) => Promise<boolean>,
): Promise<'done' | 'status' | 'guard'> {
  return replicatedWrite(deps, userId, async (trx, stamp, now) => {
    const fresh = await findProposal(trx, userId, row.id, deps.config.AVAIL_SECRET_KEY);
    if (!fresh || fresh.status !== from) return 'status';
    if (guard && !(await guard(trx))) return 'guard';
    const sameRequest = Number(fresh.edited_at) === Number(row.edited_at) && fresh.device_id === row.device_id;
    await updateProposal(trx, userId, row.id, {
      ...set,
      updated_at: await stamp('proposals'),
      edited_at: now,
      device_id: 'server',
      ...(sameRequest
        ? { request_action: null, request_message: null, request_connection_id: null, request_calendar_id: null, request_error: null, request_claimed_at: null }
        : {}),
    }, deps.config.AVAIL_SECRET_KEY);
    return 'done';
  });
}

async function reread(deps: Deps, userId: string, id: string): Promise<ProposalRow> {
  const row = await findProposal(deps.db, userId, id, deps.config.AVAIL_SECRET_KEY);
  if (!row) throw notFound(DECISION_MESSAGES.notFound);
  return row;
}

/**
 * POST /me/proposals/{id}/confirm. `target`: the calendar to write to (else the proposal settings').
 * @returns the proposal, `status: 'confirmed'`, with its `uid`.
 * @throws 404 not one of the owner's; 409 `already_decided` (declined or cancelled), `not_free`
 *   (begun, busy, outside hours: the reason), `calendar_read_only`; 422 `errors.target`; 502
 *   `calendar_auth` / `calendar_unavailable` (the calendar refused or failed: still pending).
 */
export async function confirmProposal(deps: Deps, userId: string, id: string, target?: CalendarTarget | null): Promise<OwnerProposal> {
  const { row, owner } = await load(deps, userId, id);
  if (row.status === 'confirmed') return presentProposal(row, deps.config.AVAIL_SECRET_KEY);
  if (row.status !== 'pending') throw alreadyDecided(row.status);
  await assertStillFree(deps, { id: userId, timezone: owner.timezone }, row);
  const resolved = await resolveTarget(deps, userId, target);

  const uid = uidFor(deps, row);
  const meeting = proposalMeeting(row, owner, uid, 0, deps.now());
  const writer = resolved ? eventWriterFor(deps, resolved.connection.provider) : undefined;
  let written: { remoteId: string; uid?: string } | null = null;
  if (resolved && writer) written = await writeMeeting(deps, writer, resolved, meeting);

  // Taken after the write: a sync that began later lists the copy (store/proposals.repo.ts confirmedMeetingTimes).
  const decidedAt = deps.now();
  const key = deps.config.AVAIL_SECRET_KEY;
  const start = Number(row.start_ms);
  const end = Number(row.end_ms);
  const outcome = await transition(
    deps,
    userId,
    row,
    'pending',
    {
      status: 'confirmed',
      uid,
      sequence: 0,
      decided_at: decidedAt,
      message: '',
      target_connection_id: resolved && written ? resolved.connection_id : null,
      target_calendar: resolved && written ? sealContent(resolved.calendar_id, key) : null,
      remote_id: written ? sealContent(written.remoteId, key) : null,
      remote_uid: written?.uid ?? null,
      calendar_name: resolved && written ? resolved.calendar_name : null,
    },
    // Two overlapping proposals confirmed at the same moment: the second one finds the first.
    (trx) => overlapsConfirmed(trx, userId, row.id, start, end).then((taken) => !taken),
  );
  if (outcome !== 'done') {
    const fresh = await reread(deps, userId, id);
    // The writers are idempotent by UID: a concurrent confirm of THIS proposal wrote the same
    // event, which is now the meeting — only an event of ours that nobody owns is taken back out.
    const sameEvent = fresh.status === 'confirmed' && written && fresh.remote_id != null && openContent(fresh.remote_id, key) === written.remoteId;
    if (resolved && writer && written && !sameEvent) await removeQuietly(deps, writer, resolved.connection.id, userId, resolved.calendar_id, written.remoteId);
    if (outcome === 'guard') throw new HttpError(409, 'not_free', DECISION_MESSAGES.meeting);
    if (fresh.status === 'confirmed') return presentProposal(fresh, key);
    throw alreadyDecided(fresh.status);
  }
  if (resolved && written) scheduleSync(deps, resolved.connection_id);

  if (!writer?.sendsInvitation) await sendQuietly(deps, 'invitation', row.id, () => invitationEmail({ meeting, ...people(row, owner) }));
  if (!written) {
    await sendQuietly(deps, 'owner-ics', row.id, () =>
      ownerConfirmedEmail({ ...ownerReceipt(row, owner), calendarName: null, ics: meetingCalendar(meeting, 'PUBLISH') }),
    );
  }
  return presentProposal(await reread(deps, userId, id), deps.config.AVAIL_SECRET_KEY);
}

/**
 * The page the visitor's links open: the personal link they proposed through while it still opens,
 * else the plain `/{username}` (when the plain link is off and the personal one is gone, that page
 * says the link is not found — the e-mail still lists the times).
 */
async function visitorPageUrl(deps: Deps, userId: string, owner: { username: string | null }, row: ProposalRow, now: number): Promise<string> {
  if (row.share_link_id) {
    const url = await liveShareLinkUrl(deps, { id: userId, username: owner.username }, row.share_link_id, now);
    if (url) return url;
  }
  return owner.username ? `${deps.config.PUBLIC_BASE_URL}/${encodeURIComponent(owner.username)}` : deps.config.PUBLIC_BASE_URL;
}

/**
 * POST /me/proposals/{id}/decline `{ message }`: the visitor is told, with `message` and the next
 * three free windows (links to the public page at their dates). @returns `status: 'declined'`.
 * @throws 404; 409 `already_decided` (confirmed or cancelled).
 */
export async function declineProposal(deps: Deps, userId: string, id: string, message: string): Promise<OwnerProposal> {
  const { row, owner } = await load(deps, userId, id);
  if (row.status === 'declined') return presentProposal(row, deps.config.AVAIL_SECRET_KEY);
  if (row.status !== 'pending') throw alreadyDecided(row.status);
  const now = deps.now();
  if ((await transition(deps, userId, row, 'pending', { status: 'declined', decided_at: now, message })) !== 'done') {
    const fresh = await reread(deps, userId, id);
    if (fresh.status === 'declined') return presentProposal(fresh, deps.config.AVAIL_SECRET_KEY);
    throw alreadyDecided(fresh.status);
  }
  const windows = await ownerFreeWindows(deps, { id: userId, timezone: owner.timezone }, now, now + DECLINE_LOOKAHEAD_MS);
  const publicUrl = await visitorPageUrl(deps, userId, owner, row, now);
  await sendQuietly(deps, 'decline', row.id, () =>
    declineEmail({
      ownerName: owner.name,
      ownerEmail: owner.email,
      visitorName: row.name,
      visitorEmail: row.email,
      visitorTimezone: row.visitor_timezone,
      language: language(row),
      start: Number(row.start_ms),
      end: Number(row.end_ms),
      message,
      publicUrl,
      nextWindows: windows.slice(0, 3).map((w) => ({ start: w.start, end: w.end })),
    }),
  );
  return presentProposal(await reread(deps, userId, id), deps.config.AVAIL_SECRET_KEY);
}

/**
 * POST /me/proposals/{id}/cancel `{ message }` (confirmed only): the event leaves the calendar, the
 * visitor gets METHOD:CANCEL (same UID, SEQUENCE + 1) and the time is free on the public page.
 * @returns `status: 'cancelled'`. @throws 404; 409 `not_confirmed` (pending or declined);
 *   502 `calendar_auth` / `calendar_unavailable` (the event could not be removed: still confirmed).
 */
export async function cancelProposal(deps: Deps, userId: string, id: string, message: string): Promise<OwnerProposal> {
  const { row, owner } = await load(deps, userId, id);
  if (row.status === 'cancelled') return presentProposal(row, deps.config.AVAIL_SECRET_KEY);
  if (row.status !== 'confirmed') throw new HttpError(409, 'not_confirmed', DECISION_MESSAGES.notConfirmed);
  const key = deps.config.AVAIL_SECRET_KEY;
  const conn = row.target_connection_id ? await findConnection(deps.db, userId, row.target_connection_id, deps.config.AVAIL_SECRET_KEY) : undefined;
  const writer = conn ? eventWriterFor(deps, conn.provider) : undefined;
  if (conn && writer && row.remote_id && row.target_calendar) {
    await removeMeeting(deps, writer, conn, openContent(row.target_calendar, key), openContent(row.remote_id, key), row.calendar_name ?? conn.name);
  }
  const now = deps.now();
  const sequence = Number(row.sequence) + 1;
  if ((await transition(deps, userId, row, 'confirmed', { status: 'cancelled', decided_at: now, message, sequence })) !== 'done') {
    const fresh = await reread(deps, userId, id);
    if (fresh.status === 'cancelled') return presentProposal(fresh, deps.config.AVAIL_SECRET_KEY);
    throw new HttpError(409, 'not_confirmed', DECISION_MESSAGES.notConfirmed);
  }
  // The UID the visitor's invitation carried: Exchange's own for a Graph meeting, else ours.
  const meeting = proposalMeeting(row, owner, row.remote_uid ?? row.uid ?? uidFor(deps, row), sequence, now);
  if (!writer?.sendsInvitation) {
    await sendQuietly(deps, 'cancellation', row.id, () => cancellationEmail({ meeting, message, ...people(row, owner) }));
  }
  if (!row.target_connection_id) {
    // The owner added the confirmation's meeting.ics by hand: send them the CANCEL to remove it.
    await sendQuietly(deps, 'owner-cancel-ics', row.id, () =>
      ownerCancelledEmail({ ...ownerReceipt(row, owner), ics: meetingCalendar(meeting, 'CANCEL') }),
    );
  }
  // The calendar's own copy of the meeting is busy time until the connection syncs: sync it now.
  if (conn) {
    const sync = syncConnection(deps, conn.id).catch(() => undefined);
    await Promise.race([sync, new Promise((r) => setTimeout(r, CANCEL_SYNC_WAIT_MS).unref())]);
  }
  return presentProposal(await reread(deps, userId, id), deps.config.AVAIL_SECRET_KEY);
}

/** Carries out `action` (the owner's API, a one-click link, or a device's request). */
export function decide(deps: Deps, userId: string, id: string, action: ProposalAction, opts: { message?: string; target?: CalendarTarget | null }) {
  if (action === 'confirm') return confirmProposal(deps, userId, id, opts.target);
  if (action === 'decline') return declineProposal(deps, userId, id, opts.message ?? '');
  return cancelProposal(deps, userId, id, opts.message ?? '');
}

