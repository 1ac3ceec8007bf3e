/**
 * The owner's app side of the tray (issue 10), mounted while an owner is signed in: it keeps the
 * platform's tray state current from the device's local data, carries out the tray's commands
 * (busy blocks, Sync now) and announces visitors' proposals as system notifications.
 *
 * Issue 25: before the device's first pull it reports the owner as signed in and `syncing` (the
 * tray keeps its last known windows and says "Syncing…", never "Not signed in"); busy blocks and
 * proposal decisions that arrive before the device database is open wait here, and the platform
 * is told `commandsReady(userId)` once it is open, so the commands the tray kept for this account
 * are delivered then. A command that waited ends with a "done" or "failed" notification; each is
 * carried out once per `commandId` and acknowledged (`commandDone`) when done or failed, so the
 * platform delivers it again after a reload that interrupted it. On unmount the platform is told
 * `commandsNotReady()`.
 *
 * It runs the same in a browser, where the bridge's tray and notifications are no-ops: React never
 * asks which platform it is on.
 */
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { api, type OwnerLink, type User } from '@avail/shared/api/api-client.ts';
import { TRAY_PROPOSALS_MAX, type DesktopCommand, type TrayProposal } from '@avail/shared/desktop/desktop-bridge.ts';
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
import { runTrayCommand, type DeviceCommand, type TrayCommandDeps } from './tray-command-runner.ts';
import { createTrayCommandLedger } from './tray-command-ledger.ts';
import { busyFailedNotice, proposalFailedNotice } from './tray-command-notices.ts';
import { buildTrayState, syncingTrayState, TRAY_HORIZON_MS } from './tray-state.ts';
import type { LocalData } from '../../data/local-db.ts';

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

/** The zone of this computer, for an owner who has not chosen one yet. */
function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The commands this window carried out (a second delivery of an id is dropped; survives a page reload). */
const ledger = createTrayCommandLedger(sessionStorageOrNull());

