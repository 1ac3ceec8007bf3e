/**
 * Tray commands that must not be lost (issue 25): a busy block and Confirm / Decline of a proposal
 * are carried out by the renderer on its device database, which is closed while the window is
 * gone, the page is (re)loading or the database is still opening. The main process keeps such
 * commands here until the renderer reports that its database is open (`commandsReady` over IPC),
 * then hands them over marked `queued: true` (the renderer announces each outcome as a system
 * notification). A command stays kept until the renderer acknowledges it (`commandDone(commandId)`,
 * sent when it was carried out or has failed): a reload, crash or quit between the hand-over and
 * the renderer's write loses nothing — the next `commandsReady` delivers it again, and the
 * renderer drops an id it already carried out.
 *
 * Each command carries the account it was clicked for (`userId`: the one signed in at the last
 * `commandsReady`; null when none had reported yet, i.e. the first page of this run is loading).
 * A command of another account is dropped at delivery with a notification, and a sign-out (a
 * signed-out tray state, or a start without a stored token) reports every waiting command as
 * failed ("You were signed out") and empties the file: a click never runs under whoever signs in
 * next.
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

/** Commands kept at most (the file is read back only up to this many); one more is refused with a notification — see `submit`. */
export const MAX_QUEUED_COMMANDS = 100;

/** A tray command that waits for the device database: a busy block or a proposal decision. */
export type QueuedCommand = Extract<DesktopCommand, { type: 'busy' | 'proposal' }>;

/** The commands that wait for the device database; other commands (Sync now, navigate) go at once. */
export function isQueuedCommandType(command: DesktopCommand): command is QueuedCommand {
  return command.type === 'busy' || command.type === 'proposal';
}

/** Why a waiting command was dropped without being carried out (the owner is notified). */
export type DroppedReason = 'signed-out' | 'unverified' | 'other-account' | 'too-many';

/** A waiting command as kept on disk: the command (with its `commandId`) and the account it was clicked for. */
interface KeptCommand {
  command: QueuedCommand & { commandId: string };
  /** The signed-in user's id when it was clicked; null when no account had reported yet. */
  userId: string | null;
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
  /** A new unique command id (`crypto.randomUUID`). */
  newId(): string;
  /** Tells the owner a command they clicked was not carried out (a system notification). */
  dropped(command: QueuedCommand, reason: DroppedReason): void;
  /** Current instant (UTC ms): a command read back with a click instant more than a minute ahead is refused. */
  now?: () => number;
  log?: (message: string) => void;
}

export interface TrayCommandQueue {
  /** Reads the commands a previous run kept (an unreadable or invalid file is logged and ignored). */
  load(): Promise<void>;
  /**
   * A busy block or proposal decision from the tray: given a `commandId` and the current account,
   * kept (and written to disk) until the renderer acknowledges it, and sent at once while the
   * renderer is ready. Refused (false; the owner is notified) when {@link MAX_QUEUED_COMMANDS}
   * already wait.
   */
  submit(command: QueuedCommand): boolean;
  /**
   * An in-app route to show (a notification's or "Open in Avail"'s click, which also opens the
   * window): sent at once while the renderer is ready, else the latest one waits for `ready`
   * (in memory only: a route is worth nothing after a restart).
   */
  navigate(command: Extract<DesktopCommand, { type: 'navigate' }>): void;
  /**
   * The renderer's database is open for account `userId`: commands of another account are dropped
   * (notified), the others delivered (`queued: true`), in order — those sent before and never
   * acknowledged again — then the waiting route.
   */
  ready(userId: string): void;
  /** The page is gone, (re)loading or signed out: commands are kept again until the next `ready`. */
  notReady(): void;
  /** The renderer carried out (or gave up on) command `commandId`: it is forgotten. Unknown ids are ignored. */
  done(commandId: string): void;
  /**
   * The owner signed out (or the app started without a token), or is signed in with an e-mail
   * address not yet verified (`reason` 'unverified'): every waiting command is reported as failed
   * and the file emptied.
   */
  signedOut(reason?: 'signed-out' | 'unverified'): void;
  /** How many commands wait (the tray's menu says so). */
  size(): number;
  /** Resolves when every write asked for so far has finished. */
  settled(): Promise<void>;
}

