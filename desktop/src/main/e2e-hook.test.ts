import { describe, expect, it, vi } from 'vitest';
import { e2eEnabled, e2eUserDataDir, probeTray, type ProbedMenu } from './e2e-hook.ts';

function fakeTray() {
  return {
    setToolTip: vi.fn(),
    setTitle: vi.fn(),
    setContextMenu: vi.fn(),
    setImage: vi.fn(function (this: unknown, _image: string) {
      return this;
    }),
    isDestroyed: () => false,
  };
}

function menu(onBusy: () => void, onQuit: () => void): ProbedMenu {
  return {
    items: [
      { label: 'Free now until 15:30', type: 'normal', enabled: false, click: () => undefined },
      { label: '', type: 'separator', enabled: true, click: () => undefined },
      {
        label: 'Proposed times (1)',
        type: 'submenu',
        enabled: true,
        click: () => undefined,
        submenu: { items: [{ label: 'Confirm', type: 'normal', enabled: true, click: () => undefined }] },
      },
      { label: 'Busy for the next 30 min', type: 'normal', enabled: true, click: onBusy },
      { label: 'Quit', type: 'normal', enabled: true, click: onQuit },
    ],
  };
}

describe('e2e hook', () => {
  it('takes the data folder from AVAIL_USER_DATA_DIR only under AVAIL_E2E=1 and only as an absolute path', () => {
    expect(e2eUserDataDir({ AVAIL_E2E: '1', AVAIL_USER_DATA_DIR: '/tmp/avail-e2e-x' }, false)).toBe('/tmp/avail-e2e-x');
    expect(e2eUserDataDir({ AVAIL_USER_DATA_DIR: '/tmp/avail-e2e-x' }, false)).toBeNull();
    expect(e2eUserDataDir({ AVAIL_E2E: 'true', AVAIL_USER_DATA_DIR: '/tmp/x' }, false)).toBeNull();
    expect(e2eUserDataDir({ AVAIL_E2E: '1', AVAIL_USER_DATA_DIR: 'relative/dir' }, false)).toBeNull();
    expect(e2eUserDataDir({ AVAIL_E2E: '1' }, false)).toBeNull();
    expect(e2eEnabled({ AVAIL_E2E: '1' }, false)).toBe(true);
    expect(e2eEnabled({}, false)).toBe(false);
  });

  it('an installed (packaged) app ignores AVAIL_E2E and AVAIL_USER_DATA_DIR: no other data folder, no probe', () => {
    const env = { AVAIL_E2E: '1', AVAIL_USER_DATA_DIR: '/tmp/avail-e2e-x' };
    expect(e2eUserDataDir(env, true)).toBeNull();
    expect(e2eEnabled(env, true)).toBe(false);
  });

  it('records what the tray is told and still tells the real tray', () => {
    const real = fakeTray();
    const { tray, probe } = probeTray(real);
    expect(probe.tooltip()).toBe('');
    tray.setToolTip('Free now until 15:30');
    tray.setTitle('15:30');
    const m = menu(() => undefined, () => undefined);
    tray.setContextMenu(m);
    expect(real.setToolTip).toHaveBeenCalledWith('Free now until 15:30');
    expect(real.setTitle).toHaveBeenCalledWith('15:30');
    expect(real.setContextMenu).toHaveBeenCalledWith(m);
    expect(probe.tooltip()).toBe('Free now until 15:30');
    expect(probe.title()).toBe('15:30');
    expect(probe.menuLabels()).toEqual(['Free now until 15:30', 'Proposed times (1)', 'Confirm', 'Busy for the next 30 min', 'Quit']);
    // Everything else goes to the real tray, bound to it.
    expect(tray.setImage('x')).toBe(real);
    expect(tray.isDestroyed()).toBe(false);
  });

  it('clicks an enabled item of the last menu by its exact label, and refuses a missing or disabled one', () => {
    const busy = vi.fn();
    const quit = vi.fn();
    const { tray, probe } = probeTray(fakeTray());
    tray.setContextMenu(menu(busy, quit));
    probe.clickMenuItem('Busy for the next 30 min');
    expect(busy).toHaveBeenCalledTimes(1);
    expect(quit).not.toHaveBeenCalled();
    expect(() => probe.clickMenuItem('Busy for')).toThrow('no tray menu item "Busy for"');
    expect(() => probe.clickMenuItem('Free now until 15:30')).toThrow('is disabled');
    tray.setContextMenu({ items: [] });
    expect(() => probe.clickMenuItem('Quit')).toThrow('no tray menu item');
  });
});
