/**
 * The owner's proposals for the dashboard and the tray (issue 24): from the device database once
 * it has synced (so the list, and decisions, work offline), else from GET /me/proposals — loaded
 * on mount and every 2 minutes, like the other REST areas before the device has synced.
 */
import { useCallback, useEffect, useState } from 'react';
import { api } from '@avail/shared/api/api-client.ts';
import { DASHBOARD_EVENTS_REFRESH_MS } from '@avail/shared/constants.ts';
import type { ProposalDoc } from '@avail/shared/rx/rx-schemas.ts';
import { useLocalData, usePendingKeys, useRxQuery } from './local-data.tsx';
import type { LocalData } from './local-db.ts';
import { newestFirst, proposalFromDoc, proposalFromRest, type ProposalView } from './proposals.ts';

export interface ProposalList {
  /** Newest first; null while loading. */
  items: ProposalView[] | null;
  /** The last REST load failed (only without the device database). */
  failed: boolean;
  /** true when the list comes from the device database. */
  fromDevice: boolean;
  /** The device database (decisions are queued in it offline), null without one. */
  local: LocalData | null;
  /** Loads again (REST); a no-op on the device database, which is live. */
  reload(): Promise<void>;
}

/** The owner's proposals (see the module comment). `poll` false: no REST refresh timer. */
export function useProposals(poll = true): ProposalList {
  const { data, synced } = useLocalData();
  const fromDevice = Boolean(data && synced);
  const docs = useRxQuery<ProposalDoc>(data?.db, (db) => (synced ? db.proposals.find() : null), [synced]);
  const unsynced = usePendingKeys(data);
  const [rest, setRest] = useState<ProposalView[] | null>(null);
  const [failed, setFailed] = useState(false);

  const reload = useCallback(async () => {
    if (fromDevice) return;
    try {
      const res = await api.proposals();
      setRest(newestFirst((res.proposals ?? []).map(proposalFromRest)));
      setFailed(false);
    } catch {
      setFailed(true);
      setRest((prev) => prev ?? []);
    }
  }, [fromDevice]);

  useEffect(() => {
    if (fromDevice) return;
    void reload();
    if (!poll) return;
    const t = setInterval(() => void reload(), DASHBOARD_EVENTS_REFRESH_MS);
    return () => clearInterval(t);
  }, [fromDevice, reload, poll]);

  const items = fromDevice ? (docs ? newestFirst(docs.map((d) => proposalFromDoc(d, unsynced.includes(`proposals/${d.id}`)))) : null) : rest;
  return { items, failed: !fromDevice && failed, fromDevice, local: data, reload };
}
