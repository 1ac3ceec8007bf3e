/**
 * Front door of the sync module: what other modules, the jobs and the app may use of calendar
 * sync (provider fetch → stored sources → derived events and busy time). Everything else in
 * modules/sync is internal; eslint.config.js refuses imports that pass by this file.
 */
export type { SyncDeps, SyncOutcome } from './sync-state.ts';
export { calendarListOf, calendarNamesOf, ownerEmailsFor, readState, secretOf } from './sync-state.ts';
export { backupSyncCandidates, markConnectionExpired, providerOfConnection, syncConnection, syncUser } from './sync.service.ts';
export { rederiveConnection, rederiveZoneDependentBusy } from './rederive.service.ts';
export { cancelScheduledSync, closeSyncQueue, runRequestedSync, scheduleSync, setSyncDispatcher, type RequestedSync } from './sync-queue.ts';
export { calendarSwitches, countsAsBusy, excludedCalendarIds, mergeCalendarList, readChoices, sealCalendarList, sealChoices } from './calendar-selection.ts';
export { DeriveError } from './derive.ts';
export { closeDerivePool, deriveOffThread } from './derive-pool.ts';
