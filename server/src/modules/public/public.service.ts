/** Free windows of a public link (availability-semantics.md "The public API"). */
import { createHash } from 'node:crypto';
import { resolvePublicRange } from '@avail/shared/domain/public-range.ts';
import { formatIsoDate, getIanaZone, instantToWall } from '@avail/shared/domain/zone-time.ts';
import type { Deps } from '../../http/deps.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { ownerFreeWindows } from './owner-windows.service.ts';
import { presentPublicAvailability } from './public.presenter.ts';
import * as repo from './public.repo.ts';

export const LINK_NOT_FOUND = 'This availability link could not be found.';

export interface PublicQuery {
  range?: unknown;
  tz?: unknown;
}

export interface Visitor {
  ip: string;
  userAgent: string;
}

/** Anonymous per-day visitor id: sha256(secret + day + ip + user agent). The IP itself is never stored. */
export function visitorHash(secret: Buffer, day: string, visitor: Visitor): string {
  return createHash('sha256').update(secret).update(`\u0000${day}\u0000${visitor.ip}\u0000${visitor.userAgent}`).digest('hex');
}

function queryString(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw badRequest(`${name} must be given once`, 'invalid_range');
  return value;
}

/**
 * Resolves the range, computes free windows from the owner's rules, exceptions and busy intervals
 * overlapping it, and counts the view. 404 for an unknown slug; 400 for a bad range or zone.
 */
export async function publicAvailability(deps: Deps, slug: string, query: PublicQuery, visitor: Visitor) {
  const owner = await repo.findPublicOwner(deps.db, slug);
  if (!owner) throw notFound(LINK_NOT_FOUND);
  const now = deps.now();
  const range = queryString(query.range, 'range');
  const tz = queryString(query.tz, 'tz');
  const resolved = resolvePublicRange({ range, tz }, owner.timezone, now);
  if (!resolved.ok) throw badRequest(resolved.error, 'invalid_range');

  const windows = await ownerFreeWindows(deps, owner, resolved.start, resolved.end);

  // The owner's calendar date, so per-day analytics follow the owner's days (not UTC's).
  const day = formatIsoDate(instantToWall(getIanaZone(owner.timezone), now));
  try {
    await repo.recordPageView(deps.db, {
      user_id: owner.id,
      day,
      visitor_hash: visitorHash(deps.config.AVAIL_SECRET_KEY, day, visitor),
      created_at: now,
    });
  } catch (err) {
    deps.logger.warn({ err }, 'could not record a page view');
  }

  return presentPublicAvailability({
    userName: owner.name,
    userTimezone: owner.timezone,
    windows,
    range: { start: resolved.start, end: resolved.end },
  });
}
