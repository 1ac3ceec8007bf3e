/**
 * The owner's manual busy blocks (issue 10): `[start_ms, end_ms)` in UTC epoch ms, at most 14
 * days, with an owner-only note. One write path for REST and the replication push, as for the
 * weekly rules (availability.service.ts): every change is a whole document state (`BlockWrite`,
 * the wire shape of shared/src/rx/rx-schemas.ts with `_deleted`) applied by applyBlockWrites inside
 * a replicatedWrite transaction, so every write takes the user's replication stamp and reaches the
 * live stream. REST writes are authored by device 'server' at now.
 *
 * Visitors' code reads blocks only through `busyBlockTimes` (times, never the note).
 * The note is sealed at rest (issue 26; lib/crypto.ts sealContent with AVAIL_SECRET_KEY): written
 * sealed by applyBlockWrites, opened by presentBlock and the replication presenter for the owner.
 */
import type { WithDeleted } from 'rxdb';
import { z } from 'zod';
import { BUSY_BLOCK_NOTE_MAX_LENGTH } from '@avail/shared/constants.ts';
import type { BlockDoc } from '@avail/shared/rx/rx-schemas.ts';
import { BLOCK_NOTE_TOO_LONG_MESSAGE, blockTimesProblem, busyBlockSchemaAt } from '@avail/shared/schemas/block.schema.ts';
import type { Db } from '../../db/kysely.ts';
import type { BusyBlockRow } from '../../db/schema.ts';
import type { Deps } from '../../http/deps.ts';
import { openNullable, sealNullable } from '../../lib/crypto.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { parse } from '../../http/validate.ts';
import { SERVER_DEVICE_ID, validateDocs } from '../availability/index.ts';
import { replicatedWrite, type Stamper } from '../../store/repl-clock.repo.ts';
import * as repo from '../../store/blocks.repo.ts';

const BLOCK_NOT_FOUND = 'Busy block not found';

/** A block document state to store (`updated_at` is ignored: the server stamps it). */
export type BlockWrite = Omit<WithDeleted<BlockDoc>, 'updated_at'> & { updated_at?: number };

/** Block JSON of the owner's API: `{ id, start_ms, end_ms, note: string | null }` (UTC epoch ms). */
export interface BlockView {
  id: string;
  start_ms: number;
  end_ms: number;
  note: string | null;
}

/** busy_blocks row → Block JSON; `key` (AVAIL_SECRET_KEY) opens the sealed note (a legacy plain note is returned as is). */
function presentBlock(r: BusyBlockRow, key: Uint8Array): BlockView {
  return { id: r.id, start_ms: Number(r.start_ms), end_ms: Number(r.end_ms), note: openNullable(r.note, key) };
}

// ── Document validation (push and REST alike) ──

const MAX_MS = 1e15;
const strictMs = (message: string) => z.number({ error: message }).int(message).min(0, message).max(MAX_MS, message);
/**
 * The stored fields of a pushed block, strictly typed (no coercion, no trimming: stored as sent),
 * and — for live documents only — the clock-free time rules of the shared contract.
 */
const strictBlockDoc = z
  .object({
    start_ms: strictMs('The start must be a time in UTC epoch milliseconds.'),
    end_ms: strictMs('The end must be a time in UTC epoch milliseconds.'),
    note: z.string({ error: 'The note must be text.' }).max(BUSY_BLOCK_NOTE_MAX_LENGTH, BLOCK_NOTE_TOO_LONG_MESSAGE).nullish(),
    _deleted: z.boolean().optional(),
  })
  .superRefine((d, ctx) => {
    if (d._deleted) return;
    const problem = blockTimesProblem(d);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['end_ms'] });
  });

const blockFields = (d: BlockWrite) => ({ start_ms: d.start_ms, end_ms: d.end_ms, note: d.note ?? null });

/**
 * Validates block documents (the replication push; REST writes pass here too) and returns them
 * normalised to exactly the stored fields (a missing note → null).
 *
 * Checked: the replication fields; `start_ms`/`end_ms` integers 0..1e15 (UTC epoch ms); `note`
 * string ≤ 200 characters or null; for live documents end > start ('The end must be after the
 * start.') and at most 14 days ('A busy block can last at most 14 days.').
 *
 * Deliberately NOT checked: whether the block is already over. A device checks that when the
 * owner creates the block (addBlockLocal); an offline device may deliver it after it ended, and
 * refusing it then (422) would stop that device's whole push queue. A past block is harmless: the
 * public page never shows the past. Deletes are never refused for their times either.
 * @throws 422 validation_failed, `errors` keyed `<index>.<field>`, when ANY document is invalid.
 */
export function validateBlockDocs(docs: readonly unknown[]): BlockWrite[] {
  return validateDocs<BlockWrite>(docs, [strictBlockDoc], blockFields);
}

