/**
 * The initials picture of a host (issue 22): two letters and a colour tone derived from the name,
 * shown where the owner has no uploaded picture — on the public page (features/public/host-card.tsx)
 * and in Settings → Profile. Pure; the tones are CSS classes `…--tone-0` … `--tone-4` of each feature.
 */

/** Number of colour tones of the initials circle. */
export const HOST_TONES = 5;

/**
 * The initials of a name: the first letter (or digit) of its first and of its last word, upper-cased;
 * one letter for a one-word name; '?' when there is none. 'Olivia de Wit' → 'OW', 'émile' → 'É'.
 */
export function hostInitials(name: string): string {
  const letters = name
    .trim()
    .split(/\s+/)
    .map((w) => /[\p{L}\p{N}]/u.exec(w)?.[0])
    .filter((c): c is string => !!c);
  if (letters.length === 0) return '?';
  return (letters[0] + (letters.length > 1 ? letters[letters.length - 1] : '')).toLocaleUpperCase();
}

/** The colour tone (0 … HOST_TONES - 1) of a name: a stable hash of its code points, so one name always gets one colour. */
export function hostTone(name: string): number {
  let h = 0;
  for (const ch of name.trim().toLowerCase()) h = (Math.imul(h, 31) + ch.codePointAt(0)!) >>> 0;
  return h % HOST_TONES;
}
