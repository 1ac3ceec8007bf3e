/**
 * The store's front door for calendars: SQL of calendar connections, their raw sources, derived
 * events and busy intervals, re-exported from the files that hold it:
 * - calendar-connections.repo.ts: connections (reads, writes, cascade delete, the jobs' lists);
 * - calendar-sources.repo.ts: the raw ICS objects of a connection (calendar_sources);
 * - calendar-events.repo.ts: derived events and busy intervals (replaceDerived, reads, eventUidKey);
 * - calendar-sealing.repo.ts: start-up passes that seal and key rows of earlier versions.
 * Every query that takes a user id filters by it: one owner never reaches another's rows. Personal
 * text is sealed at rest with the server key (issue 26; lib/crypto.ts sealContent, the `key` parameters).
 */
export {
  deleteConnectionCascade,
  findConnection,
  findConnectionById,
  findConnectionsByProvider,
  insertConnection,
  listBackupSyncCandidates,
  listConnections,
  listPushCapableConnectionIds,
  openConnectionTexts,
  setBusyRulesJson,
  setCalendarChoices,
  setConnectionSecret,
  updateConnection,
} from './calendar-connections.repo.ts';
export { applySourceChanges, listSources } from './calendar-sources.repo.ts';
export { findEventOfUser, listEvents, replaceDerived } from './calendar-events.repo.ts';
export type { DerivedRows } from './calendar-events.repo.ts';
export { listLegacyIcsConnections, sealLegacyIcsConnection, sealPlainContent } from './calendar-sealing.repo.ts';
