/**
 * knip (https://knip.dev): every declared dependency is used and every used one is declared.
 * `npm run check:deps` (a step of `npm test`).
 */
import type { KnipConfig } from 'knip';

const config: KnipConfig = {
  workspaces: {
    '.': { entry: ['scripts/*.{mjs,ts}', 'scripts/bench/*.ts'] },
    // Kysely's migration provider (db/migrate.ts) hands each migration module (`up`, `down`) to the
    // Migrator as a namespace object: entries, so their exports count as used.
    server: { entry: ['src/main.ts', 'src/db/migrations/*.ts'] },
  },
  // Debian's radicale (CalDAV server for the provider tests), started by server/test/radicale.ts.
  ignoreBinaries: ['radicale'],
};

export default config;
