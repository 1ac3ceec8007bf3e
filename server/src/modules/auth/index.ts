/**
 * Front door of the auth module (sign-up, sign-in, sessions, account, two-factor): what other
 * modules, the jobs and the app may use. Everything else in modules/auth is internal.
 */
export { authRouter } from './auth.routes.ts';
export { accountSecurityRouter } from './account-security.routes.ts';
export { twoFactorRouter } from './two-factor.routes.ts';
export { daysUntilUsernameChange, presentProfile, presentUser } from './user.presenter.ts';
export { purgeAuthLeftovers } from './auth-purge.service.ts';
export { ERASE_VACUUM_QUEUE, setEraseVacuumDispatcher, vacuumErasedTables } from './erase-vacuum.service.ts';
