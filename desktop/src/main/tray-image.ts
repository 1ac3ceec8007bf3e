/**
 * The tray icon for the platform and theme (main.ts; the images come from `build/` in development
 * and `<resources>/tray/` when packaged, see electron-builder.yml): on macOS the template image
 * `trayTemplate.png` (+ `@2x`) that the menu bar tints; elsewhere `tray-dark.png` (light mark for
 * dark panels) or `tray-light.png` (dark mark for light panels) after the system theme.
 */
import { join } from 'node:path';

/** The part of Electron's `nativeImage` used here. */
export interface NativeImageFactory<Image> {
  createFromPath(path: string): Image;
}

/** The part of Electron's `nativeTheme` used here. */
export interface ThemeLike {
  shouldUseDarkColors: boolean;
  /** Windows: whether the taskbar (not the apps) is dark. */
  shouldUseDarkColorsForSystemIntegratedUI: boolean;
}

/** The tray image to show now; call again on `nativeTheme`'s `updated`. */
export function trayImage<Image extends { setTemplateImage(option: boolean): void }>(input: {
  platform: NodeJS.Platform;
  resourcesDir: string;
  nativeImage: NativeImageFactory<Image>;
  nativeTheme: ThemeLike;
}): Image {
  const { platform, resourcesDir, nativeImage, nativeTheme } = input;
  if (platform === 'darwin') {
    // `…Template.png` (+ `@2x`) is a template image: macOS tints it for the menu bar.
    const image = nativeImage.createFromPath(join(resourcesDir, 'trayTemplate.png'));
    image.setTemplateImage(true);
    return image;
  }
  const dark = platform === 'win32' ? nativeTheme.shouldUseDarkColorsForSystemIntegratedUI : nativeTheme.shouldUseDarkColors;
  // tray-dark.png: light mark for dark panels; tray-light.png: dark mark for light panels.
  return nativeImage.createFromPath(join(resourcesDir, dark ? 'tray-dark.png' : 'tray-light.png'));
}
