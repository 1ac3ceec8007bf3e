/**
 * The <option>s of a time-zone <select>: the spec's zones grouped by region (TIMEZONE_GROUPS), plus
 * `current` first when it is a zone outside that list (so a stored zone is never silently changed).
 */
import { TIMEZONE_GROUPS } from '@avail/shared/constants.ts';

const KNOWN = new Set(TIMEZONE_GROUPS.flatMap((g) => g.zones));
const label = (zone: string) => zone.replace(/_/g, ' ');

export function TimezoneOptions({ current }: { current?: string | null }) {
  return (
    <>
      {current && !KNOWN.has(current) && <option value={current}>{label(current)}</option>}
      {TIMEZONE_GROUPS.map((g) => (
        <optgroup key={g.group} label={g.group}>
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
