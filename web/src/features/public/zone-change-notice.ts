/**
 * Clock-change notices for visitors (issue 14 item 5): from the public answer's `zone_changes`,
 * the changes that move the owner's hours on the visitor's clock, in words. A change of the
 * visitor's own zone moves every later time by its delta; a change of the owner's zone moves the
 * owner's hours the other way; changes at the same instant that cancel out (both zones in step)
 * say nothing, and nothing is said when owner and visitor share a zone.
 */
export interface ZoneChangeView {
  at: string;
  zone: string;
  offset_before: number;
  offset_after: number;
}

function amount(minutes: number): string {
  const m = Math.abs(minutes);
  if (m % 60 === 0) return `${m / 60} h`;
  return m > 60 ? `${Math.floor(m / 60)} h ${m % 60} min` : `${m} min`;
}

/** "Sun 29 Mar 2026" of an instant in `zone`. */
function dayOf(ms: number, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: zone }).formatToParts(new Date(ms));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return `${get('weekday')} ${get('day')} ${get('month')} ${get('year')}`;
}

/** The notices for a visitor reading times in `visitorZone` of an owner in `ownerZone`. */
export function zoneChangeNotices(changes: readonly ZoneChangeView[] | undefined, ownerZone: string, visitorZone: string): string[] {
  if (!changes?.length || ownerZone === visitorZone) return [];
  const byInstant = new Map<string, ZoneChangeView[]>();
  for (const c of changes) byInstant.set(c.at, [...(byInstant.get(c.at) ?? []), c]);
  const out: string[] = [];
  for (const [at, group] of byInstant) {
    let net = 0;
    for (const c of group) {
      const delta = c.offset_after - c.offset_before;
      if (c.zone === visitorZone) net += delta;
      else if (c.zone === ownerZone) net -= delta;
    }
    if (net === 0) continue;
    const named = group.filter((c) => c.zone === visitorZone || c.zone === ownerZone);
    const where = named.map((c) => `${c.zone.replace(/_/g, ' ')}${c.zone === visitorZone ? ' (your time zone)' : ''}`).join(' and ');
    out.push(`Clocks change on ${dayOf(Date.parse(at), named[0]!.zone)} in ${where}: times after it are ${amount(net)} ${net > 0 ? 'later' : 'earlier'} for you.`);
  }
  return out;
}
