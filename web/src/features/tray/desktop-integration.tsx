/**
 * The owner's app side of the tray (issue 10), mounted while an owner is signed in: it keeps the
 * platform's tray state current from the device's local data, carries out the tray's commands
 * (busy blocks, Sync now) and announces visitors' proposals as system notifications.
 *
 * It runs the same in a browser, where the bridge's tray and notifications are no-ops: React never
 * asks which platform it is on.
 */
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { api, type OwnerLink, type User } from '@avail/shared/api/api-client.ts';
import { proposalRoute, TRAY_PROPOSALS_MAX, type DesktopCommand, type TrayProposal } from '@avail/shared/desktop/desktop-bridge.ts';
import { addBlockLocal } from '@avail/shared/rx/local-writes.ts';
import type { BlockDoc, EventDoc, ExceptionDoc, ProposalDoc, RuleDoc } from '@avail/shared/rx/rx-schemas.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '@avail/shared/domain/zone-time.ts';
import { peek, subscribeStore, SYNC_COMPLETED_EVENT } from '../../data/data-store.ts';
import { useLocalData, usePendingKeys, useRxQuery, useSyncStatus } from '../../data/local-data.tsx';
import { actionErrorText, decideProposal, pendingSoonestFirst, proposalFromDoc } from '../../data/proposals.ts';
import { useSession } from '../../data/session.tsx';
import { publicLinkOf } from '../../lib/public-link.ts';
import { bridge } from '../../platform/platform.ts';
import { checkNewProposals, proposalNotification, PROPOSAL_CHECK_MS } from './proposal-notifier.ts';
import { buildTrayState, busyBlockBounds, TRAY_HORIZON_MS } from './tray-state.ts';

/** The current time, re-read at every minute boundary. */
function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const schedule = () => {
      timer = setTimeout(() => {
        setNow(Date.now());
        schedule();
      }, MINUTE_MS - (Date.now() % MINUTE_MS) + 50);
    };
    schedule();
    return () => clearTimeout(timer);
  }, []);
  return now;
}

/** The owner's public link: the server's (GET /me/links) when loaded, else the user's `public_url`. */
function usePublicLink(user: User | null): string | null {
  const links = useSyncExternalStore(subscribeStore, () => peek<{ links: OwnerLink[] }>('links'));
  const fromServer = links?.links?.[0]?.url;
  if (fromServer) return fromServer;
  return user?.username ? publicLinkOf(user) : null;
}

