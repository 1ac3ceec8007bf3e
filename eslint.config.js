/**
 * ESLint (typescript-eslint parser, eslint-plugin-import-x): the project's layers, enforced.
 * `npm run lint` (a step of `npm test`). Layers point one way (docs/architecture.md):
 *
 *   packages:  shared ← server;  shared ← web;  shared ← desktop (the desktop app loads the web build,
 *              it imports no web or server source)
 *   server:    lib, db ← http ← store ← modules (routes → services → repos) ← jobs ← app.ts ← main.ts;
 *              a module never imports another module's repo (it calls that module's service), and
 *              other modules, the jobs and the app reach a module only through modules/<m>/index.ts
 *   web:       lib ← platform ← data (session, stores, device database) ← components ← features
 *              ← app (router, guards) ← entries; a feature never imports another feature
 *
 * The layer zones apply to product code; tests (`*.test.ts`, server/test, web/e2e) wire whole apps
 * together and are checked for cycles only.
 *
 * and no import cycle anywhere (`import-x/no-cycle`). A new back arrow fails `npm test`.
 */
import { readdirSync } from 'node:fs';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const dirs = (p) => readdirSync(new URL(p, import.meta.url), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
const serverModules = dirs('./server/src/modules/');
const webFeatures = dirs('./web/src/features/');

/** One zone per module: it may not import another module's repositories (shared tables live in server/src/store). */
const moduleRepoZones = serverModules.map((m) => ({
  target: `./server/src/modules/${m}`,
  from: [`./server/src/modules/!(${m})/*.repo.ts`],
  message: 'A module calls another module through its service, never its repository (shared tables: server/src/store).',
}));

/**
 * Front doors: a module is used from outside (another module, the jobs, the app) only through its
 * `modules/<m>/index.ts`, which re-exports what others may use; everything else is internal.
 */
const FRONT_DOOR_MESSAGE = 'Use a module only through its front door, modules/<m>/index.ts (add the export there if it is meant to be used outside).';
const insideModulesExceptFrontDoors = (m) => [`./server/src/modules/${m}/!(index).*`, `./server/src/modules/${m}/*/**`];
const moduleFrontDoorZones = [
  ...serverModules.map((m) => ({ target: `./server/src/modules/${m}`, from: insideModulesExceptFrontDoors(`!(${m})`), message: FRONT_DOOR_MESSAGE })),
  { target: ['./server/src/jobs', './server/src/app.ts', './server/src/main.ts'], from: insideModulesExceptFrontDoors('*'), message: FRONT_DOOR_MESSAGE },
];

/**
 * The modules in tiers: a module imports only modules of lower tiers (and the store below them
 * all), so module dependencies form no cycle. docs/architecture.md lists them in this order.
 */
const MODULE_TIERS = [
  ['health', 'availability', 'share-links', 'links', 'sync'],
  ['blocks', 'oauth'],
  ['auth', 'replication', 'public'],
  ['calendars', 'proposals', 'profile', 'dashboard', 'webhooks'],
];
const tierOf = new Map(MODULE_TIERS.flatMap((tier, i) => tier.map((m) => [m, i])));
for (const m of serverModules) if (!tierOf.has(m)) throw new Error(`eslint.config.js: put server module '${m}' in MODULE_TIERS`);
const moduleTierZones = serverModules
  .map((m) => ({ m, higher: serverModules.filter((o) => o !== m && tierOf.get(o) >= tierOf.get(m)) }))
  .filter(({ higher }) => higher.length > 0)
  .map(({ m, higher }) => ({
    target: `./server/src/modules/${m}`,
    from: higher.map((o) => `./server/src/modules/${o}`),
    message: `Module '${m}' may import only modules of a lower tier (eslint.config.js MODULE_TIERS).`,
  }));
/** One zone per feature: it may not import another feature. */
const featureZones = webFeatures.map((f) => ({
  target: `./web/src/features/${f}`,
  from: './web/src/features',
  except: [`./${f}`],
  message: 'Features do not import each other: move what both need to web/src/components, web/src/lib or web/src/data.',
}));

export default [
  { ignores: ['**/node_modules/**', '**/dist/**', 'test-results/**', 'web/public/**', 'desktop/dist/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parser: tseslint.parser, parserOptions: { ecmaVersion: 'latest', sourceType: 'module', ecmaFeatures: { jsx: true } } },
    plugins: { 'import-x': importX },
    settings: {
      // import-x reads only the extensions it is told about: without these it never follows a .ts import (no cycle found).
      'import-x/extensions': ['.ts', '.tsx'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: ['shared/tsconfig.json', 'server/tsconfig.json', 'web/tsconfig.json', 'desktop/tsconfig.json'] })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            // packages
            { target: './shared', from: ['./server', './web', './desktop'], message: 'shared imports nothing of ours.' },
            { target: './server', from: ['./web/src', './desktop'], message: 'The server imports shared only (it serves the web build’s files, never its source).' },
            { target: './desktop', from: ['./web/src', './server'], message: 'The desktop app imports shared and its own files only.' },
            { target: './web', from: ['./server', './desktop'], message: 'The web app imports shared only.' },
            // server layers
            { target: ['./server/src/lib', './server/src/db'], from: ['./server/src/http', './server/src/store', './server/src/modules', './server/src/jobs', './server/src/mail', './server/src/providers', './server/src/app.ts', './server/src/main.ts'], message: 'lib and db are the bottom of the server.' },
            { target: './server/src/store', from: ['./server/src/modules', './server/src/jobs', './server/src/app.ts', './server/src/main.ts'], message: 'The store is below the modules.' },
            { target: ['./server/src/http', './server/src/providers', './server/src/mail'], from: ['./server/src/modules', './server/src/jobs', './server/src/app.ts', './server/src/main.ts'], message: 'http, providers and mail are below the modules.' },
            { target: './server/src/modules', from: ['./server/src/jobs', './server/src/app.ts', './server/src/main.ts'], message: 'Modules are below the jobs and the app.' },
            { target: './server/src/jobs', from: ['./server/src/modules/*/*.repo.ts', './server/src/store/*.ts'], message: 'Jobs call services, never repositories.' },
            { target: './server/src/jobs', from: ['./server/src/app.ts', './server/src/main.ts'], message: 'Jobs are below the app.' },
            { target: './server/src/modules/**/*.repo.ts', from: ['./server/src/modules/**/*.service.ts', './server/src/modules/**/*.routes.ts'], message: 'routes → services → repositories, never back.' },
            { target: './server/src/modules/**/*.service.ts', from: './server/src/modules/**/*.routes.ts', message: 'routes → services, never back.' },
            ...moduleRepoZones,
            ...moduleFrontDoorZones,
            ...moduleTierZones,
            // web layers
            { target: './web/src/lib', from: ['./web/src/platform', './web/src/data', './web/src/components', './web/src/features', './web/src/app'], message: 'lib is the bottom of the web app.' },
            { target: './web/src/platform', from: ['./web/src/data', './web/src/components', './web/src/features', './web/src/app'], message: 'The platform is below the data layer.' },
            { target: './web/src/data', from: ['./web/src/components', './web/src/features', './web/src/app'], message: 'The data layer is below components, features and the router.' },
            { target: './web/src/components', from: ['./web/src/features', './web/src/app'], message: 'Shared components import nothing from features or the router.' },
            { target: './web/src/features', from: './web/src/app', message: 'Features import data and components, never the router.' },
            ...featureZones,
          ],
        },
      ],
    },
  },
  {
    // routes → services → repositories: SQL lives in repositories (and the store), never in a service or route.
    files: ['server/src/modules/**/*.service.ts', 'server/src/modules/**/*.routes.ts', 'server/src/jobs/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name=/^(selectFrom|updateTable|insertInto|deleteFrom)$/]",
          message: 'Queries belong in a repository (modules/<m>/<m>.repo.ts or server/src/store), not in a service, route or job.',
        },
      ],
    },
  },
  {
    files: ['shared/src/**/*.{ts,tsx}', 'server/src/**/*.{ts,tsx}', 'web/src/**/*.{ts,tsx}', 'desktop/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', 'shared/src/i18n/messages/**'],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 150, skipBlankLines: false, skipComments: false, IIFEs: true }],
    },
  },
  {
    // Tests wire whole apps together (the app with its routes, jobs, fakes): checked for cycles only.
    files: ['**/*.test.ts', '**/*.test.tsx', 'server/test/**', 'web/e2e/**', 'scripts/**', 'shared/test/**'],
    rules: { 'import-x/no-restricted-paths': 'off' },
  },
];
