/**
 * The visitor's calls (product spec §7), sent without a token: the public page's free windows and
 * a proposed time. Part of `api` (`api-client.ts`).
 */
import { get, post } from './api-transport.ts';
import type { ProposalInput, PublicAvailability } from './api-shapes.ts';

export const publicCalls = {
  /** Public, no token. `range` = 'YYYY-MM-DD..YYYY-MM-DD'; `key`: a personal link's token, when the visitor came through one. */
  publicAvailability: (slug: string, range: string, tz: string, signal?: AbortSignal, key?: string) =>
    get<PublicAvailability>(`/public/${encodeURIComponent(slug)}/availability`, { query: { range, tz, ...(key ? { key } : {}) }, auth: false, signal }),
  /** Public, no token: relays a proposed time to the owner by e-mail. 201 `{ success, message }`; 404, 422, 429. `key` as above. */
  proposeTime: (slug: string, body: ProposalInput, key?: string) =>
    post<{ success: boolean; message: string }>(`/public/${encodeURIComponent(slug)}/proposals${key ? `?key=${encodeURIComponent(key)}` : ''}`, body, { auth: false }),
};
