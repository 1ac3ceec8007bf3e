/** Front door of the health module (liveness, readiness): what the app may use. */
export { healthRouter } from './health.routes.ts';
