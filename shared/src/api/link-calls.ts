/**
 * The owner's link calls (product spec §7): the public link, personal share links, the plain
 * link switch, the page's view counts and the e-mail text that lists free times. Part of `api`
 * (`api-client.ts`).
 */
import { get, post, put, del } from './api-transport.ts';
import type { GeneratedEmailText, LinkAnalytics, OwnerLink } from './api-shapes.ts';
import type { ShareLink, ShareLinks } from '../schemas/share-link.schema.ts';

export const linkCalls = {
  links: () => get<{ links: OwnerLink[] }>('/me/links'),
  /** GET /me/share-links: the owner's personal links, newest first, and whether the plain link is on. */
  shareLinks: () => get<ShareLinks>('/me/share-links'),
  /** POST /me/share-links: 201 the new link; 422 `errors.label` / `errors.expires_at`; 409 no_username / too_many_links. */
  createShareLink: (body: { label: string; expires_at?: string | null }) => post<ShareLink>('/me/share-links', body),
  /** DELETE /me/share-links/{id}: revoked at once (204); 404 when already gone. */
  revokeShareLink: (id: string) => del<unknown>(`/me/share-links/${encodeURIComponent(id)}`),
  /** PUT /me/share-links/plain-link: `enabled` false = only personal links open the page. */
  setPlainLink: (enabled: boolean) => put<{ plain_link_enabled: boolean }>('/me/share-links/plain-link', { enabled }),
  createLink: () => post<{ link: OwnerLink }>('/me/links', {}),
  linkAnalytics: (days: 7 | 30 | 90 = 30) => get<LinkAnalytics>('/me/analytics/links', { query: { days: String(days) } }),
  generateEmailText: (body: { context?: string; timezone?: string }) =>
    post<GeneratedEmailText>('/me/profile/generate-email-text', body),
};
