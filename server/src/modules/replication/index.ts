/**
 * Front door of the replication module (RxDB pull/push/stream, conflicts): what other modules and
 * the app may use. Everything else in modules/replication is internal.
 */
export { conflictsRouter } from './conflicts.routes.ts';
export { replicationRouter, type ReplicationRouterOptions } from './replication.routes.ts';
export { connectionDoc } from './replication.presenter.ts';
export { closeAllStreams } from './replication.stream.ts';