/**
 * Stores block states of `userId` (insert or overwrite; `_deleted` → soft delete) with the
 * transaction's stamp, the note sealed with `key` (AVAIL_SECRET_KEY). The one write path of REST
 * and push. Call inside replicatedWrite.
 * @returns the stored rows, in input order, with the note in clear (as sent).
 * @throws 422 (validateBlockDocs; nothing written); 409 `id_taken` when an id belongs to another
 *   user (never says whose, never overwrites).
 */
export async function applyBlockWrites(trx: Db, userId: string, docs: readonly unknown[], stamp: Stamper, key: Uint8Array): Promise<BusyBlockRow[]> {
  const valid = validateBlockDocs(docs);
  if (valid.length === 0) return [];
  const existing = new Map((await repo.findBlockRowsByIds(trx, valid.map((d) => d.id))).map((r) => [r.id, r]));
  for (const row of existing.values()) if (row.user_id !== userId) throw conflict('This document id is already in use.', 'id_taken');
  const updatedAt = await stamp('busy_blocks');
  const out: BusyBlockRow[] = [];
  for (const d of valid) {
    const row: BusyBlockRow = {
      id: d.id,
      user_id: userId,
      ...blockFields(d),
      edited_at: d.edited_at,
      device_id: d.device_id,
      updated_at: updatedAt,
      is_deleted: d._deleted ? 1 : 0,
    };
    await repo.writeBlockRow(trx, { ...row, note: sealNullable(row.note, key) }, existing.has(d.id));
    existing.set(d.id, row);
    out.push(row);
  }
  return out;
}

// ── REST ──

const MS_RE = /^\d{1,16}$/;

/**
 * Parses the `?from=&to=` of GET /api/me/blocks: optional UTC epoch ms (digits), from < to when
 * both are given. @throws 400 `invalid_range` otherwise.
 */
export function parseBlocksRange(query: { from?: unknown; to?: unknown }): { from?: number; to?: number } {
  const one = (name: 'from' | 'to'): number | undefined => {
    const v = query[name];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || !MS_RE.test(v)) throw badRequest(`${name} must be a time in UTC epoch milliseconds`, 'invalid_range');
    return Number(v);
  };
  const from = one('from');
  const to = one('to');
  if (from !== undefined && to !== undefined && to <= from) throw badRequest('to must be after from', 'invalid_range');
  return { from, to };
}

/** The owner's live blocks overlapping [from, to) (either bound optional), as Block JSON sorted by start. */
export async function listBlocks(deps: Deps, userId: string, range: { from?: number; to?: number }): Promise<BlockView[]> {
  return (await repo.listLiveBlocks(deps.db, userId, range)).map((r) => presentBlock(r, deps.config.AVAIL_SECRET_KEY));
}

/**
 * Adds one block from the body `{ start_ms, end_ms, note? }` (device 'server', edited now).
 * Strict, unlike a push: a block already over at deps.now() is refused too.
 * @returns its Block JSON (note trimmed; blank → null).
 * @throws 422 validation_failed `{ error, code, errors: { end_ms | note | start_ms: message } }` with
 *   'The end must be after the start.', 'A busy block can last at most 14 days.',
 *   'This time is already over.' or 'The note can be at most 200 characters.'; nothing stored.
 */
export async function addBlock(deps: Deps, userId: string, body: unknown): Promise<BlockView> {
  const input = parse(busyBlockSchemaAt(deps.now()), body ?? {});
  const [row] = await replicatedWrite(deps, userId, (trx, stamp, now) =>
    applyBlockWrites(
      trx,
      userId,
      [{ id: crypto.randomUUID(), ...input, edited_at: now, device_id: SERVER_DEVICE_ID, _deleted: false } satisfies BlockWrite],
      stamp,
      deps.config.AVAIL_SECRET_KEY,
    ),
  );
  return presentBlock(row, deps.config.AVAIL_SECRET_KEY);
}

/** Soft-deletes one of the owner's live blocks (the time is free again). @throws 404 'Busy block not found'. */
export async function deleteBlock(deps: Deps, userId: string, id: string): Promise<void> {
  await replicatedWrite(deps, userId, async (trx, stamp, now) => {
    const row = await repo.findLiveBlock(trx, userId, id);
    if (!row) throw notFound(BLOCK_NOT_FOUND);
    const { id: _id, ...fields } = presentBlock(row, deps.config.AVAIL_SECRET_KEY);
    const doc: BlockWrite = { id: row.id, ...fields, edited_at: now, device_id: SERVER_DEVICE_ID, _deleted: true };
    await applyBlockWrites(trx, userId, [doc], stamp, deps.config.AVAIL_SECRET_KEY);
  });
}

// ── Public free windows ──

/**
 * Busy time from the owner's live blocks overlapping [start, end) (UTC ms), as `{ start, end }`
 * intervals for the free-window engine — exactly like calendar busy intervals. Never the note.
 */
export async function busyBlockTimes(db: Db, userId: string, start: number, end: number): Promise<Array<{ start: number; end: number }>> {
  return (await repo.liveBlockTimesOverlapping(db, userId, start, end)).map((b) => ({ start: Number(b.start), end: Number(b.end) }));
}
