/**
 * knip (https://knip.dev): every declared dependency is used and every used one is declared.
 * `npm run check:deps` (a step of `npm test`).
 */
import type { KnipConfig } from 'knip';

const config: KnipConfig = {
  workspaces: {
    '.': { entry: ['scripts/*.{mjs,ts}', 'scripts/bench/*.ts'] },
    // electron-builder requires its hooks by path (electron-builder.yml: afterSign, win.signtoolOptions.sign)
    // and calls the export named after the hook (`afterSign`, `sign`); the other exports are their tests'.
    desktop: { entry: ['scripts/notarize-hook.cjs', 'scripts/windows-sign-hook.cjs'] },
  },
  // Debian's radicale (CalDAV server for the provider tests), started by server/test/radicale.ts.
  ignoreBinaries: ['radicale'],
};

export default config;
