/** ICS → busy intervals. See `calendar.ts` for the contract. */
export {
  parseCalendar,
  expandBusy,
  icsToBusy,
  resolveTzid,
  IcsParseError,
  ExpansionLimitError,
  type ParsedCalendar,
  type ParsedEvent,
  type ExpandOptions,
  type ExpandResult,
  type BusyInterval,
  type EventInstance,
} from './calendar.ts';
export { DEFAULT_BUSY_RULES, readBusyRules, isDefaultBusyRules, type BusyRules, type BusyOrFree } from './busy-rules.ts';
export { VTimezone, VTimezoneError } from './vtimezone.ts';
export { windowsZoneToIana } from './windows-zones.ts';
export { expandRRuleWall, type ExpandWindow } from './rrule.ts';
export { parseRRule, parseIcsTime, parseDuration, parseUtcOffset, RRuleError, type RecurRule, type IcsTime, type IcsDuration } from './values.ts';
export { readComponents, parseContentLine, unescapeText, type IcsComponent, type IcsProperty } from './content-lines.ts';
