/**
 * What the tray is told while the owner's app part (DesktopIntegration) is not mounted (issue 25):
 * the session is loading, signed out, unreachable, or the owner is not verified. Pure.
 *
 * - signed out (no token stored): "Not signed in";
 * - a token is stored but the session could not be checked (offline start without a cached user):
 *   still the owner's — signed in and syncing, so the tray keeps its last known windows;
 * - signed in, e-mail not verified: "Verify your e-mail in Avail" (its waiting tray actions fail
 *   with that reason instead of waiting forever);
 * - loading, or signed in and verified: nothing (DesktopIntegration reports).
 *
 * Units: instants are UTC epoch milliseconds.
 */
import { signedOutTrayState, unverifiedTrayState, type TrayState } from '@avail/shared/desktop/desktop-bridge.ts';

/** The tray state for session `status` (see the module doc), or null when nothing is to be reported. */
export function sessionTrayState(input: { status: 'loading' | 'authenticated' | 'unauthenticated'; hasToken: boolean; verified: boolean; zone: string; now: number }): TrayState | null {
  if (input.status === 'unauthenticated') {
    if (!input.hasToken) return signedOutTrayState(input.now);
    return { signedIn: true, connection: 'offline', pendingCount: 0, timezone: input.zone, windows: [], link: null, freeTimesText: null, computedAt: input.now, syncing: true };
  }
  if (input.status === 'authenticated' && !input.verified) return unverifiedTrayState(input.now);
  return null;
}
