/**
 * Clock-change notices for visitors (issue 14 item 5): from the public answer's `zone_changes`,
 * the changes that move the owner's hours on the visitor's clock, in words of the visitor's
 * language (issue 22). A change of the visitor's own zone moves every later time by its delta; a
 * change of the owner's zone moves the owner's hours the other way; changes at the same instant that
 * cancel out (both zones in step) say nothing, and nothing is said when owner and visitor share a zone.
 */
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { Formats } from '@avail/shared/i18n/formats.ts';
import { plainDateIn } from '@avail/shared/i18n/formats.ts';
import { useFormats } from './public-i18n.tsx';

export interface ZoneChangeView {
  at: string;
  zone: string;
  offset_before: number;
  offset_after: number;
}

/** '1 hour', '30 minutes', '1 hour, 30 minutes' in the reader's language. */
function amount(minutes: number, t: TFunction, f: Formats): string {
  const m = Math.abs(minutes);
  const parts = [...(m >= 60 ? [t('zone.hours', { count: Math.floor(m / 60) })] : []), ...(m % 60 ? [t('zone.minutes', { count: m % 60 })] : [])];
  return new Intl.ListFormat(f.locale, { type: 'unit', style: 'long' }).format(parts);
}

/** The notices for a visitor reading times in `visitorZone` of an owner in `ownerZone`, in `t`'s language and `f`'s formats. */
export function zoneChangeNotices(changes: readonly ZoneChangeView[] | undefined, ownerZone: string, visitorZone: string, t: TFunction, f: Formats): string[] {
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
    const names = named.map((c) => {
      const zone = c.zone.replace(/_/g, ' ');
      return c.zone === visitorZone ? t('zone.yours', { zone }) : zone;
    });
    const day = plainDateIn(Date.parse(at), named[0]!.zone);
    const values = { day: f.dateRange(day, day), where: new Intl.ListFormat(f.locale, { type: 'conjunction' }).format(names), amount: amount(net, t, f) };
    out.push(net > 0 ? t('zone.change', values) : t('zone.changeEarlier', values));
  }
  return out;
}

/** The notices in the page's language and formats (see `zoneChangeNotices`). */
export function useZoneChangeNotices(changes: readonly ZoneChangeView[] | undefined, ownerZone: string, visitorZone: string): string[] {
  const { t } = useTranslation();
  return zoneChangeNotices(changes, ownerZone, visitorZone, t, useFormats());
}
