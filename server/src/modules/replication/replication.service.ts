/**
 * Pull and push of the RxDB HTTP replication (https://rxdb.info/replication-http.html), contract
 * in shared/src/rx/replication-protocol.ts. Units: `updated_at`, `edited_at` are UTC epoch ms.
 */
import type { WithDeleted } from 'rxdb';
import { resolveConflict, sameEdit, sameRevision, type Editable } from '@avail/shared/rx/conflict-resolution.ts';
import { MAX_CLOCK_AHEAD_MS } from '@avail/shared/rx/hlc.ts';
import {
  PULL_LIMIT_DEFAULT,
  PULL_LIMIT_MAX,
  PUSH_BATCH_MAX,
  type Checkpoint,
  type CollectionName,
  type WritableCollectionName,
} from '@avail/shared/rx/replication-protocol.ts';
import type { Db } from '../../db/kysely.ts';
import type { Deps } from '../../http/deps.ts';
import { HttpError, badRequest, conflict } from '../../http/errors.ts';
import { proposalRequestFieldsSchema, type ProposalRequestFields } from '@avail/shared/schemas/proposal.schema.ts';
import * as availability from '../availability/index.ts';
import { findScheduleRowsByIds } from '../../store/availability.repo.ts';
import * as blocks from '../blocks/index.ts';
import { findBlockRowsByIds } from '../../store/blocks.repo.ts';
import { findProposalsByIds, updateProposal } from '../../store/proposals.repo.ts';
import { replicatedWrite, type Stamper } from '../../store/repl-clock.repo.ts';
import { blockDoc, exceptionDoc, proposalDoc, ruleDoc } from './replication.presenter.ts';
import { logConflict, pullPage, type Page } from './replication.repo.ts';

/** Parsed pull query: checkpoint (null = from the beginning) and page size. */
export interface PullQuery {
  checkpoint: Checkpoint | null;
  limit: number;
}

const INT_RE = /^\d{1,16}$/;

/**
 * Parses `?id=&updated_at=&limit=`. `limit` 1..PULL_LIMIT_MAX (default PULL_LIMIT_DEFAULT);
 * `id` and `updated_at` (epoch ms) come together or not at all.
 * @throws 400 bad_request for anything else.
 */
export function parsePullQuery(query: Record<string, unknown>): PullQuery {
  const one = (name: string): string | undefined => {
    const v = query[name];
    if (v === undefined) return undefined;
    if (typeof v !== 'string') throw badRequest(`${name} must be given once`);
    return v;
  };
  const limitRaw = one('limit');
  let limit = PULL_LIMIT_DEFAULT;
  if (limitRaw !== undefined) {
    if (!INT_RE.test(limitRaw) || Number(limitRaw) < 1 || Number(limitRaw) > PULL_LIMIT_MAX) {
      throw badRequest(`limit must be an integer from 1 to ${PULL_LIMIT_MAX}`);
    }
    limit = Number(limitRaw);
  }
  const id = one('id');
  const updatedAt = one('updated_at');
  if (id === undefined && updatedAt === undefined) return { checkpoint: null, limit };
  if (id === undefined || updatedAt === undefined) throw badRequest('id and updated_at must be given together');
  if (!INT_RE.test(updatedAt)) throw badRequest('updated_at must be epoch milliseconds');
  if (id.length === 0 || id.length > 64) throw badRequest('id must be 1 to 64 characters');
  return { checkpoint: { id, updated_at: Number(updatedAt) }, limit };
}

/**
 * GET pull: the user's documents of `collection` strictly after the checkpoint, ordered by
 * (updated_at, id), at most `limit`; `checkpoint` = the last one's, or the request's when empty.
 * `key` (AVAIL_SECRET_KEY) opens the event titles sealed at rest.
 */
export function pull(db: Db, userId: string, collection: CollectionName, query: PullQuery, key: Uint8Array): Promise<Page> {
  return pullPage(db, userId, collection, query.checkpoint, query.limit, key);
}

type Doc = WithDeleted<Editable> & Record<string, unknown>;

interface WritableOps {
  validate(docs: unknown[]): Doc[];
  /** `key` (AVAIL_SECRET_KEY) opens the texts sealed at rest (block notes, proposal texts). */
  findMasters(db: Db, ids: string[], key: Uint8Array): Promise<Array<{ user_id: string; doc: Doc }>>;
  /** `key` seals the texts kept sealed at rest. */
  apply(db: Db, userId: string, docs: Doc[], stamp: Stamper, now: number, key: Uint8Array): Promise<unknown>;
}

