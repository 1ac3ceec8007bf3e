/**
 * Personal links (issue 14 item 2): `POST /api/me/share-links {label, expires_at?}` and
 * `PUT /api/me/share-links/plain-link {enabled}`. Shared by the server and the Links screen's form.
 */
import './zod-setup.ts';
import { z } from 'zod';
import { parseIsoInstant } from './proposal.schema.ts';

const SHARE_LINK_LABEL_MAX = 80;
const SHARE_LINK_LABEL_REQUIRED = 'Give the link a label, e.g. who it is for.';
const SHARE_LINK_LABEL_TOO_LONG = `The label can be at most ${SHARE_LINK_LABEL_MAX} characters.`;
const SHARE_LINK_EXPIRY_INVALID = 'The expiry must be a date and time.';
/** Most personal links one owner keeps at once. */
export const SHARE_LINKS_MAX = 100;

/**
 * `{ label, expires_at? }`: label trimmed, 1–80 characters; expires_at an ISO 8601 instant with `Z`
 * or an offset, or null/absent for a link that never expires. Output: `{ label, expires_at: number | null }`
 * (UTC epoch ms). Whether the instant is in the future is the server's check (its clock).
 */
export const shareLinkSchema = z.object({
  label: z
    .string({ error: SHARE_LINK_LABEL_REQUIRED })
    .trim()
    .min(1, SHARE_LINK_LABEL_REQUIRED)
    .max(SHARE_LINK_LABEL_MAX, SHARE_LINK_LABEL_TOO_LONG),
  expires_at: z
    .string({ error: SHARE_LINK_EXPIRY_INVALID })
    .trim()
    .refine((v) => Number.isFinite(parseIsoInstant(v)), SHARE_LINK_EXPIRY_INVALID)
    .transform((v) => parseIsoInstant(v))
    .nullish()
    .transform((v) => v ?? null),
});
export type ShareLinkBody = z.infer<typeof shareLinkSchema>;

/** `{ enabled: boolean }`: whether the plain `/{username}` link opens the page. */
export const plainLinkSchema = z.object({
  enabled: z.boolean({ error: 'enabled must be true or false' }),
});

/** JSON of a personal link (GET/POST /api/me/share-links; issue 14), for the server and the web app. Instants ISO 8601 UTC. */
export interface ShareLink {
  id: string;
  label: string;
  /** `${PUBLIC_BASE_URL}/${username}?key=${token}`; null without a username. */
  url: string | null;
  /** null = never expires. */
  expires_at: string | null;
  created_at: string;
  expired: boolean;
  /** Distinct visitors per day, summed. */
  views: number;
  last_viewed_at: string | null;
}
export interface ShareLinks {
  share_links: ShareLink[];
  /** False when only personal links open the page. */
  plain_link_enabled: boolean;
}
