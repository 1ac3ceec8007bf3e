/**
 * Links → "Subscribe in your calendar" and "Embed on your website": which link the addresses go
 * through — the public link, or a personal link (issue 14), whose key they then carry. With the
 * public link off (only people with a personal link), addresses without a key answer "not found",
 * so a personal link is chosen by default and the field says why.
 */
import { useState } from 'react';
import type { ShareLinks } from '@avail/shared/api/api-client.ts';
import { keyOfShareUrl } from '../../lib/public-link.ts';

const PUBLIC_LINK_OFF_HINT = 'Your public link is off, so addresses through it show “not found”.';
const NO_PERSONAL_LINK_HINT = 'Create a personal link above to get addresses that work.';

/** The chosen link: `key` null = the public link. */
export interface ShareVia {
  /** 'public' or a personal link's id. */
  value: string;
  key: string | null;
  set(value: string): void;
  options: Array<{ value: string; label: string }>;
  /** The public link is off. */
  publicOff: boolean;
}

/** The choices from the owner's personal links (active ones with an address) and the plain link's state. */
export function useShareVia(data: ShareLinks | null | undefined): ShareVia {
  const [chosen, setChosen] = useState<string | null>(null);
  const publicOff = data?.plain_link_enabled === false;
  const personal = (data?.share_links ?? []).filter((l) => !l.expired && keyOfShareUrl(l.url));
  const options = [
    { value: 'public', label: publicOff ? 'Your public link (off)' : 'Your public link' },
    ...personal.map((l) => ({ value: l.id, label: `Personal link: ${l.label}` })),
  ];
  const fallback = publicOff && personal[0] ? personal[0].id : 'public';
  const value = chosen !== null && options.some((o) => o.value === chosen) ? chosen : fallback;
  const link = personal.find((l) => l.id === value);
  return { value, key: link ? keyOfShareUrl(link.url) : null, set: setChosen, options, publicOff };
}

/** The "Through" select (shown once there is a personal link or the public link is off). */
export function ShareViaField({ id, via }: { id: string; via: ShareVia }) {
  if (via.options.length < 2 && !via.publicOff) return null;
  const hint = via.publicOff && via.value === 'public';
  return (
    <div className="field">
      <label htmlFor={id}>Through</label>
      <select id={id} value={via.value} onChange={(e) => via.set(e.target.value)} aria-describedby={hint ? `${id}-hint` : undefined}>
        {via.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {hint && (
        <p id={`${id}-hint`} className="small text-danger" data-testid={`${id}-off`}>
          {PUBLIC_LINK_OFF_HINT} {via.options.length < 2 ? NO_PERSONAL_LINK_HINT : 'Choose a personal link.'}
        </p>
      )}
    </div>
  );
}
