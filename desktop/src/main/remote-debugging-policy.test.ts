import { describe, expect, it, vi } from 'vitest';
import { remoteDebuggingRefusal } from './remote-debugging-policy.ts';

const switches = (...present: string[]) => (name: string) => present.includes(name);

describe('remote debugging switches', () => {
  it('an installed app started with --remote-debugging-port or --remote-debugging-pipe does not start', () => {
    expect(remoteDebuggingRefusal(true, switches('remote-debugging-port'))).toBe(
      'refusing to start with --remote-debugging-port: remote debugging could read the sign-in token',
    );
    expect(remoteDebuggingRefusal(true, switches('remote-debugging-pipe'))).toBe(
      'refusing to start with --remote-debugging-pipe: remote debugging could read the sign-in token',
    );
  });

  it('an installed app without them starts; a development run keeps them for debugging', () => {
    expect(remoteDebuggingRefusal(true, switches('hidden', 'no-sandbox'))).toBeNull();
    const hasSwitch = vi.fn(switches('remote-debugging-port'));
    expect(remoteDebuggingRefusal(false, hasSwitch)).toBeNull();
    expect(hasSwitch).not.toHaveBeenCalled();
  });
});