/** Creates the queue (empty and not ready until `load` and `ready`). */
export function createTrayCommandQueue(deps: TrayCommandQueueDeps): TrayCommandQueue {
  const log = deps.log ?? (() => undefined);
  let waiting: KeptCommand[] = [];
  let isReady = false;
  /** The account of the last `ready` (kept across reloads; cleared by a sign-out). */
  let account: string | null = null;
  /** Command ids sent since the last `ready` (sent again after the next one unless acknowledged). */
  let sent = new Set<string>();
  let route: Extract<DesktopCommand, { type: 'navigate' }> | null = null;
  let chain: Promise<void> = Promise.resolve();

  const persist = () => {
    const text = `${JSON.stringify({ version: 2, commands: waiting.map((k) => ({ ...withoutQueued(k.command), userId: k.userId })) })}\n`;
    chain = chain
      .then(() => deps.writeFile(deps.file, text))
      .catch((e: unknown) => log(`tray commands: could not write ${deps.file} (${(e as { code?: string })?.code ?? 'error'}); they are kept in memory`));
  };

  /** Drops the commands of another account than the ready one (notified); true when any was dropped. */
  const dropForeign = (): boolean => {
    if (account === null) return false;
    const foreign = waiting.filter((k) => k.userId !== null && k.userId !== account);
    if (foreign.length === 0) return false;
    waiting = waiting.filter((k) => !foreign.includes(k));
    for (const k of foreign) deps.dropped(withoutQueued(k.command), 'other-account');
    return true;
  };

  const flush = () => {
    if (!isReady) return;
    let changed = dropForeign();
    for (const k of waiting) {
      if (k.userId === null) {
        k.userId = account; // clicked while the first page loaded: this account's
        changed = true;
      }
      if (sent.has(k.command.commandId)) continue;
      if (!deps.deliver({ ...k.command, queued: true })) {
        isReady = false; // the window went away in between: the rest waits
        break;
      }
      sent.add(k.command.commandId);
    }
    if (changed) persist();
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
      const now = (deps.now ?? Date.now)();
      const valid: KeptCommand[] = [];
      for (const item of list.slice(0, MAX_QUEUED_COMMANDS)) {
        const command = parseQueuedCommand(item, now);
        if (!command) continue;
        const userId = (item as { userId?: unknown }).userId;
        valid.push({ command: { ...command, commandId: command.commandId ?? deps.newId() }, userId: typeof userId === 'string' && userId.length <= 64 ? userId : null });
      }
      if (valid.length < list.length) log(`tray commands: ${list.length - valid.length} invalid command(s) in ${deps.file} ignored`);
      const known = new Set(waiting.map((k) => k.command.commandId));
      waiting = [...valid.filter((k) => !known.has(k.command.commandId)), ...waiting];
      flush();
    },
    submit(command) {
      if (waiting.length >= MAX_QUEUED_COMMANDS) {
        log('tray commands: too many waiting; this one was refused');
        deps.dropped(withoutQueued(command), 'too-many');
        return false;
      }
      const kept: KeptCommand = { command: { ...withoutQueued(command), commandId: command.commandId ?? deps.newId() }, userId: account };
      waiting.push(kept);
      persist();
      if (isReady) {
        if (deps.deliver(kept.command)) sent.add(kept.command.commandId);
        else isReady = false;
      }
      return true;
    },
    navigate(command) {
      if (isReady && deps.deliver(command)) return;
      isReady = false;
      route = command;
    },
    ready(userId) {
      if (account !== userId) sent = new Set();
      account = userId;
      isReady = true;
      flush();
    },
    notReady() {
      isReady = false;
      sent = new Set();
    },
    done(commandId) {
      const before = waiting.length;
      waiting = waiting.filter((k) => k.command.commandId !== commandId);
      sent.delete(commandId);
      if (waiting.length !== before) persist();
    },
    signedOut(reason = 'signed-out') {
      isReady = false;
      sent = new Set();
      account = null;
      if (waiting.length === 0) return;
      const gone = waiting;
      waiting = [];
      persist();
      for (const k of gone) deps.dropped(withoutQueued(k.command), reason);
    },
    size: () => waiting.length,
    settled: () => chain,
  };
}

function withoutQueued<C extends QueuedCommand>(command: C): C {
  if (!('queued' in command)) return command;
  const { queued: _queued, ...rest } = command;
  return rest as C;
}
