import { describe, expect, it, vi } from 'vitest';
import { REFUSED_SWITCHES, commandLineRefusal, scrubPackagedEnv } from './command-line-policy.ts';

const switches = (...present: string[]) => (name: string) => present.includes(name);
const reason = (flag: string) => `refusing to start with --${flag}: it could expose the sign-in token or the connection to the server`;

describe('command-line switches of an installed app', () => {
  it('remote debugging, the Node inspector, TLS key logs, net logs, host rules, proxies and certificate errors are refused', () => {
    for (const flag of [
      'remote-debugging-port',
      'remote-debugging-pipe',
      'remote-allow-origins',
      'inspect',
      'inspect-brk',
      'js-flags',
      'ssl-key-log-file',
      'log-net-log',
      'net-log-capture-mode',
      'host-resolver-rules',
      'host-rules',
      'ignore-certificate-errors',
      'proxy-server',
      'proxy-pac-url',
    ]) {
      expect(REFUSED_SWITCHES).toContain(flag);
      expect(commandLineRefusal(true, switches(flag))).toBe(reason(flag));
    }
  });

  it('--inspect… forms Chromium does not know are refused from argv, the value never named', () => {
    expect(commandLineRefusal(true, switches(), ['/opt/Avail/avail', '--inspect=127.0.0.1:9229'])).toBe(reason('inspect'));
    expect(commandLineRefusal(true, switches(), ['/opt/Avail/avail', '--inspect-wait'])).toBe(reason('inspect-wait'));
    expect(commandLineRefusal(true, switches(), ['/opt/Avail/avail', '--hidden'])).toBeNull();
  });

  it('an installed app without them starts; a development run keeps them for debugging', () => {
    expect(commandLineRefusal(true, switches('hidden', 'no-sandbox'))).toBeNull();
    const hasSwitch = vi.fn(switches('remote-debugging-port', 'proxy-server'));
    expect(commandLineRefusal(false, hasSwitch, ['--inspect'])).toBeNull();
    expect(hasSwitch).not.toHaveBeenCalled();
  });

  it('SSLKEYLOGFILE is removed from the environment of an installed app only', () => {
    const env: Record<string, string | undefined> = { SSLKEYLOGFILE: '/tmp/keys', HOME: '/home/ana' };
    scrubPackagedEnv(false, env);
    expect(env.SSLKEYLOGFILE).toBe('/tmp/keys');
    scrubPackagedEnv(true, env);
    expect(env).toEqual({ HOME: '/home/ana' });
  });
});
