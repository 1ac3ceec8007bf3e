/**
 * The install phase on its own (update-install.ts): a cycle already `ready`, the updater and the
 * clock faked. The scenarios through the whole controller are in update-controller.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UPDATE_TEXT, createUpdateCycle } from './update-cycle.ts';
import { DEFERRED_QUIT_GRACE_MS, INSTALL_QUIT_TIMEOUT_MS, SQUIRREL_FETCH_TIMEOUT_MS, createUpdateInstall } from './update-install.ts';
import { systemTimers, type UpdaterLike } from './updater.ts';

function setup(opts: { squirrel?: boolean; quitAndInstall?: () => void } = {}) {
  const calls: string[] = [];
  const updater = {
    quitAndInstall: vi.fn(opts.quitAndInstall ?? (() => void calls.push('quitAndInstall'))),
    ...(opts.squirrel === undefined ? {} : { squirrelDownloadedUpdate: opts.squirrel }),
  } as unknown as UpdaterLike;
  const cycle = createUpdateCycle(() => undefined);
  const notes: Array<{ title: string; body: string }> = [];
  let quitting = false;
  const install = createUpdateInstall({
    updater,
    cycle,
    timers: systemTimers,
    notify: (n) => void notes.push(n),
    log: () => undefined,
    beforeQuitAndInstall: () => void calls.push('beforeQuit'),
    cancelQuit: () => void calls.push('cancelQuit'),
    quitting: () => quitting,
  });
  return { install, cycle, calls, notes, quit: () => void (quitting = true) };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('createUpdateInstall', () => {
  it('does nothing unless an update is ready', () => {
    const { install, cycle, calls } = setup();
    install.restartToUpdate();
    expect(calls).toEqual([]);
    expect(cycle.state()).toEqual({ kind: 'idle' });
  });

  it('ready: installing, beforeQuitAndInstall, then quitAndInstall; a quit within the timeout leaves it be', () => {
    const { install, cycle, calls, notes, quit } = setup();
    cycle.set({ kind: 'ready', version: '1.2.3' });
    install.restartToUpdate();
    install.restartToUpdate(); // once only
    expect(calls).toEqual(['beforeQuit', 'quitAndInstall']);
    expect(cycle.state()).toEqual({ kind: 'installing', version: '1.2.3' });
    quit();
    vi.advanceTimersByTime(INSTALL_QUIT_TIMEOUT_MS * 3);
    expect(calls).not.toContain('cancelQuit');
    expect(notes).toEqual([]);
  });

  it('no quit within the timeout: cancelQuit, "Could not install the update", state error', () => {
    const { install, cycle, calls, notes } = setup();
    cycle.set({ kind: 'ready', version: '1.2.3' });
    cycle.manual = true;
    install.restartToUpdate();
    vi.advanceTimersByTime(INSTALL_QUIT_TIMEOUT_MS);
    expect(calls).toEqual(['beforeQuit', 'quitAndInstall', 'cancelQuit']);
    expect(notes).toEqual([{ title: UPDATE_TEXT.installFailed, body: 'Avail did not restart' }]);
    expect(cycle.state()).toEqual({ kind: 'error' });
    expect(cycle.manual).toBe(false);
  });

  it('macOS: the wait goes on while Squirrel.Mac fetches, up to its limit', () => {
    const { install, cycle, calls } = setup({ squirrel: false });
    cycle.set({ kind: 'ready', version: '1.2.3' });
    install.restartToUpdate();
    vi.advanceTimersByTime(SQUIRREL_FETCH_TIMEOUT_MS - 1);
    expect(calls).not.toContain('cancelQuit');
    vi.advanceTimersByTime(1);
    expect(calls).toContain('cancelQuit');
  });

  it('an error after quitAndInstall returned: the scheduled quit within the grace closes the app anyway', () => {
    const { install, cycle, calls, notes, quit } = setup();
    cycle.set({ kind: 'ready', version: '1.2.3' });
    install.restartToUpdate();
    install.error(new Error('spawn failed'));
    expect(notes).toEqual([]);
    quit();
    vi.advanceTimersByTime(DEFERRED_QUIT_GRACE_MS);
    expect(notes).toEqual([{ title: UPDATE_TEXT.installFailed, body: UPDATE_TEXT.closingAnyway }]);
    expect(calls).not.toContain('cancelQuit');
  });

  it('quitAndInstall throwing: undone at once; dispose stops the timers', () => {
    const { install, cycle, calls, notes } = setup({
      quitAndInstall: () => {
        throw new Error('no installer at https://example.com/x?token=abc');
      },
    });
    cycle.set({ kind: 'ready', version: '1.2.3' });
    install.restartToUpdate();
    expect(calls).toEqual(['beforeQuit', 'cancelQuit']);
    expect(notes[0]?.body).not.toMatch(/example\.com|abc/);
    install.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });
});
