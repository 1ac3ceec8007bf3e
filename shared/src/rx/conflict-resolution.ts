/**
 * Per-document conflict resolution, shared by the server (push) and the device (RxDB
 * conflictHandler), so both reach the same answer without talking.
 *
 * Rules (issue 3):
 * 1. A deleted state wins over a live one: a rule deleted on one device and edited on another stays
 *    deleted; the edit is the loser (recorded, never silently dropped).
 * 2. Otherwise the later `edited_at` wins — a hybrid logical clock stamp (hlc.ts): an edit made
 *    after seeing another is always later, and devices' wall clocks are corrected by the server's
 *    — equal stamps go to the larger `device_id` (string order).
 * Two states are the same revision when their replicated content is equal — `updated_at` (the
 * server's stamp) is ignored.
 */
import type { RxConflictHandler, WithDeleted } from 'rxdb';

/** What the resolver needs of a writable document. */
export interface Editable {
  id: string;
  edited_at: number;
  device_id: string;
  updated_at: number;
}

/** True when a and b are the same revision: all fields equal except the server stamp `updated_at`. */
export function sameRevision<T extends Editable>(a: WithDeleted<T>, b: WithDeleted<T>): boolean {
  if (Boolean(a._deleted) !== Boolean(b._deleted)) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    if (k === 'updated_at' || k === '_deleted' || k === '_meta' || k === '_rev' || k === '_attachments') continue;
    if ((a as unknown as Record<string, unknown>)[k] !== (b as unknown as Record<string, unknown>)[k]) return false;
  }
  return true;
}

/**
 * True when `b` is `a`'s edit, possibly re-stamped on its way (stamp-correction.ts moves only the
 * stamp): the same device and the same fields, `edited_at` aside. The server treats such a pair
 * as one revision, so a device that pushed a re-stamped copy and still believes its own stamp
 * (a retried push, or the next edit built on it) is not taken for another device.
 */
export function sameEdit<T extends Editable>(a: WithDeleted<T>, b: WithDeleted<T>): boolean {
  return a.device_id === b.device_id && sameRevision({ ...a, edited_at: 0 }, { ...b, edited_at: 0 });
}

export interface Resolution<T> {
  winner: WithDeleted<T>;
  loser: WithDeleted<T>;
  /** Why the winner won: 'delete_wins' | 'latest_edit' | 'device_tiebreak'. */
  reason: 'delete_wins' | 'latest_edit' | 'device_tiebreak';
}

/** Picks the winner of two different revisions of one document (see the rules above). Pure, deterministic, symmetric. */
export function resolveConflict<T extends Editable>(master: WithDeleted<T>, incoming: WithDeleted<T>): Resolution<T> {
  if (master._deleted !== incoming._deleted) {
    return master._deleted
      ? { winner: master, loser: incoming, reason: 'delete_wins' }
      : { winner: incoming, loser: master, reason: 'delete_wins' };
  }
  if (master.edited_at !== incoming.edited_at) {
    return master.edited_at > incoming.edited_at
      ? { winner: master, loser: incoming, reason: 'latest_edit' }
      : { winner: incoming, loser: master, reason: 'latest_edit' };
  }
  return master.device_id >= incoming.device_id
    ? { winner: master, loser: incoming, reason: 'device_tiebreak' }
    : { winner: incoming, loser: master, reason: 'device_tiebreak' };
}

/**
 * RxDB conflict handler of the writable collections. RxDB asks it only about a master the server
 * returned from a push, and the server returns a master only when it won under
 * {@link resolveConflict} — decided with the pushed copy's stamp, which the device may have
 * corrected on the way (stamp-correction.ts) and RxDB does not know. So the device takes the
 * server's master: recomputing with its own uncorrected stamp could pick the loser and push it
 * over the winner. The loser is in the server's conflicts list.
 */
export function conflictHandlerFor<T extends Editable>(): RxConflictHandler<T> {
  return {
    isEqual: (a, b) => sameRevision(a as WithDeleted<T>, b as WithDeleted<T>),
    resolve: async (i) => i.realMasterState,
  };
}
