/**
 * Front door of the availability module (the owner's weekly hours and date overrides): what other
 * modules and the app may use. Everything else in modules/availability is internal.
 */
export { availabilityRouter } from './availability.routes.ts';
export {
  SERVER_DEVICE_ID,
  applyExceptionWrites,
  applyRuleWrites,
  validateDocs,
  validateExceptionDocs,
  validateRuleDocs,
  type ExceptionWrite,
  type RuleWrite,
} from './availability.service.ts';
