import { describe, expect, it } from 'vitest';
import { runningAppImage, updatesEnabled, type UpdateEnvironment } from './update-environment.ts';

const PACKAGED_APPIMAGE: UpdateEnvironment = {
  isPackaged: true,
  platform: 'linux',
  env: { APPIMAGE: '/home/ana/Avail.AppImage', APPDIR: '/tmp/.mount_AvailXy12' },
  execPath: '/tmp/.mount_AvailXy12/avail',
  hasUpdateConfig: () => true,
};

describe('updatesEnabled', () => {
  const base = { platform: 'darwin' as const, env: {}, execPath: '/Applications/Avail.app/Contents/MacOS/Avail', hasUpdateConfig: () => true };
  it('only a packaged copy with app-update.yml, not from a channel that updates it', () => {
    expect(updatesEnabled({ ...base, isPackaged: true })).toEqual({ enabled: true });
    expect(updatesEnabled({ ...base, isPackaged: true, platform: 'win32' })).toEqual({ enabled: true });
    expect(updatesEnabled(PACKAGED_APPIMAGE)).toEqual({ enabled: true });
    expect(updatesEnabled({ ...base, isPackaged: false })).toMatchObject({ enabled: false, reason: expect.stringContaining('not packaged') });
    expect(updatesEnabled({ ...base, isPackaged: true, hasUpdateConfig: () => false })).toMatchObject({ enabled: false, reason: expect.stringContaining('app-update.yml') });
    expect(updatesEnabled({ ...base, isPackaged: true, platform: 'linux' })).toMatchObject({ enabled: false, reason: expect.stringContaining('AppImage') });
    expect(updatesEnabled({ ...base, isPackaged: true, mas: true })).toMatchObject({ enabled: false, reason: expect.stringContaining('Mac App Store') });
    expect(updatesEnabled({ ...base, isPackaged: true, platform: 'win32', windowsStore: true })).toMatchObject({ enabled: false, reason: expect.stringContaining('Microsoft Store') });
  });
});

describe('runningAppImage', () => {
  it('only when APPIMAGE and APPDIR are set and the executable runs from inside APPDIR', () => {
    expect(runningAppImage(PACKAGED_APPIMAGE.env, PACKAGED_APPIMAGE.execPath)).toBe('/home/ana/Avail.AppImage');
    // Inherited from an AppImage'd parent: the deb's binary is not inside that AppImage's mount.
    expect(runningAppImage({ APPIMAGE: '/home/ana/Other.AppImage' }, '/opt/Avail/avail')).toBeNull();
    expect(runningAppImage({ APPIMAGE: '/home/ana/Other.AppImage', APPDIR: '/tmp/.mount_OtherAb' }, '/opt/Avail/avail')).toBeNull();
    expect(runningAppImage({ APPIMAGE: '/home/ana/Other.AppImage', APPDIR: '/tmp/.mount_Av' }, '/tmp/.mount_Avail/avail')).toBeNull();
    expect(runningAppImage({ APPIMAGE: '/home/ana/Other.AppImage', APPDIR: '/tmp/.mount_Av' }, '/tmp/.mount_Av/../x/avail')).toBeNull();
    expect(runningAppImage({ APPDIR: '/tmp/.mount_Av' }, '/tmp/.mount_Av/avail')).toBeNull();
    expect(runningAppImage({ APPIMAGE: 'Avail.AppImage', APPDIR: '/tmp/.mount_Av' }, '/tmp/.mount_Av/avail')).toBeNull();
  });
});
