/**
 * Front door of the calendars module (the owner's calendar connections, their switches and
 * events): what the app may use. Everything else in modules/calendars is internal.
 */
export { calendarsRouter } from './calendars.routes.ts';
export { sealCalendarContent } from './calendars.service.ts';
export { sealLegacyIcsFeeds } from './calendar-connect.service.ts';
