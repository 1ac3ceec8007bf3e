/**
 * The <option>s of a time-zone <select>: the spec's zones grouped by region (TIMEZONE_GROUPS), plus
 * `extra` and `current` first when they are zones outside that list (so a stored or detected zone
 * is never silently changed). `detected`: the browser's zone, marked " (detected)" (public page).
 */
import { TIMEZONE_GROUPS } from '@avail/shared/constants.ts';

const KNOWN = new Set(TIMEZONE_GROUPS.flatMap((g) => g.zones));

export function TimezoneOptions({
  current,
  extra = [],
  detected,
  detectedLabel = (zone) => `${zone} (detected)`,
  groupLabel = (group) => group,
}: {
  current?: string | null;
  extra?: readonly string[];
  detected?: string | null;
  /** The detected zone's text from its readable name (the visitor's language on the public page). */
  detectedLabel?: (zone: string) => string;
  /** A region's text from its TIMEZONE_GROUPS name. */
  groupLabel?: (group: string) => string;
}) {
  const label = (zone: string) => (detected && zone === detected ? detectedLabel(zone.replace(/_/g, ' ')) : zone.replace(/_/g, ' '));
  const outside = [...extra, ...(current ? [current] : [])].filter((z, i, all) => !KNOWN.has(z) && all.indexOf(z) === i);
  return (
    <>
      {outside.map((z) => (
        <option key={z} value={z}>
          {label(z)}
        </option>
      ))}
      {TIMEZONE_GROUPS.map((g) => (
        <optgroup key={g.group} label={groupLabel(g.group)}>
          {g.zones.map((z) => (
            <option key={z} value={z}>
              {label(z)}
            </option>
          ))}
        </optgroup>
      ))}
    </>
  );
}
