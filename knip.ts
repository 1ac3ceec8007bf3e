/**
 * knip (https://knip.dev): every declared dependency is used and every used one is declared.
 * `npm run check:deps` (a step of `npm test`).
 */
import type { KnipConfig } from 'knip';

const config: KnipConfig = {
  workspaces: {
    '.': { entry: ['scripts/*.{mjs,ts}', 'scripts/bench/*.ts'] },
  },
  // Debian's radicale (CalDAV server for the provider tests), started by server/test/radicale.ts.
  ignoreBinaries: ['radicale'],
};

export default config;
