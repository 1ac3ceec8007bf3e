/**
 * Busy rules per connection (issue 14 item 4): four owner choices that refine which events of one
 * connection count as busy, on top of the semantics doc's rules (cancelled, transparent, Outlook
 * FREE and declined events are free whatever these say). The defaults are exactly the doc's rules,
 * so a connection without rules derives as before. Documented in docs/busy-rules.md.
 */

export type BusyOrFree = 'busy' | 'free';

export interface BusyRules {
  /** All-day events (`DATE` values). Default 'busy' (semantics: all-day events are busy). */
  all_day: BusyOrFree;
  /**
   * Tentative events: the owner answered an invitation "maybe" (`PARTSTAT=TENTATIVE` on the
   * owner's ATTENDEE), or the event itself is tentative (`STATUS:TENTATIVE`,
   * `X-MICROSOFT-CDO-BUSYSTATUS:TENTATIVE`). Default 'busy' (semantics detail 13).
   */
  tentative: BusyOrFree;
  /** Invitations the owner has not answered (`PARTSTAT=NEEDS-ACTION` on the owner's ATTENDEE). Default 'busy'. */
  unanswered: BusyOrFree;
  /**
   * An event whose title contains one of these (case-insensitive, after trimming) is free, e.g.
   * "Hold", "Focus", "(optional)". Default none. At most 20 keywords of 1–50 characters.
   */
  free_keywords: string[];
}

export const FREE_KEYWORDS_MAX = 20;
export const FREE_KEYWORD_MAX_LENGTH = 50;

/** The semantics doc's rules: everything not excluded by it is busy; no keyword frees an event. */
export const DEFAULT_BUSY_RULES: Readonly<BusyRules> = Object.freeze({ all_day: 'busy', tentative: 'busy', unanswered: 'busy', free_keywords: [] as string[] });

/** True when `rules` say exactly what the defaults say. */
export function isDefaultBusyRules(rules: BusyRules): boolean {
  return rules.all_day === 'busy' && rules.tentative === 'busy' && rules.unanswered === 'busy' && rules.free_keywords.length === 0;
}

/**
 * Rules read back from storage (JSON text or null): unknown or missing fields take their defaults,
 * so a row written by another version never breaks derivation.
 */
export function readBusyRules(json: string | null | undefined): BusyRules {
  if (!json) return { ...DEFAULT_BUSY_RULES, free_keywords: [] };
  let raw: Partial<Record<keyof BusyRules, unknown>>;
  try {
    raw = JSON.parse(json) as typeof raw;
  } catch {
    return { ...DEFAULT_BUSY_RULES, free_keywords: [] };
  }
  const pick = (v: unknown): BusyOrFree => (v === 'free' ? 'free' : 'busy');
  const keywords = Array.isArray(raw.free_keywords) ? raw.free_keywords.filter((k): k is string => typeof k === 'string' && k.trim() !== '').map((k) => k.trim()) : [];
  return { all_day: pick(raw.all_day), tentative: pick(raw.tentative), unanswered: pick(raw.unanswered), free_keywords: keywords.slice(0, FREE_KEYWORDS_MAX) };
}