const OPS: Record<WritableCollectionName, WritableOps> = {
  availability_rules: {
    validate: (docs) => availability.validateRuleDocs(docs) as unknown as Doc[],
    findMasters: async (db, ids) => (await findScheduleRowsByIds(db, 'availability_rules', ids)).map((r) => ({ user_id: r.user_id, doc: ruleDoc(r) as unknown as Doc })),
    apply: (db, userId, docs, stamp, now) =>
      availability.applyRuleWrites(db, userId, docs as unknown as availability.RuleWrite[], stamp, now),
  },
  availability_exceptions: {
    validate: (docs) => availability.validateExceptionDocs(docs) as unknown as Doc[],
    findMasters: async (db, ids) =>
      (await findScheduleRowsByIds(db, 'availability_exceptions', ids)).map((r) => ({ user_id: r.user_id, doc: exceptionDoc(r) as unknown as Doc })),
    apply: (db, userId, docs, stamp, now) =>
      availability.applyExceptionWrites(db, userId, docs as unknown as availability.ExceptionWrite[], stamp, now),
  },
  // Busy blocks: shape and time rules are checked, "already over" is not (see validateBlockDocs).
  busy_blocks: {
    validate: (docs) => blocks.validateBlockDocs(docs) as unknown as Doc[],
    findMasters: async (db, ids, key) => (await findBlockRowsByIds(db, ids)).map((r) => ({ user_id: r.user_id, doc: blockDoc(r, key) as unknown as Doc })),
    apply: (db, userId, docs, stamp, _now, key) => blocks.applyBlockWrites(db, userId, docs, stamp, key),
  },
  // Proposals (issue 24): a device writes only its request; the server carries it out afterwards
  // (proposal-requests.service.ts, on the change bus) and writes the outcome.
  proposals: {
    validate: (docs) =>
      availability.validateDocs<Doc & ProposalRequestFields & { id: string; edited_at: number; device_id: string; _deleted: boolean }>(
        docs,
        [proposalRequestFieldsSchema],
        (d) => ({ request_action: d.request_action, request_message: d.request_message, request_connection_id: d.request_connection_id, request_calendar_id: d.request_calendar_id }),
      ),
    findMasters: async (db, ids, key) => (await findProposalsByIds(db, ids, key)).map((r) => ({ user_id: r.user_id, doc: proposalDoc(r) as unknown as Doc })),
    apply: async (db, userId, docs, stamp, _now, key) => {
      if (docs.length === 0) return;
      const updatedAt = await stamp('proposals');
      const stored = new Map((await findProposalsByIds(db, docs.map((d) => d.id), key)).map((r) => [r.id, r]));
      for (const d of docs as unknown as Array<ProposalRequestFields & { id: string; edited_at: number; device_id: string }>) {
        const was = stored.get(d.id);
        // A proposal the server does not hold (a device cannot create one) is ignored.
        if (!was) continue;
        const changed =
          was.request_action !== d.request_action ||
          was.request_message !== d.request_message ||
          was.request_connection_id !== d.request_connection_id ||
          was.request_calendar_id !== d.request_calendar_id;
        await updateProposal(db, userId, d.id, {
          request_action: d.request_action,
          request_message: d.request_message,
          request_connection_id: d.request_connection_id,
          request_calendar_id: d.request_calendar_id,
          // A new request — or the same one asked again after it failed — starts clean; the same one
          // edited again while it waits or runs keeps its claim (no second run at the same time).
          ...(changed || was.request_error !== null || d.request_action === null ? { request_error: null, request_claimed_at: null } : {}),
          edited_at: d.edited_at,
          device_id: d.device_id,
          updated_at: updatedAt,
        }, key);
      }
    },
  },
};

/**
 * `master` reduced to the fields `pushed` carries: a device pushes a proposal's request fields
 * only, so a retried push or a version built on the stored one compares on those (for the other
 * collections a pushed document carries every field and this is the master itself).
 */
function asPushed(master: Doc | null, pushed: Doc): Doc {
  if (!master) return master as unknown as Doc;
  const out: Record<string, unknown> = { _deleted: master._deleted };
  for (const k of Object.keys(pushed)) out[k] = master[k];
  return out as Doc;
}

