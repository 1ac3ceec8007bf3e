/**
 * "Restore this version" (Settings → changes replaced by another device): puts a replaced version
 * of a weekly rule, date exception or busy block back as a NEW local edit on this device — stamped
 * by the conflict clock (hlc.ts), so it is later than the version that replaced it and replicates
 * like any edit. Nothing is forced on the server: the normal push decides, and the owner's other
 * devices receive it.
 *
 * - A replaced live version comes back in place (same id) while its document still exists; when
 *   the document was deleted meanwhile (a deletion always wins a conflict), it comes back as a new
 *   document with the same content.
 * - A replaced deletion is applied again (the document is deleted).
 * - Busy blocks are never edited, only added and deleted: a replaced block comes back as a new
 *   block, unless it is still there; a block that has already ended is refused ('This time is
 *   already over.', local-writes.ts).
 */
import type { AvailDatabase } from './avail-database.ts';
import {
  addBlockLocal,
  deleteBlockLocal,
  deleteExceptionLocal,
  putExceptionLocal,
  replaceRulesLocal,
} from './local-writes.ts';
import type { ReplacedVersion } from './replication-protocol.ts';

/** 'restored' = a local edit was made; 'current' = this version is already what the device holds. */
export type RestoreOutcome = 'restored' | 'current';

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * Restores `version.replaced` on `db` as an edit by `deviceId` (see the module comment).
 * `now` (UTC epoch ms) is the "already over" instant for blocks.
 * @throws ZodError with the spec's message when the version is no longer valid (e.g. a block
 *   that has ended); nothing is written then.
 */
export async function restoreVersion(db: AvailDatabase, deviceId: string, version: ReplacedVersion, now: number = Date.now()): Promise<RestoreOutcome> {
  const v = version.replaced;
  const id = version.docId;
  const deleted = v._deleted === true;

  if (version.collection === 'availability_rules') {
    const current = (await db.availability_rules.find().exec()).map((d) => ({
      id: d.id,
      weekday: d.weekday,
      start_time_local: d.start_time_local,
      end_time_local: d.end_time_local,
    }));
    const existing = current.find((r) => r.id === id);
    if (deleted) {
      if (!existing) return 'current';
      await replaceRulesLocal(db, deviceId, current.filter((r) => r.id !== id));
      return 'restored';
    }
    const wanted = { weekday: Number(v.weekday), start_time_local: String(v.start_time_local), end_time_local: String(v.end_time_local) };
    if (existing && existing.weekday === wanted.weekday && existing.start_time_local === wanted.start_time_local && existing.end_time_local === wanted.end_time_local) {
      return 'current';
    }
    const next = existing ? current.map((r) => (r.id === id ? { id, ...wanted } : r)) : [...current, wanted];
    await replaceRulesLocal(db, deviceId, next);
    return 'restored';
  }

  if (version.collection === 'availability_exceptions') {
    const existing = await db.availability_exceptions.findOne(id).exec();
    if (deleted) {
      if (!existing) return 'current';
      await deleteExceptionLocal(db, deviceId, id);
      return 'restored';
    }
    const wanted = { date: String(v.date), start_time_local: str(v.start_time_local), end_time_local: str(v.end_time_local) };
    if (existing && existing.date === wanted.date && existing.start_time_local === wanted.start_time_local && existing.end_time_local === wanted.end_time_local) {
      return 'current';
    }
    await putExceptionLocal(db, deviceId, existing ? { id, ...wanted } : wanted);
    return 'restored';
  }

  const existing = await db.busy_blocks.findOne(id).exec();
  if (deleted) {
    if (!existing) return 'current';
    await deleteBlockLocal(db, deviceId, id);
    return 'restored';
  }
  if (existing) return 'current';
  await addBlockLocal(db, deviceId, { start_ms: Number(v.start_ms), end_ms: Number(v.end_ms), note: str(v.note) }, now);
  return 'restored';
}
