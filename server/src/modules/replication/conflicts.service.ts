/**
 * The owner's recent conflicts (Settings → "Changes replaced on another device"): which version of
 * a weekly rule, date exception or busy block lost to another device's, so the owner can look and
 * put it back (the device restores it as a new edit: shared/src/rx/restore-version.ts).
 */
import type { ReplacedVersion } from '@avail/shared/rx/replication-protocol.ts';
import type { Db } from '../../db/kysely.ts';
import { listConflicts } from './replication.repo.ts';

/** How far back the list goes (ms): 30 days, the conflict log's retention (jobs/purge.job.ts). */
const CONFLICTS_WINDOW_MS = 30 * 24 * 60 * 60_000;
/** Most entries returned. */
const CONFLICTS_LIMIT = 50;

const FIELDS: Record<ReplacedVersion['collection'], readonly string[]> = {
  availability_rules: ['weekday', 'start_time_local', 'end_time_local'],
  availability_exceptions: ['date', 'start_time_local', 'end_time_local'],
  busy_blocks: ['start_ms', 'end_ms', 'note'],
};

function pick(collection: ReplacedVersion['collection'], json: string): Record<string, unknown> {
  let doc: Record<string, unknown> = {};
  try {
    doc = JSON.parse(json) as Record<string, unknown>;
  } catch {
    // A row that cannot be read shows as an empty version rather than hiding the others.
  }
  const out: Record<string, unknown> = { id: doc.id, edited_at: doc.edited_at, device_id: doc.device_id, _deleted: Boolean(doc._deleted) };
  for (const f of FIELDS[collection]) out[f] = doc[f] ?? null;
  return out;
}

export type { ReplacedVersion };

/**
 * GET /api/me/conflicts: the owner's conflicts of the last 30 days, newest first, at most 50, as
 * ReplacedVersion. Only writable collections are ever logged. `now` in UTC epoch ms; `key`
 * (AVAIL_SECRET_KEY) opens the states, sealed at rest.
 */
export async function recentConflicts(db: Db, userId: string, now: number, key: Uint8Array): Promise<ReplacedVersion[]> {
  const rows = await listConflicts(db, userId, now - CONFLICTS_WINDOW_MS, CONFLICTS_LIMIT, key);
  return rows
    .filter((r): r is typeof r & { collection: ReplacedVersion['collection'] } => r.collection in FIELDS)
    .map((r) => {
      const kept = pick(r.collection, r.winner_json);
      return {
        id: r.id,
        collection: r.collection,
        docId: r.doc_id,
        reason: r.reason,
        decidedAt: new Date(r.created_at).toISOString(),
        replaced: pick(r.collection, r.loser_json),
        kept,
        byDevice: typeof kept.device_id === 'string' ? kept.device_id : 'unknown',
      };
    });
}
