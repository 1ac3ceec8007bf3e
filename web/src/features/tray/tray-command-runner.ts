/**
 * Carries out a tray command on the device (issue 10, 24, 25): a busy block from its click
 * instant, or a proposal decision; and, for a command that had to wait for the device database
 * (`queued`), tells the owner how it ended with a system notification. A failure is always
 * notified: the owner clicked in the tray and may not be looking at the app.
 *
 * The device and the platform come in as {@link TrayCommandDeps}, so the rules are tested without
 * a database.
 */
import type { DesktopCommand, DesktopNotification } from '@avail/shared/desktop/desktop-bridge.ts';
import { busyBlockBounds } from './tray-state.ts';
import { busyDoneNotice, busyFailedNotice, proposalDoneNotice, proposalFailedNotice } from './tray-command-notices.ts';

/** A tray command the renderer carries out on its database. */
export type DeviceCommand = Extract<DesktopCommand, { type: 'busy' | 'proposal' }>;

/** What a command needs from the device and the platform. */
export interface TrayCommandDeps {
  /** Current instant, UTC epoch ms. */
  now(): number;
  notify(notification: DesktopNotification): void;
  /** true when a live block with exactly these bounds exists (the same click delivered twice). */
  hasBlock(bounds: { start_ms: number; end_ms: number }): Promise<boolean>;
  /** Adds the block on the device (replicated later). */
  addBlock(bounds: { start_ms: number; end_ms: number }): Promise<void>;
  /** Decides the proposal (`decideProposal`): `'done'` by the server, `'queued'` written on the device. */
  decide(id: string, action: 'confirm' | 'decline'): Promise<{ kind: 'done' | 'queued' }>;
  /**
   * The proposal as the device knows it (name and time for the notification; `status` and the
   * `requested` action not yet carried out by the server, when known), or null.
   */
  proposal(id: string): Promise<{ name: string; start_ms: number; end_ms: number; status?: string; requested?: string | null } | null>;
  /** The owner's text for a failed decision (`actionErrorText`). */
  errorText(error: unknown): string;
}

/**
 * Carries out `command` for an owner in IANA zone `zone`. A busy block spans
 * {@link busyBlockBounds} from `command.at` (the click; now when absent); one whose end has passed
 * is not added (failure notice); an identical live block is not added twice, and a proposal the
 * device already shows decided (or being decided) that way is not decided again — so a command
 * delivered again after a reload is carried out once. Never rejects.
 * @returns `'done'` or `'failed'`.
 */
export async function runTrayCommand(command: DeviceCommand, zone: string, deps: TrayCommandDeps): Promise<'done' | 'failed'> {
  if (command.type === 'busy') {
    const at = command.at ?? deps.now();
    let bounds: { start_ms: number; end_ms: number };
    try {
      bounds = busyBlockBounds(command.duration, at, zone);
    } catch (e) {
      deps.notify(busyFailedNotice(command.duration, at, 'UTC', (e as Error)?.message ?? 'unknown time zone'));
      return 'failed';
    }
    if (bounds.end_ms <= deps.now()) {
      deps.notify(busyFailedNotice(command.duration, at, zone, 'over'));
      return 'failed';
    }
    try {
      if (!(await deps.hasBlock(bounds))) await deps.addBlock(bounds);
    } catch (e) {
      deps.notify(busyFailedNotice(command.duration, at, zone, (e as Error)?.message || 'unknown error'));
      return 'failed';
    }
    if (command.queued) deps.notify(busyDoneNotice(bounds, zone));
    return 'done';
  }
  const known = await deps.proposal(command.id).catch(() => null);
  if (known && (known.status === (command.action === 'confirm' ? 'confirmed' : 'declined') || known.requested === command.action)) {
    if (command.queued) deps.notify(proposalDoneNotice(command.id, command.action, known, zone, known.status === 'pending'));
    return 'done';
  }
  try {
    const result = await deps.decide(command.id, command.action);
    if (command.queued) deps.notify(proposalDoneNotice(command.id, command.action, known, zone, result.kind === 'queued'));
    return 'done';
  } catch (e) {
    deps.notify(proposalFailedNotice(command.id, command.action, deps.errorText(e)));
    return 'failed';
  }
}
