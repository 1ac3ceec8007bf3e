#!/usr/bin/env node
/**
 * Before `npm run dist -w desktop`: electron-builder's native-module step (@electron/rebuild 4,
 * node-abi 4) needs Node ≥ 22.12, while the rest of the project runs on Node ^20.19 too
 * (scripts/check-engines.mjs). Say so instead of failing half-way through packaging.
 */
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(`Packaging the desktop app needs Node 22.12 or newer (electron-builder → @electron/rebuild 4); this is Node ${process.versions.node}.`);
  process.exit(1);
}
