/** Front door of the profile module (the owner's profile, host picture, e-mail text): what the app may use. */
export { profileRouter } from './profile.routes.ts';
