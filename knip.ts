/**
 * knip (https://knip.dev): every declared dependency is used and every used one is declared, and
 * no export is left that nobody imports (an export used only in its own file stops being exported).
 * `npm run check:knip` (a step of `npm test`).
 */
import type { KnipConfig } from 'knip';

const config: KnipConfig = {
  workspaces: {
    '.': { entry: ['scripts/*.{mjs,ts}', 'scripts/bench/*.ts'] },
    // electron-builder requires its hooks by path (electron-builder.yml: afterSign, win.signtoolOptions.sign)
    // and calls the export named after the hook (`afterSign`, `sign`); the other exports are their tests'.
    desktop: { entry: ['scripts/notarize-hook.cjs', 'scripts/windows-sign-hook.cjs'] },
    // Kysely's migration provider (db/migrate.ts) hands each migration module (`up`, `down`) to the
    // Migrator as a namespace object: entries, so their exports count as used.
    // piscina loads the derive worker by its file path (derive-pool.ts): an entry, its default export used.
    server: { entry: ['src/main.ts', 'src/db/migrations/*.ts', 'src/modules/sync/derive.worker.ts'] },
    // Vite builds the public page from public.html (`--mode public`, web/vite.config.ts) and its
    // server renderer from src/public-ssr.tsx: entries beside index.html's src/main.tsx.
    web: { entry: ['src/main.tsx', 'src/public-entry.tsx', 'src/public-ssr.tsx'] },
  },
  // Debian's radicale (CalDAV server for the provider tests), started by server/test/radicale.ts.
  ignoreBinaries: ['radicale'],
};

export default config;