/** The 422 `clock_ahead` message: a stamp more than MAX_CLOCK_AHEAD_MS (5 min) ahead of the server's clock. */
const CLOCK_AHEAD_MESSAGE = "This device's clock is more than 5 minutes ahead of the server. Please correct the date and time on this device.";

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * POST push of a writable collection: one transaction for the whole batch. For each row, with
 * `master` the stored state:
 * - no master, or master is the same revision as `assumedMasterState` → `newDocumentState` is
 *   applied with a fresh stamp;
 * - master already equals `newDocumentState` (a retried push; a retry of a re-stamped push
 *   carries the same stamp, PendingEdit.sent) → nothing to do;
 * - master is the same device's same edit with an earlier or equal stamp → nothing to do;
 * - `assumedMasterState` is the pushing device's own copy of the master from before it was
 *   re-stamped (`sameEdit`: same device, same fields, only the stamp moved), or the master is the
 *   pushing device's own earlier edit (a later stamp: its edits follow one another, and a lost
 *   answer leaves it assuming an older version) → applied as above, nothing logged;
 * (a proposal's master is compared on the request fields a device pushes: `asPushed`)
 * - otherwise resolveConflict(master, new): the new state wins → applied, master logged as loser;
 *   master wins → the new state is logged as loser and master returned.
 * @returns the conflicting master documents (empty = everything applied).
 * @throws 400 not an array / more than PUSH_BATCH_MAX rows / malformed row; 422 any invalid
 *   document (nothing applied; a busy block is never refused for being already over — an offline
 *   device may deliver it late, and a 422 would block its whole queue: blocks.validateBlockDocs);
 *   409 `id_taken` when a document id belongs to another user (nothing applied, nothing revealed);
 *   422 `clock_ahead` `{ error, code, server_time }` (the server's clock, UTC epoch ms) when an
 *   `edited_at` is more than MAX_CLOCK_AHEAD_MS (5 min) ahead of the server's clock (nothing
 *   applied; the device re-stamps and pushes again once: stamp-correction.ts).
 */
export async function push(deps: Deps, userId: string, collection: WritableCollectionName, body: unknown): Promise<Doc[]> {
  if (!Array.isArray(body)) throw badRequest('Push body must be an array of { assumedMasterState, newDocumentState }');
  if (body.length > PUSH_BATCH_MAX) throw new HttpError(413, 'payload_too_large', `At most ${PUSH_BATCH_MAX} documents per push`);
  const rows = body.map((row, i) => {
    if (!isObject(row) || !isObject(row.newDocumentState)) throw badRequest(`Row ${i} has no newDocumentState`);
    const assumed = row.assumedMasterState;
    if (assumed !== undefined && assumed !== null && !isObject(assumed)) throw badRequest(`Row ${i} has an invalid assumedMasterState`);
    return { assumed: (assumed ?? null) as Doc | null, raw: row.newDocumentState };
  });
  const ops = OPS[collection];
  const incoming = ops.validate(rows.map((r) => r.raw));
  if (incoming.length === 0) return [];
  // A stamp far ahead of this clock would win every later conflict (hlc.ts): refused, nothing applied.
  const serverTime = deps.now();
  if (incoming.some((d) => Number(d.edited_at) > serverTime + MAX_CLOCK_AHEAD_MS)) {
    throw new HttpError(422, 'clock_ahead', CLOCK_AHEAD_MESSAGE, undefined, { server_time: serverTime });
  }

  return replicatedWrite(deps, userId, async (trx, stamp, now) => {
    const masters = new Map<string, Doc>();
    const key = deps.config.AVAIL_SECRET_KEY;
    for (const m of await ops.findMasters(trx, [...new Set(incoming.map((d) => d.id))], key)) {
      if (m.user_id !== userId) throw conflict('This document id is already in use.', 'id_taken');
      masters.set(m.doc.id, m.doc);
    }
    const toApply: Doc[] = [];
    const conflicts = new Map<string, Doc>();
    const logs: Array<Parameters<typeof logConflict>[1]> = [];
    incoming.forEach((next, i) => {
      const master = masters.get(next.id) ?? null;
      const assumed = rows[i].assumed;
      if (master && sameRevision(asPushed(master, next), next)) return; // already stored (a retried push)
      // The same device's same edit with an earlier or equal stamp: already stored.
      if (master && sameEdit(asPushed(master, next), next) && next.edited_at <= master.edited_at) return;
      // Applied when new, when built on the stored version — or on this device's own copy of it
      // from before the copy it pushed was re-stamped (stamp-correction.ts: only the stamp moved) —
      // or when the stored version is this device's own earlier edit: a device's edits of a
      // document follow one another (its answer may have been lost, so it still assumes an older one).
      const builtOnMaster =
        master &&
        ((assumed && (sameRevision(asPushed(master, assumed), assumed) || (assumed.device_id === next.device_id && sameEdit(asPushed(master, assumed), assumed)))) ||
          (master.device_id === next.device_id && next.edited_at > master.edited_at));
      if (!master || builtOnMaster) {
        toApply.push(next);
        masters.set(next.id, next);
        conflicts.delete(next.id);
        return;
      }
      const { winner, loser, reason } = resolveConflict(master, next);
      const entry = { userId, collection, docId: next.id, winner, loser, reason, deviceId: next.device_id, now };
      logs.push(entry);
      if (winner === next) {
        toApply.push(next);
        masters.set(next.id, next);
        conflicts.delete(next.id);
      } else {
        conflicts.set(next.id, master);
      }
    });
    await ops.apply(trx, userId, toApply, stamp, now, key);
    for (const entry of logs) await logConflict(trx, entry, key);
    // Masters as stored now (with their stamps).
    if (conflicts.size === 0) return [];
    const stored = new Map((await ops.findMasters(trx, [...conflicts.keys()], key)).map((m) => [m.doc.id, m.doc]));
    return [...conflicts.keys()].map((id) => stored.get(id)!).filter(Boolean);
  });
}
