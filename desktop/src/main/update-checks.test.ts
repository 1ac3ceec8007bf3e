/**
 * The check phase on its own (update-checks.ts): the updater and the clock faked. The scenarios
 * through the whole controller are in update-controller.test.ts.
 */
import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHECK_INTERVAL_MS, FIRST_CHECK_DELAY_MS, createUpdateChecks } from './update-checks.ts';
import { UPDATE_TEXT, createUpdateCycle } from './update-cycle.ts';
import { systemTimers, type UpdaterLike } from './updater.ts';

function setup() {
  const emitter = new EventEmitter();
  const pending: Array<{ resolve: (v: unknown) => void; reject: (e: unknown) => void }> = [];
  const updater = Object.assign(emitter, {
    checkForUpdates: vi.fn(() => new Promise<unknown>((resolve, reject) => void pending.push({ resolve, reject }))),
  }) as unknown as UpdaterLike & EventEmitter;
  const onChange = vi.fn();
  const cycle = createUpdateCycle(onChange);
  const notes: Array<{ title: string; body: string }> = [];
  const logs: string[] = [];
  const checks = createUpdateChecks({ updater, cycle, timers: systemTimers, notify: (n) => void notes.push(n), log: (m) => void logs.push(m) });
  return { checks, cycle, updater, pending, notes, logs, onChange };
}

/** Lets the check's promise callbacks run. */
const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('createUpdateChecks', () => {
  it('start: the first check after 10 s, then every 6 h; none after dispose', async () => {
    const { checks, updater, pending } = setup();
    checks.start();
    vi.advanceTimersByTime(FIRST_CHECK_DELAY_MS - 1);
    expect(updater.checkForUpdates).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(updater.checkForUpdates).toHaveBeenCalledTimes(1);
    pending[0]!.resolve(null);
    await flush();
    vi.advanceTimersByTime(CHECK_INTERVAL_MS);
    expect(updater.checkForUpdates).toHaveBeenCalledTimes(2);
    checks.dispose();
    vi.advanceTimersByTime(CHECK_INTERVAL_MS * 2);
    expect(updater.checkForUpdates).toHaveBeenCalledTimes(2);
  });

  it('a manual check: checking, then the outcome notified; an inactive updater goes back to idle silently', async () => {
    const { checks, cycle, updater, pending, notes, logs } = setup();
    checks.check(true);
    expect(cycle.state()).toEqual({ kind: 'checking' });
    checks.check(true); // one at a time
    expect(updater.checkForUpdates).toHaveBeenCalledTimes(1);
    updater.emit('update-not-available');
    expect(notes).toEqual([{ title: UPDATE_TEXT.upToDate, body: 'You have the latest version.' }]);
    pending[0]!.resolve({});
    await flush();
    checks.check(false);
    pending[1]!.resolve(null);
    await flush();
    expect(logs).toContain('updates: the updater is inactive');
    expect(cycle.state()).toEqual({ kind: 'idle' });
    expect(notes).toHaveLength(1);
  });

  it('downloading, then ready: notified once per version; no check while ready', () => {
    const { checks, cycle, updater, notes } = setup();
    updater.emit('update-available', { version: '1.2.3' });
    expect(cycle.state()).toEqual({ kind: 'downloading', version: '1.2.3' });
    updater.emit('update-downloaded', { version: '1.2.3' });
    updater.emit('update-downloaded', { version: '1.2.3' });
    expect(notes).toEqual([{ title: UPDATE_TEXT.ready('1.2.3'), body: 'Choose "Restart to update" in the Avail tray menu.' }]);
    checks.check(true);
    expect(updater.checkForUpdates).not.toHaveBeenCalled();
  });

  it('fail: a manual check is told "Could not check for updates" without the address; a failed download says so', () => {
    const { checks, cycle, updater, notes } = setup();
    checks.check(true);
    checks.fail(new Error('GET https://updates.example.com/latest.yml failed'));
    expect(notes).toEqual([{ title: UPDATE_TEXT.checkFailed, body: 'GET (address) failed' }]);
    expect(cycle.state()).toEqual({ kind: 'error' });
    updater.emit('update-available', { version: '<b>' });
    expect(cycle.state()).toEqual({ kind: 'downloading', version: '' });
    checks.fail(new Error('disk full'));
    expect(notes).toHaveLength(1); // automatic: logged only
  });
});
