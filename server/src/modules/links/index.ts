/**
 * Front door of the links module (the owner's links and their per-day views): what other modules
 * and the app may use. Everything else in modules/links is internal.
 */
export { linksRouter } from './links.routes.ts';
export { viewPeriods } from './links.service.ts';
