import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findElectronBinary, MISSING_BINARY_MESSAGE } from './dev.mjs';

describe("npm run dev -w desktop: finding Electron's binary", () => {
  let electronDir: string;
  beforeEach(() => {
    electronDir = mkdtempSync(join(tmpdir(), 'avail-electron-pkg-'));
  });
  afterEach(() => rmSync(electronDir, { recursive: true, force: true }));

  it('no path.txt (the install script never ran): not found', () => {
    expect(findElectronBinary(electronDir, {})).toBeNull();
  });

  it('path.txt names an executable that is not there (a half-finished download): not found', () => {
    writeFileSync(join(electronDir, 'path.txt'), 'electron');
    expect(findElectronBinary(electronDir, {})).toBeNull();
  });

  it('path.txt and dist/<executable> present: that executable', () => {
    writeFileSync(join(electronDir, 'path.txt'), 'electron');
    mkdirSync(join(electronDir, 'dist'));
    writeFileSync(join(electronDir, 'dist', 'electron'), '#!/bin/sh\n');
    chmodSync(join(electronDir, 'dist', 'electron'), 0o755);
    expect(findElectronBinary(electronDir, {})).toBe(join(electronDir, 'dist', 'electron'));
  });

  it('ELECTRON_OVERRIDE_DIST_PATH is honoured as electron/index.js does', () => {
    const other = join(electronDir, 'elsewhere');
    mkdirSync(other);
    writeFileSync(join(other, 'electron'), '');
    expect(findElectronBinary(electronDir, { ELECTRON_OVERRIDE_DIST_PATH: other })).toBe(join(other, 'electron'));
  });

  it('the message says how to fetch the binary and that it needs github.com', () => {
    expect(MISSING_BINARY_MESSAGE).toContain('node node_modules/electron/install.js');
    expect(MISSING_BINARY_MESSAGE).toContain('github.com');
  });
});
