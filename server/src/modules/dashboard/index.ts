/** Front door of the dashboard module: what the app may use. Everything else is internal. */
export { dashboardRouter } from './dashboard.routes.ts';
