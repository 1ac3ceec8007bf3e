/**
 * Devices' requests (issue 24 item 6): a confirm, decline or cancel made in the desktop app or the
 * browser while offline is written into the device's `proposals` document (`request_*` fields)
 * and replicated when the device is back; the replication push stores the request and the change
 * bus tells this worker, which carries it out with the same code as the owner's API
 * (proposal-decisions.service.ts) and writes the outcome (a new status with the request cleared,
 * or `request_error` with the reason the owner sees).
 *
 * One worker per database handle (`startProposalRequests(deps)`, from createApp), listening to
 * every owner's changes (ChangeBus.subscribeOwners: other instances' writes too, on PostgreSQL).
 * A request is claimed first (`request_claimed_at`, compare-and-set: one instance carries it out;
 * a claim older than 5 minutes — an instance that died — may be taken again). One owner's requests
 * run one at a time; at start every waiting request is swept up.
 */
import type { Deps } from '../../http/deps.ts';
import { HttpError } from '../../http/errors.ts';
import { changeBusFor } from '../../store/change-bus.ts';
import { claimRequests, findProposal, updateProposal, usersWithRequests } from '../../store/proposals.repo.ts';
import { replicatedWrite } from '../../store/repl-clock.repo.ts';
import { decide } from './proposal-decisions.service.ts';
import type { Db } from '../../db/kysely.ts';
import type { ProposalRow } from '../../db/schema.ts';

/** A claim older than this may be taken by another instance (ms). */
const REQUEST_CLAIM_STALE_MS = 5 * 60_000;

const GENERIC_FAILURE = 'Avail could not carry this out. Please try again.';

/**
 * Carries out the owner's waiting device requests, oldest claim first. Each outcome is a replicated
 * write: success → the decision's own write (status, request cleared); failure → `request_error`
 * (an HttpError's message — e.g. "That time is no longer free: …" — else a generic text), the
 * request kept so the device shows what failed.
 */
async function carryOutRequests(deps: Deps, userId: string): Promise<number> {
  const rows = await claimRequests(deps.db, userId, deps.now(), REQUEST_CLAIM_STALE_MS, deps.config.AVAIL_SECRET_KEY);
  for (const row of rows) {
    const action = row.request_action;
    if (!action) continue;
    try {
      const target = row.request_connection_id && row.request_calendar_id ? { connection_id: row.request_connection_id, calendar_id: row.request_calendar_id } : null;
      await decide(deps, userId, row.id, action, { message: row.request_message ?? '', target });
      // Idempotent answers (already in that state) write nothing: clear the request here.
      await finish(deps, userId, row, null);
    } catch (err) {
      const message = err instanceof HttpError ? err.message : GENERIC_FAILURE;
      if (!(err instanceof HttpError)) deps.logger.warn({ proposalId: row.id, errName: (err as Error)?.name }, 'a device request on a proposal failed');
      await finish(deps, userId, row, message);
    }
  }
  return rows.length;
}

/**
 * Clears the request (error null) or records its failure — only while the stored request is still
 * the one claimed (same edit of the same device): a newer request pushed meanwhile is left for the
 * next run.
 */
async function finish(deps: Deps, userId: string, claimed: ProposalRow, error: string | null): Promise<void> {
  const id = claimed.id;
  await replicatedWrite(deps, userId, async (trx, stamp, now) => {
    const fresh = await findProposal(trx, userId, id, deps.config.AVAIL_SECRET_KEY);
    if (!fresh || fresh.request_action == null) return;
    if (Number(fresh.edited_at) !== Number(claimed.edited_at) || fresh.device_id !== claimed.device_id) return;
    await updateProposal(trx, userId, id, {
      ...(error === null ? { request_action: null, request_message: null, request_connection_id: null, request_calendar_id: null } : {}),
      request_error: error,
      request_claimed_at: null,
      updated_at: await stamp('proposals'),
      edited_at: now,
      device_id: 'server',
    }, deps.config.AVAIL_SECRET_KEY);
  });
}

const workers = new WeakMap<Db, () => void>();

/** Starts the worker of `deps.db` (once per handle); returns its stop function. */
export function startProposalRequests(deps: Deps): () => void {
  const existing = workers.get(deps.db);
  if (existing) return existing;
  const running = new Set<string>();
  const again = new Set<string>();
  let stopped = false;
  const run = (userId: string) => {
    if (stopped) return;
    if (running.has(userId)) {
      again.add(userId);
      return;
    }
    running.add(userId);
    void carryOutRequests(deps, userId)
      .catch((err: unknown) => deps.logger.warn({ userId, errName: (err as Error)?.name }, 'carrying out proposal requests failed'))
      .finally(() => {
        running.delete(userId);
        if (again.delete(userId)) run(userId);
      });
  };
  const sweep = () => {
    if (stopped) return;
    void usersWithRequests(deps.db)
      .then((ids) => ids.forEach(run))
      .catch(() => undefined);
  };
  const unsubscribe = changeBusFor(deps.db).subscribeOwners((userId) => (userId ? run(userId) : sweep()));
  sweep();
  const stop = () => {
    stopped = true;
    unsubscribe();
    workers.delete(deps.db);
  };
  workers.set(deps.db, stop);
  return stop;
}

/** Stops the worker of `db` if one runs (tests, shutdown). */
export function stopProposalRequests(db: Db): void {
  workers.get(db)?.();
}