export default function DesktopIntegration() {
  const { user } = useSession();
  const { data, synced } = useLocalData();
  const connection = useSyncStatus();
  const pending = usePendingKeys(data);
  const now = useMinuteClock();
  const hour = Math.floor(now / HOUR_MS) * HOUR_MS;
  const userId = user ? String(user.id) : null;
  const timezone = user?.timezone ?? null;

  const rules = useRxQuery<RuleDoc>(data?.db, (db) => (synced ? db.availability_rules.find() : null), [synced]);
  const exceptions = useRxQuery<ExceptionDoc>(data?.db, (db) => (synced ? db.availability_exceptions.find() : null), [synced]);
  // Busy calendar events and busy blocks that can touch the next 14 days (re-queried each hour).
  const events = useRxQuery<EventDoc>(
    data?.db,
    (db) => (synced ? db.calendar_events.find({ selector: { start_ms: { $lt: hour + TRAY_HORIZON_MS + DAY_MS }, end_ms: { $gt: hour } } }) : null),
    [synced, hour],
  );
  const blocks = useRxQuery<BlockDoc>(
    data?.db,
    (db) => (synced ? db.busy_blocks.find({ selector: { start_ms: { $lt: hour + TRAY_HORIZON_MS + DAY_MS }, end_ms: { $gt: hour } } }) : null),
    [synced, hour],
  );
  // Pending proposals (issue 24): listed in the tray with Confirm / Decline.
  const proposalDocs = useRxQuery<ProposalDoc>(data?.db, (db) => (synced ? db.proposals.find({ selector: { status: 'pending' } }) : null), [synced]);
  const trayProposals = useMemo<TrayProposal[]>(
    () =>
      pendingSoonestFirst((proposalDocs ?? []).map((d) => proposalFromDoc(d, pending.includes(`proposals/${d.id}`))))
        .filter((p) => !p.pending_action && p.end_ms > hour)
        .slice(0, TRAY_PROPOSALS_MAX)
        .map((p) => ({ id: p.id, name: p.name.slice(0, 100), start: p.start_ms, end: p.end_ms })),
    [proposalDocs, hour, pending],
  );
  const link = usePublicLink(user);

  const state = useMemo(() => {
    if (!user || !timezone || !rules || !exceptions || !events || !blocks) return null;
    try {
      return buildTrayState({
        proposals: trayProposals,
        timezone,
        rules,
        exceptions,
        busy: [...events.filter((e) => e.is_busy).map((e) => ({ start: e.start_ms, end: e.end_ms })), ...blocks.map((b) => ({ start: b.start_ms, end: b.end_ms }))],
        now,
        name: user.name,
        link,
        connection,
        pendingCount: pending.length,
      });
    } catch (e) {
      console.error('The tray state could not be computed', (e as Error)?.message);
      return null;
    }
  }, [user, timezone, rules, exceptions, events, blocks, now, link, connection, pending.length, trayProposals]);

  useEffect(() => {
    if (state) bridge.setTrayState(state);
  }, [state]);

  // Tray commands, carried out on the device's database (offline too).
  const latest = useRef({ data, timezone });
  latest.current = { data, timezone };
  useEffect(
    () =>
      bridge.onCommand((command: DesktopCommand) => {
        const { data: local, timezone: zone } = latest.current;
        if (command.type === 'busy') {
          if (!local || !zone) return;
          const bounds = busyBlockBounds(command.duration, Date.now(), zone);
          addBlockLocal(local.db, local.deviceId, bounds).catch((e: unknown) => console.error('The busy block could not be saved', (e as Error)?.message));
        } else if (command.type === 'proposal') {
          // Straight to the server when it can be reached, else queued on the device; a refusal
          // (the time is no longer free, already decided) comes back as a notification.
          const verb = command.action === 'confirm' ? 'confirmed' : 'declined';
          decideProposal(local ? { db: local.db, deviceId: local.deviceId } : null, command.id, { action: command.action }).catch((e: unknown) =>
            bridge.notify({ title: `The proposal could not be ${verb}`, body: actionErrorText(e).slice(0, 1000), route: proposalRoute(command.id) }),
          );
        } else if (command.type === 'sync-now') {
          local?.replication.reconnect();
          // The server's calendar sync too, when it can be reached; the replication brings the result.
          api.sync().then(
            () => window.dispatchEvent(new Event(SYNC_COMPLETED_EVENT)),
            () => undefined,
          );
        }
      }),
    [],
  );

  // Visitors' proposals → one system notification each (only where notifications reach the owner).
  useEffect(() => {
    if (!userId || !user?.email_verified_at || !timezone || !bridge.capabilities().notifications) return;
    let stopped = false;
    let checking = false; // one check at a time: two overlapping ones could announce a proposal twice
    const check = () => {
      if (!navigator.onLine || checking) return;
      checking = true;
      checkNewProposals(userId)
        .then(
          (fresh) => {
            if (!stopped) for (const p of fresh) bridge.notify(proposalNotification(p, timezone));
          },
          () => undefined, // unreachable: the next check tries again
        )
        .finally(() => {
          checking = false;
        });
    };
    check();
    const timer = setInterval(check, PROPOSAL_CHECK_MS);
    window.addEventListener('online', check);
    return () => {
      stopped = true;
      clearInterval(timer);
      window.removeEventListener('online', check);
    };
  }, [userId, user?.email_verified_at, timezone]);

  return null;
}
