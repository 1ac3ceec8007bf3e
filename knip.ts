/**
 * knip (https://knip.dev): every declared dependency is used and every used one is declared.
 * `npm run check:deps` (a step of `npm test`).
 */
import type { KnipConfig } from 'knip';

const config: KnipConfig = {
  workspaces: {
    '.': { entry: ['scripts/*.{mjs,ts}', 'scripts/bench/*.ts'] },
    web: {
      // The public page's own build maps React onto Preact's compat layer through Vite aliases
      // (web/vite.config.ts `preactAliases`: react-dom/server → preact-render-to-string, react → preact/compat),
      // so these two are imported only through alias strings that knip cannot follow.
      ignoreDependencies: ['preact', 'preact-render-to-string'],
    },
  },
  // Debian's radicale (CalDAV server for the provider tests), started by server/test/radicale.ts.
  ignoreBinaries: ['radicale'],
};

export default config;
