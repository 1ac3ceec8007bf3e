/** Sync Now's answer read for the owner (issue 23 item 2): did every calendar sync, and which did not and why. */
import type { SyncNowResponse } from '@avail/shared/api/api-client.ts';
import { PROVIDER_LABEL } from '../../lib/provider-labels.ts';

export interface SyncFailure {
  connectionId: string;
  /** 'Team rota: Calendar feed not found (HTTP 404)' */
  line: string;
}
export interface SyncOutcome {
  ok: boolean;
  failures: SyncFailure[];
  /** The connections the answer reports on (empty from an older server). */
  reported: string[];
}

/**
 * `ok` only when the server says `success` (an older server without `results` answers 200 only
 * after a sync it counts as done: ok unless `success` is explicitly false). One line per failed
 * connection: its name (else its provider's label), then the server's reason.
 */
export function syncOutcome(res: Partial<SyncNowResponse> | null | undefined): SyncOutcome {
  const results = Array.isArray(res?.results) ? res.results : null;
  const failures: SyncFailure[] = (results ?? [])
    .filter((r) => !r.ok)
    .map((r) => {
      const name = r.name?.trim() || PROVIDER_LABEL[r.provider] || r.provider || 'A calendar';
      return { connectionId: String(r.connection_id), line: `${name}: ${r.error?.trim() || 'it could not be synced.'}` };
    });
  const reported = (results ?? []).map((r) => String(r.connection_id));
  if (results === null) return { ok: res?.success !== false, failures, reported };
  return { ok: res?.success === true && failures.length === 0, failures, reported };
}

/** "Try again" on one connection: did that one sync (another calendar's failure does not count against it)? */
export function connectionSynced(outcome: SyncOutcome, connectionId: string): boolean {
  if (outcome.failures.some((f) => f.connectionId === connectionId)) return false;
  return outcome.ok || outcome.reported.includes(connectionId);
}
