/**
 * Front door of the public module (the owner's public page, free/busy, embeds): what other modules
 * and the app may use. Everything else in modules/public is internal.
 */
export { publicRouter } from './public.routes.ts';
export { publicPageHandler } from './public-page.service.ts';
export { closePublicCache } from './public-cache.ts';
export { ownerFreeWindows, ownerHoursWindows } from './owner-windows.service.ts';
export { openPublicLink } from './public.service.ts';
export { publicAvatarPath } from './public.presenter.ts';
