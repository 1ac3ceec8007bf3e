import { describe, expect, it } from 'vitest';
import { builderConfig, distPlan, emptySigningVariables } from './dist.mjs';

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

describe('signing variables from CI secrets (docs/desktop-release.md, Signing)', () => {
  it('an absent secret passed as "" is removed, so electron-builder builds unsigned instead of failing with "<repo> not a file"', () => {
    const env = { CSC_LINK: '', CSC_KEY_PASSWORD: '', CSC_INSTALLER_LINK: ' ', CSC_INSTALLER_KEY_PASSWORD: '', WIN_CSC_LINK: '', WIN_CSC_KEY_PASSWORD: '', PATH: '', HOME: '' };
    expect(emptySigningVariables(env)).toEqual(['CSC_LINK', 'CSC_KEY_PASSWORD', 'CSC_INSTALLER_LINK', 'CSC_INSTALLER_KEY_PASSWORD', 'WIN_CSC_LINK', 'WIN_CSC_KEY_PASSWORD']);
  });

  it('a set certificate, an unset variable and other empty variables are left alone', () => {
    expect(emptySigningVariables({ CSC_LINK: 'MIIK…base64', CSC_KEY_PASSWORD: '', EMPTY: '' })).toEqual(['CSC_KEY_PASSWORD']);
    expect(emptySigningVariables({})).toEqual([]);
  });
});

describe("electron-builder's configuration: the yml, the publish setting, the Windows publisher", () => {
  const github = { provider: 'github', owner: 'me', repo: 'avail' };

  it('without AVAIL_WINDOWS_PUBLISHER: electron-builder.yml and the publish setting only (the publisher comes from the certificate electron-builder saw)', () => {
    expect(builderConfig(github, {})).toEqual({ extends: 'electron-builder.yml', publish: github });
    expect(builderConfig(null, { AVAIL_WINDOWS_PUBLISHER: '  ' })).toEqual({ extends: 'electron-builder.yml', publish: null });
  });

  it("with AVAIL_WINDOWS_PUBLISHER: the certificate's CN is the publisher electron-updater on Windows requires", () => {
    expect(builderConfig(github, { AVAIL_WINDOWS_PUBLISHER: ' Avail Software Ltd ' })).toEqual({
      extends: 'electron-builder.yml',
      publish: github,
      win: { signtoolOptions: { publisherName: ['Avail Software Ltd'] } },
    });
  });
});
