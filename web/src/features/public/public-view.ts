/**
 * Where the visitor is on the public page, as it lives in the address (issue 22 item 2):
 * `?view=month&date=2026-12-08`. `view` is 'week' (default) or 'month'; `date` a plain date
 * (YYYY-MM-DD) inside the period shown; the personal link's `key` stays as it was. Parsing never
 * throws: anything else is ignored (the page then opens on its first free time). Shared by the
 * browser (history) and the server's render (the same strings reach both).
 */
export type PublicView = 'week' | 'month';

export interface PublicPlace {
  view: PublicView;
  /** A plain date, or null when the address names none. */
  date: string | null;
}

function validDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const [y, m, d] = s.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d));
  return y >= 2000 && y <= 2200 && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** The place named by the query's `view` and `date` values (strings as given, or undefined). */
function parsePlace(view: unknown, date: unknown): PublicPlace {
  return {
    view: view === 'month' ? 'month' : 'week',
    date: typeof date === 'string' && validDate(date) ? date : null,
  };
}

/** The place in a `location.search` string. */
export function placeFromSearch(search: string): PublicPlace {
  const q = new URLSearchParams(search);
  return parsePlace(q.get('view') ?? undefined, q.get('date') ?? undefined);
}

/** `search` with `view` and `date` set to `place` (week is the default and is left out); other parameters kept. */
export function searchWithPlace(search: string, place: PublicPlace): string {
  const q = new URLSearchParams(search);
  if (place.view === 'month') q.set('view', 'month');
  else q.delete('view');
  if (place.date) q.set('date', place.date);
  else q.delete('date');
  const s = q.toString();
  return s ? `?${s}` : '';
}
