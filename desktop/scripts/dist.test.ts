import { describe, expect, it } from 'vitest';
import { distPlan } from './dist.mjs';

const linux = { hostPlatform: 'linux', hasWine: false };

describe('npm run dist -w desktop: what it builds and what it refuses (docs/desktop-release.md, Packaging)', () => {
  it('no flag: the installers of this computer, nothing published', () => {
    expect(distPlan([], linux)).toEqual({ ok: true, platforms: ['linux'], dir: false, publish: 'never' });
    expect(distPlan([], { hostPlatform: 'darwin', hasWine: false })).toEqual({ ok: true, platforms: ['mac'], dir: false, publish: 'never' });
    expect(distPlan([], { hostPlatform: 'win32', hasWine: false })).toEqual({ ok: true, platforms: ['win'], dir: false, publish: 'never' });
  });

  it('--linux/--mac/--win/--dir/--publish pass through', () => {
    expect(distPlan(['--linux', '--win', '--dir', '--publish', 'always'], linux)).toEqual({ ok: true, platforms: ['linux', 'win'], dir: true, publish: 'always' });
    expect(distPlan(['--mac', '--publish=onTag'], { hostPlatform: 'darwin', hasWine: false })).toEqual({ ok: true, platforms: ['mac'], dir: false, publish: 'onTag' });
  });

  it('a dmg off macOS is refused in one sentence (an unpacked mac folder is not)', () => {
    expect(distPlan(['--mac'], linux)).toEqual({ ok: false, reason: expect.stringMatching(/^A dmg can only be built on macOS/) });
    expect(distPlan(['--mac', '--dir'], linux).ok).toBe(true);
  });

  it('nsis off Windows only with wine on PATH', () => {
    expect(distPlan(['--win'], linux)).toEqual({ ok: false, reason: expect.stringMatching(/needs wine on PATH/) });
    expect(distPlan(['--win'], { hostPlatform: 'linux', hasWine: true }).ok).toBe(true);
    expect(distPlan(['--win'], { hostPlatform: 'win32', hasWine: false }).ok).toBe(true);
  });

  it('an unknown flag or publish policy is refused, naming the accepted ones', () => {
    expect(distPlan(['--snap'], linux)).toEqual({ ok: false, reason: 'Unknown flag "--snap": dist takes --linux, --mac, --win, --dir and --publish <policy>.' });
    expect(distPlan(['--publish', 'sometimes'], linux)).toEqual({ ok: false, reason: expect.stringMatching(/--publish takes one of never, always, onTag, onTagOrDraft/) });
    expect(distPlan(['--publish'], linux).ok).toBe(false);
  });
});
