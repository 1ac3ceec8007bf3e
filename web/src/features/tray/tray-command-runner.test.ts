import { describe, expect, it, vi } from 'vitest';
import type { DesktopNotification } from '@avail/shared/desktop/desktop-bridge.ts';
import { runTrayCommand, type TrayCommandDeps } from './tray-command-runner.ts';
import { syncingTrayState } from './tray-state.ts';

const at = (iso: string) => Date.parse(iso);
const ZONE = 'Europe/Brussels';

function deps(now: string, overrides: Partial<TrayCommandDeps> = {}) {
  const notes: DesktopNotification[] = [];
  const blocks: Array<{ start_ms: number; end_ms: number }> = [];
  const d: TrayCommandDeps = {
    now: () => at(now),
    notify: (n) => void notes.push(n),
    hasBlock: async (b) => blocks.some((x) => x.start_ms === b.start_ms && x.end_ms === b.end_ms),
    addBlock: async (b) => void blocks.push(b),
    decide: vi.fn(async () => ({ kind: 'done' as const })),
    proposal: async () => ({ name: 'Vera Visitor', start_ms: at('2026-06-16T08:00:00Z'), end_ms: at('2026-06-16T08:30:00Z') }),
    errorText: (e) => (e as Error).message,
    ...overrides,
  };
  return { d, notes, blocks };
}

describe('tray commands carried out on the device (issue 25)', () => {
  it('a busy block that waited starts at the click, not when it is carried out, and its outcome is notified', async () => {
    // Clicked 15:00:40 Brussels, carried out a minute later.
    const { d, notes, blocks } = deps('2026-06-15T13:01:40Z');
    const result = await runTrayCommand({ type: 'busy', duration: { minutes: 30 }, at: at('2026-06-15T13:00:40Z'), queued: true }, ZONE, d);
    expect(result).toBe('done');
    expect(blocks).toEqual([{ start_ms: at('2026-06-15T13:00:00Z'), end_ms: at('2026-06-15T13:30:00Z') }]);
    expect(notes).toEqual([{ title: 'Busy until 15:30', body: 'Blocked 15:00–15:30 (Europe/Brussels) from the tray: visitors no longer see this time.', route: '/app/dashboard' }]);
  });

  it('the rest of today ends at 24:00; a command carried out at once (not queued) is not announced', async () => {
    const { d, notes, blocks } = deps('2026-06-15T13:00:00Z');
    await runTrayCommand({ type: 'busy', duration: { restOfToday: true }, at: at('2026-06-15T13:00:00Z'), queued: true }, ZONE, d);
    expect(notes[0].title).toBe('Busy until 24:00');
    await runTrayCommand({ type: 'busy', duration: { minutes: 60 } }, ZONE, d);
    expect(blocks.at(-1)).toEqual({ start_ms: at('2026-06-15T13:00:00Z'), end_ms: at('2026-06-15T14:00:00Z') });
    expect(notes).toHaveLength(1);
  });

  it('a block whose time passed while it waited is not added, and the owner is told what failed', async () => {
    const { d, notes, blocks } = deps('2026-06-15T14:00:00Z');
    expect(await runTrayCommand({ type: 'busy', duration: { minutes: 30 }, at: at('2026-06-15T13:00:00Z'), queued: true }, ZONE, d)).toBe('failed');
    expect(blocks).toEqual([]);
    expect(notes).toEqual([
      { title: 'The busy block could not be added', body: '"Busy for the next 30 min" (clicked Mon 15 Jun, 15:00) had already ended when Avail could add it.', route: '/app/dashboard' },
    ]);
  });

  it('a write that fails is notified with its reason; the same click delivered twice adds one block', async () => {
    const failing = deps('2026-06-15T13:00:00Z', { addBlock: async () => Promise.reject(new Error('QuotaExceededError')) });
    await runTrayCommand({ type: 'busy', duration: { minutes: 120 }, at: at('2026-06-15T13:00:00Z') }, ZONE, failing.d);
    expect(failing.notes[0].body).toBe('"Busy for the next 2 h" (clicked Mon 15 Jun, 15:00) could not be saved: QuotaExceededError');

    const { d, blocks } = deps('2026-06-15T13:00:30Z');
    const command = { type: 'busy', duration: { minutes: 30 }, at: at('2026-06-15T13:00:10Z'), queued: true } as const;
    await runTrayCommand(command, ZONE, d);
    await runTrayCommand(command, ZONE, d);
    expect(blocks).toHaveLength(1);
  });

  it('a proposal decision that waited: "Meeting confirmed" with the visitor and time; written offline says when it goes; a refusal says why', async () => {
    const { d, notes } = deps('2026-06-15T13:00:00Z');
    await runTrayCommand({ type: 'proposal', id: 'p-1', action: 'confirm', queued: true }, ZONE, d);
    expect(d.decide).toHaveBeenCalledWith('p-1', 'confirm');
    expect(notes.at(-1)).toEqual({ title: 'Meeting confirmed', body: 'Vera Visitor, Tue 16 Jun, 10:00–10:30', route: '/app/dashboard#proposal-p-1' });

    const offline = deps('2026-06-15T13:00:00Z', { decide: async () => ({ kind: 'queued' }) });
    await runTrayCommand({ type: 'proposal', id: 'p-1', action: 'decline', queued: true }, ZONE, offline.d);
    expect(offline.notes.at(-1)).toEqual({ title: 'Proposed time declined', body: 'Vera Visitor, Tue 16 Jun, 10:00–10:30 — sent when you are back online', route: '/app/dashboard#proposal-p-1' });

    const refused = deps('2026-06-15T13:00:00Z', { decide: async () => Promise.reject(new Error('This time is no longer free.')) });
    expect(await runTrayCommand({ type: 'proposal', id: 'p-1', action: 'confirm' }, ZONE, refused.d)).toBe('failed');
    expect(refused.notes).toEqual([{ title: 'The proposal could not be confirmed', body: 'This time is no longer free.', route: '/app/dashboard#proposal-p-1' }]);
  });
});