function sessionStorageOrNull(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/**
 * Carries out `command` once per `commandId` and then acknowledges it to the platform (which
 * forgets it only then). A second delivery of an id already done is acknowledged again, not run.
 */
function carryOut(command: DeviceCommand, zone: string, deps: TrayCommandDeps): void {
  const id = command.commandId;
  if (id === undefined) {
    void runTrayCommand(command, zone, deps); // an older platform: nothing to acknowledge
    return;
  }
  const entry = ledger.begin(id);
  if (entry === 'done') bridge.commandDone(id);
  if (entry !== 'new') return;
  void runTrayCommand(command, zone, deps).then(() => {
    ledger.finish(id);
    bridge.commandDone(id);
  });
}

/** What a tray command that was still waiting when the owner signed out tells them. */
function signedOutNotice(command: DeviceCommand, zone: string) {
  const reason = 'you were signed out before Avail could carry it out.';
  if (command.type === 'busy') return busyFailedNotice(command.duration, command.at ?? Date.now(), zone, reason);
  return proposalFailedNotice(command.id, command.action, `It was not carried out: ${reason}`);
}

/** A tray command's access to the open device database and the platform's notifications. */
function commandDeps(local: LocalData) {
  return {
    now: Date.now,
    notify: (n: Parameters<typeof bridge.notify>[0]) => bridge.notify(n),
    hasBlock: async (b: { start_ms: number; end_ms: number }) => Boolean(await local.db.busy_blocks.findOne({ selector: { start_ms: b.start_ms, end_ms: b.end_ms } }).exec()),
    addBlock: async (b: { start_ms: number; end_ms: number }) => {
      await addBlockLocal(local.db, local.deviceId, b);
    },
    // Straight to the server when it can be reached, else written on the device; a refusal (the
    // time is no longer free, already decided) comes back as a notification.
    decide: (id: string, action: 'confirm' | 'decline') => decideProposal({ db: local.db, deviceId: local.deviceId }, id, { action }),
    proposal: async (id: string) => {
      const doc = await local.db.proposals.findOne(id).exec();
      return doc ? { name: doc.name, start_ms: doc.start_ms, end_ms: doc.end_ms, status: doc.status, requested: doc.request_action ?? null } : null;
    },
    errorText: actionErrorText,
  };
}

/** Without a device database (it cannot open here: no IndexedDB), tray commands go to the server. */
function serverDeps() {
  return {
    now: Date.now,
    notify: (n: Parameters<typeof bridge.notify>[0]) => bridge.notify(n),
    hasBlock: async () => false,
    addBlock: async (b: { start_ms: number; end_ms: number }) => {
      await api.addBlock(b);
    },
    decide: (id: string, action: 'confirm' | 'decline') => decideProposal(null, id, { action }),
    proposal: async () => null,
    errorText: actionErrorText,
  };
}

export default function DesktopIntegration() {
  const { user } = useSession();
  const { data, synced, failed } = useLocalData();
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

  // Before the first pull (or while the local data loads) the owner is still known: signed in,
  // syncing — the tray keeps its last known windows meanwhile.
  const syncing = useMemo(
    () => (user && !state ? syncingTrayState({ timezone: timezone ?? browserZone(), link, connection, pendingCount: pending.length, now }) : null),
    [user, state, timezone, link, connection, pending.length, now],
  );

  useEffect(() => {
    const report = state ?? syncing;
    if (report) bridge.setTrayState(report);
  }, [state, syncing]);

  useTrayCommands(data, failed, timezone, userId);
  useProposalNotifications(userId, Boolean(user?.email_verified_at), timezone);
  return null;
}

/**
 * The tray's commands, carried out on the device's database `data` (offline too), or by the server
 * when it cannot open here (`failed`); busy blocks and decisions that arrive before it is open wait
 * here. `timezone`: the owner's (null: this computer's); `userId`: the signed-in owner, told to the
 * platform (`commandsReady`) once the commands can be carried out.
 */
function useTrayCommands(data: LocalData | null, failed: boolean, timezone: string | null, userId: string | null): void {
  // Tray commands, carried out on the device's database (offline too). Busy blocks and decisions
  // that arrive before it is open wait in `waiting` (marked queued: their outcome is notified).
  const latest = useRef({ data, timezone, failed });
  latest.current = { data, timezone, failed };
  const waiting = useRef<DeviceCommand[]>([]);
  useEffect(
    () =>
      bridge.onCommand((command: DesktopCommand) => {
        const { data: local, timezone: zone, failed: noDatabase } = latest.current;
        if (command.type === 'busy' || command.type === 'proposal') {
          if (!local && !noDatabase) {
            // Stamped now if the platform did not: a block that waits still starts at the click.
            waiting.current.push(command.type === 'busy' ? { ...command, at: command.at ?? Date.now(), queued: true } : { ...command, queued: true });
            return;
          }
          carryOut(command, zone ?? browserZone(), local ? commandDeps(local) : serverDeps());
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

  // The database is open (or cannot open on this computer: then the server carries them out): do
  // what waited here, then let the platform deliver what it kept.
  useEffect(() => {
    if (!data && !failed) return;
    const zone = timezone ?? browserZone();
    const deps = data ? commandDeps(data) : serverDeps();
    for (const command of waiting.current.splice(0)) carryOut(command, zone, deps);
    // A platform object older than issue 25 has no such member (it then keeps nothing back).
    if (userId && typeof bridge.commandsReady === 'function') bridge.commandsReady(userId);
  }, [data, failed, timezone, userId]);

  // Unmounted (signed out, or no longer verified): the platform keeps new commands waiting again.
  // What still waits here unacknowledged stays with the platform (which reports it as failed on a
  // sign-out); only commands the platform does not track (no commandId) are reported here.
  useEffect(
    () => () => {
      if (typeof bridge.commandsNotReady === 'function') bridge.commandsNotReady();
      for (const command of waiting.current.splice(0)) {
        if (command.commandId === undefined) bridge.notify(signedOutNotice(command, latest.current.timezone ?? browserZone()));
      }
    },
    [],
  );
}

/**
 * Visitors' proposals → one system notification each (only where notifications reach the owner):
 * checked every PROPOSAL_CHECK_MS and when the network is back, for a verified owner with a zone.
 */
function useProposalNotifications(userId: string | null, verified: boolean, timezone: string | null): void {
  // Visitors' proposals → one system notification each (only where notifications reach the owner).
  useEffect(() => {
    if (!userId || !verified || !timezone || !bridge.capabilities().notifications) return;
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
  }, [userId, verified, timezone]);
}
