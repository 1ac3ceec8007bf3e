/**
 * Tray commands that must not be lost (issue 25): a busy block and Confirm / Decline of a proposal
 * are carried out by the renderer on its device database, which is closed while the window is
 * gone, the page is (re)loading or the database is still opening. The main process keeps such
 * commands here until the renderer reports that its database is open (`commandsReady` over IPC),
 * then hands them over marked `queued: true` (the renderer announces each outcome as a system
 * notification).
 *
 * The queue is kept in `<userData>/tray-commands.json` (mode 0600) as well: an owner who clicks
 * "Busy for the next 1 h" and quits (or whose computer shuts down) before the window has loaded
 * still gets the block on the next start — it carries its click instant (`at`), so it still ends
 * an hour after the click, and the renderer reports a block whose time has passed as failed
 * rather than adding it. It holds only busy lengths, instants and proposal ids (no names).
 */
import type { DesktopCommand } from '@avail/shared/desktop/desktop-bridge.ts';
import { parseQueuedCommand } from './ipc-payloads.ts';
import { readJsonFile } from './private-file.ts';

/** Commands kept at most (the file is read back only up to this many); older ones are never dropped silently — see `submit`. */
export const MAX_QUEUED_COMMANDS = 100;

/** A tray command that waits for the device database: a busy block or a proposal decision. */
export type QueuedCommand = Extract<DesktopCommand, { type: 'busy' | 'proposal' }>;

/** The commands that wait for the device database; other commands (Sync now, navigate) go at once. */
export function isQueuedCommandType(command: DesktopCommand): command is QueuedCommand {
  return command.type === 'busy' || command.type === 'proposal';
}

export interface TrayCommandQueueDeps {
  /** @throws an error with code ENOENT when the file does not exist. */
  readFile(file: string): Promise<Buffer | string>;
  /** An atomic 0600 write (`writePrivateFile`). */
  writeFile(file: string, data: string): Promise<void>;
  /** Absolute path of the file (`<userData>/tray-commands.json`). */
  file: string;
  /** Sends a command to the renderer; false when there is no window to send it to. */
  deliver(command: DesktopCommand): boolean;
  log?: (message: string) => void;
}

export interface TrayCommandQueue {
  /** Reads the commands a previous run kept (an unreadable or invalid file is logged and ignored). */
  load(): Promise<void>;
  /**
   * A busy block or proposal decision from the tray: sent at once while the renderer is ready,
   * else kept (and written to disk) until it is. Refused (false, logged) only when
   * {@link MAX_QUEUED_COMMANDS} already wait — the tray then still shows them waiting.
   */
  submit(command: QueuedCommand): boolean;
  /**
   * An in-app route to show (a notification's or "Open in Avail"'s click, which also opens the
   * window): sent at once while the renderer is ready, else the latest one waits for `ready`
   * (in memory only: a route is worth nothing after a restart).
   */
  navigate(command: Extract<DesktopCommand, { type: 'navigate' }>): void;
  /** The renderer's database is open: every kept command is delivered (`queued: true`), in order, then the waiting route. */
  ready(): void;
  /** The page is gone or (re)loading: commands are kept again until the next `ready`. */
  notReady(): void;
  /** How many commands wait (the tray's menu says so). */
  size(): number;
  /** Resolves when every write asked for so far has finished. */
  settled(): Promise<void>;
}

/** Creates the queue (empty and not ready until `load` and `ready`). */
export function createTrayCommandQueue(deps: TrayCommandQueueDeps): TrayCommandQueue {
  const log = deps.log ?? (() => undefined);
  let waiting: QueuedCommand[] = [];
  let isReady = false;
  let route: Extract<DesktopCommand, { type: 'navigate' }> | null = null;
  let chain: Promise<void> = Promise.resolve();

  const persist = () => {
    const text = `${JSON.stringify({ version: 1, commands: waiting.map(withoutQueued) })}\n`;
    chain = chain
      .then(() => deps.writeFile(deps.file, text))
      .catch((e: unknown) => log(`tray commands: could not write ${deps.file} (${(e as { code?: string })?.code ?? 'error'}); they are kept in memory`));
  };

  const flush = () => {
    if (isReady && waiting.length > 0) {
      const sent: QueuedCommand[] = [];
      for (const command of waiting) {
        if (!deps.deliver({ ...command, queued: true })) {
          isReady = false; // the window went away in between: keep the rest
          break;
        }
        sent.push(command);
      }
      waiting = waiting.slice(sent.length);
      persist();
    }
    if (isReady && route) {
      if (deps.deliver(route)) route = null;
      else isReady = false;
    }
  };

  return {
    async load() {
      const file = await readJsonFile(deps.readFile, deps.file);
      if (file.kind !== 'read') {
        if (file.kind === 'unreadable') log(`tray commands: ${deps.file} could not be read`);
        return;
      }
      const list = (file.value as { commands?: unknown } | null)?.commands;
      if (!Array.isArray(list)) {
        log(`tray commands: ${deps.file} is not a command list; ignored`);
        return;
      }
      const parsed = list.slice(0, MAX_QUEUED_COMMANDS).map(parseQueuedCommand);
      const valid = parsed.filter((c): c is QueuedCommand => c !== null);
      if (valid.length < list.length) log(`tray commands: ${list.length - valid.length} invalid command(s) in ${deps.file} ignored`);
      waiting = [...valid, ...waiting];
      flush();
    },
    submit(command) {
      if (isReady) {
        // Ready means nothing waits (ready() delivered it all): this one goes straight through.
        if (deps.deliver(command)) return true;
        isReady = false;
      }
      if (waiting.length >= MAX_QUEUED_COMMANDS) {
        log('tray commands: too many waiting; this one was refused');
        return false;
      }
      waiting.push(withoutQueued(command));
      persist();
      return true;
    },
    navigate(command) {
      if (isReady && deps.deliver(command)) return;
      isReady = false;
      route = command;
    },
    ready() {
      isReady = true;
      flush();
    },
    notReady() {
      isReady = false;
    },
    size: () => waiting.length,
    settled: () => chain,
  };
}

function withoutQueued(command: QueuedCommand): QueuedCommand {
  if (!('queued' in command)) return command;
  const { queued: _queued, ...rest } = command;
  return rest;
}
