/**
 * Windows time-zone names (`W. Europe Standard Time`, as Outlook/Exchange write them in `TZID`)
 * → IANA, through CLDR's windowsZones table as packaged by `windows-iana` (territory `001`, the
 * zone CLDR designates as the default for that Windows name).
 */
import { findIana } from 'windows-iana';
import { isValidIanaZone } from '../domain/zone-time.ts';

const cache = new Map<string, string | null>();

/** IANA name for a Windows zone name (exact CLDR spelling, surrounding spaces ignored), or `null`. */
export function windowsZoneToIana(name: string): string | null {
  const key = name.trim();
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let out: string | null = null;
  try {
    for (const cand of findIana(key)) {
      if (isValidIanaZone(cand)) {
        out = cand;
        break;
      }
    }
  } catch {
    out = null; // this runtime cannot evaluate the candidates: unknown name, the caller falls back and warns
  }
  cache.set(key, out);
  return out;
}
