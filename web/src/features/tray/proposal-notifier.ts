/**
 * System notifications for visitors' proposed times (issue 10): the app checks the owner's
 * proposals every {@link PROPOSAL_CHECK_MS} (and when the network returns) and shows one
 * notification per proposal it has not announced yet. The ids already announced are kept per
 * user in localStorage, so a restart never repeats one; the very first check of a device only
 * records what is there (an owner installing the app is not flooded with old proposals).
 */
import { api, type Proposal } from '@avail/shared/api/api-client.ts';
import { proposalRoute, type DesktopNotification } from '@avail/shared/desktop/desktop-bridge.ts';

/** How often proposals are checked (ms). */
export const PROPOSAL_CHECK_MS = 20_000;
/** At most this many announced ids are remembered per user. */
const SEEN_MAX = 500;

const seenKey = (userId: string) => `avail.announced-proposals.${userId}`;

function readSeen(userId: string): string[] | null {
  try {
    const raw = localStorage.getItem(seenKey(userId));
    const v: unknown = raw ? JSON.parse(raw) : null;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : null;
  } catch {
    return null;
  }
}
function writeSeen(userId: string, ids: string[]): void {
  try {
    localStorage.setItem(seenKey(userId), JSON.stringify(ids.slice(-SEEN_MAX)));
  } catch {
    /* storage full or unavailable: a proposal may be announced again, never lost */
  }
}

/** The notification of one proposal: the visitor's name and the proposed time in the owner's zone; its click opens that proposal (highlighted). */
export function proposalNotification(p: Proposal, ownerZone: string): DesktopNotification {
  const day = new Intl.DateTimeFormat('en-GB', { timeZone: ownerZone, weekday: 'short', day: 'numeric', month: 'short' }).format(new Date(p.start));
  const time = new Intl.DateTimeFormat('en-GB', { timeZone: ownerZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return {
    title: 'New proposed time',
    body: `${p.name} proposed ${day}, ${time.format(new Date(p.start))}–${time.format(new Date(p.end))}`,
    route: proposalRoute(p.id),
  };
}

/**
 * One check: fetches the proposals and returns those not announced before (remembering them).
 * On a device's first check for `userId` nothing is returned, everything is remembered.
 * @throws ApiError / TypeError when the server cannot be asked (nothing is remembered then).
 */
export async function checkNewProposals(userId: string, fetchProposals: () => Promise<{ proposals: Proposal[] }> = api.proposals): Promise<Proposal[]> {
  const { proposals } = await fetchProposals();
  const seen = readSeen(userId);
  const ids = proposals.map((p) => p.id);
  if (seen === null) {
    writeSeen(userId, ids);
    return [];
  }
  const known = new Set(seen);
  const fresh = proposals.filter((p) => !known.has(p.id));
  if (fresh.length) writeSeen(userId, [...seen, ...fresh.map((p) => p.id)]);
  return fresh;
}
