/**
 * Front door of the blocks module (the owner's manual busy blocks): what other modules and the app
 * may use. Everything else in modules/blocks is internal.
 */
export { blocksRouter } from './blocks.routes.ts';
export { applyBlockWrites, busyBlockTimes, validateBlockDocs } from './blocks.service.ts';
