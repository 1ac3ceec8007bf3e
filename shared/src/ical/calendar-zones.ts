/**
 * Time zones of one calendar's values (`shared/spec/availability-semantics.md` detail 5): TZIDs
 * resolved per calendar (IANA, the calendar's own VTIMEZONE, Windows names, globally-unique TZIDs),
 * X-WR-TIMEZONE for floating times, and the owner's zone as the fallback. Used by `calendar.ts`.
 */
import { UTC_ZONE, getIanaZone, isValidIanaZone, wallToInstant, type TimeZone } from '../domain/zone-time.ts';
import { VTimezone } from './vtimezone.ts';
import type { IcsTime } from './values.ts';
import type { ParsedCalendar } from './vevent.ts';
import { windowsZoneToIana } from './windows-zones.ts';

/**
 * Resolves a TZID within one calendar (semantics detail 5): IANA name → the calendar's own
 * VTIMEZONE of that name → Windows zone name (CLDR windowsZones) → the IANA name inside a
 * globally-unique TZID such as `/mozilla.org/20050126_1/Europe/Brussels`. `null` when nothing
 * matches (the caller then uses the owner's zone and warns).
 */
export function resolveTzid(cal: ParsedCalendar, tzid: string): TimeZone | null {
  if (cal.tzCache.has(tzid)) return cal.tzCache.get(tzid)!;
  let zone: TimeZone | null = null;
  const name = tzid.trim();
  if (isValidIanaZone(name)) zone = getIanaZone(name);
  if (!zone) {
    const comp = cal.vtimezones.get(tzid) ?? cal.vtimezones.get(name);
    if (comp) {
      try {
        zone = new VTimezone(name, comp);
      } catch {
        zone = null; // a garbage VTIMEZONE: the fallbacks below, then the owner's zone with a warning
      }
    }
  }
  if (!zone) {
    const iana = windowsZoneToIana(name);
    if (iana) zone = getIanaZone(iana);
  }
  if (!zone && name.includes('/')) {
    const parts = name.split('/').filter(Boolean);
    for (let i = 1; i < parts.length && !zone; i++) {
      const cand = parts.slice(i).join('/');
      if (isValidIanaZone(cand) && cand.includes('/')) zone = getIanaZone(cand);
    }
  }
  cal.tzCache.set(tzid, zone);
  return zone;
}

export interface ZoneCtx {
  cal: ParsedCalendar;
  owner: TimeZone;
  floating: TimeZone;
  floatingIsOwner: boolean;
  warnings: Set<string>;
}

/** Zone of a time value, and whether the owner's zone was used for it. */
export function zoneFor(ctx: ZoneCtx, t: IcsTime): [TimeZone, boolean] {
  switch (t.form) {
    case 'utc':
      return [UTC_ZONE, false];
    case 'date':
      return [ctx.owner, true];
    case 'floating':
      return [ctx.floating, ctx.floatingIsOwner];
    case 'zoned': {
      const z = resolveTzid(ctx.cal, t.tzid!);
      if (z) return [z, false];
      ctx.warnings.add(`unresolvable TZID ${JSON.stringify(t.tzid)}: read in the owner's zone ${ctx.owner.name}`);
      return [ctx.owner, true];
    }
  }
}

/**
 * The zone of floating times from X-WR-TIMEZONE (an IANA name, or a Windows name mapped to one),
 * or null (the owner's zone) when absent or unknown — the latter with a warning.
 */
export function floatingZoneOf(cal: ParsedCalendar, warnings: Set<string>): TimeZone | null {
  if (!cal.xWrTimezone) return null;
  if (isValidIanaZone(cal.xWrTimezone)) return getIanaZone(cal.xWrTimezone);
  const mapped = windowsZoneToIana(cal.xWrTimezone);
  if (mapped) return getIanaZone(mapped);
  warnings.add(`X-WR-TIMEZONE ${JSON.stringify(cal.xWrTimezone)} is not a known zone; floating times use the owner's zone`);
  return null;
}

/** Instant (UTC ms) of a timed value, and whether the owner's zone was used for it. */
export function instantOf(ctx: ZoneCtx, t: IcsTime): [number, boolean] {
  const [z, dep] = zoneFor(ctx, t);
  return [t.form === 'utc' ? t.wall : wallToInstant(z, t.wall), dep];
}
