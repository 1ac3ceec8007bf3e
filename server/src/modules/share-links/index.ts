/**
 * Front door of the share-links module (links that open the owner's page to one visitor): what
 * other modules and the app may use. Everything else in modules/share-links is internal.
 */
export { shareLinksRouter } from './share-links.routes.ts';
export { countShareLinkView, liveShareLinkUrl, openShareLink } from './share-links.service.ts';