describe('the tray state before the first pull (issue 25)', () => {
  it('is signed in and syncing, with no windows of its own', () => {
    expect(syncingTrayState({ timezone: ZONE, link: 'https://avail.example.com/ana', connection: 'syncing', pendingCount: 0, now: 5 })).toEqual({
      signedIn: true,
      connection: 'syncing',
      pendingCount: 0,
      timezone: ZONE,
      windows: [],
      link: 'https://avail.example.com/ana',
      freeTimesText: null,
      computedAt: 5,
      syncing: true,
    });
  });

  it('a decision delivered again after a reload is not made twice: the device already shows it decided (or being decided)', async () => {
    const decided = deps('2026-06-15T13:00:00Z', { proposal: async () => ({ name: 'Vera Visitor', start_ms: at('2026-06-16T08:00:00Z'), end_ms: at('2026-06-16T08:30:00Z'), status: 'confirmed' }) });
    expect(await runTrayCommand({ type: 'proposal', id: 'p-1', action: 'confirm', queued: true, commandId: 'c-1' }, ZONE, decided.d)).toBe('done');
    expect(decided.d.decide).not.toHaveBeenCalled();
    expect(decided.notes.map((n) => n.title)).toEqual(['Meeting confirmed']);
    const requested = deps('2026-06-15T13:00:00Z', { proposal: async () => ({ name: 'Vera', start_ms: 1, end_ms: 2, status: 'pending', requested: 'decline' }) });
    expect(await runTrayCommand({ type: 'proposal', id: 'p-1', action: 'decline', commandId: 'c-2' }, ZONE, requested.d)).toBe('done');
    expect(requested.d.decide).not.toHaveBeenCalled();
    // Pending and not requested: decided.
    const pending = deps('2026-06-15T13:00:00Z', { proposal: async () => ({ name: 'Vera', start_ms: 1, end_ms: 2, status: 'pending', requested: null }) });
    await runTrayCommand({ type: 'proposal', id: 'p-1', action: 'confirm' }, ZONE, pending.d);
    expect(pending.d.decide).toHaveBeenCalledOnce();
  });
});
