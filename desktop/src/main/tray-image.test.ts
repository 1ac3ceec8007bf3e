import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { trayImage } from './tray-image.ts';

const nativeImage = { createFromPath: (path: string) => ({ path, setTemplateImage: vi.fn() }) };
const theme = (dark: boolean, darkTaskbar: boolean) => ({ shouldUseDarkColors: dark, shouldUseDarkColorsForSystemIntegratedUI: darkTaskbar });

describe('trayImage', () => {
  it('macOS: the template image, tinted by the menu bar', () => {
    const image = trayImage({ platform: 'darwin', resourcesDir: '/res', nativeImage, nativeTheme: theme(true, true) });
    expect(image.path).toBe(join('/res', 'trayTemplate.png'));
    expect(image.setTemplateImage).toHaveBeenCalledWith(true);
  });

  it('Linux: after the theme; Windows: after the taskbar', () => {
    expect(trayImage({ platform: 'linux', resourcesDir: '/res', nativeImage, nativeTheme: theme(true, false) }).path).toBe(join('/res', 'tray-dark.png'));
    expect(trayImage({ platform: 'linux', resourcesDir: '/res', nativeImage, nativeTheme: theme(false, true) }).path).toBe(join('/res', 'tray-light.png'));
    expect(trayImage({ platform: 'win32', resourcesDir: '/res', nativeImage, nativeTheme: theme(false, true) }).path).toBe(join('/res', 'tray-dark.png'));
    expect(trayImage({ platform: 'win32', resourcesDir: '/res', nativeImage, nativeTheme: theme(true, false) }).path).toBe(join('/res', 'tray-light.png'));
  });
});
