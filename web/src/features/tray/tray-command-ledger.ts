/**
 * Which tray commands this window has carried out (issue 25): the desktop's main process keeps a
 * command until the renderer acknowledges it (`commandDone`) and delivers it again after a reload,
 * a crash or a restart, so the renderer must carry out each `commandId` once. The ledger marks an
 * id running while it is carried out and done afterwards; done ids are kept in the window's
 * sessionStorage (they survive a reload of the page, not a restart — after a restart the device
 * database itself tells: a busy block with the same bounds, or a proposal already decided, is not
 * done again). At most {@link LEDGER_MAX_IDS} done ids are remembered (the oldest go).
 */

/** Done command ids remembered at most. */
export const LEDGER_MAX_IDS = 200;

const STORAGE_KEY = 'avail:tray-commands-done';

/** What `begin` says about a command id. */
type LedgerEntry = 'new' | 'running' | 'done';

export interface TrayCommandLedger {
  /** `'new'` (now marked running: carry it out), or `'running'` / `'done'` (a second delivery: drop it). */
  begin(commandId: string): LedgerEntry;
  /** The command was carried out or has failed: remembered as done. */
  finish(commandId: string): void;
}

/** A ledger over `storage` (sessionStorage in the app; null where it cannot be used: memory only). */
export function createTrayCommandLedger(storage: Pick<Storage, 'getItem' | 'setItem'> | null): TrayCommandLedger {
  const running = new Set<string>();
  const read = (): string[] => {
    try {
      const list: unknown = JSON.parse(storage?.getItem(STORAGE_KEY) ?? '[]');
      return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
    } catch {
      return [];
    }
  };
  let memory: string[] = read();
  return {
    begin(commandId) {
      if (running.has(commandId)) return 'running';
      memory = storage ? read() : memory;
      if (memory.includes(commandId)) return 'done';
      running.add(commandId);
      return 'new';
    },
    finish(commandId) {
      running.delete(commandId);
      memory = [...(storage ? read() : memory).filter((id) => id !== commandId), commandId].slice(-LEDGER_MAX_IDS);
      try {
        storage?.setItem(STORAGE_KEY, JSON.stringify(memory));
      } catch {
        /* full or refused: kept in memory */
      }
    },
  };
}
