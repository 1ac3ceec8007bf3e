#!/usr/bin/env node
/**
 * `node desktop/scripts/release-check.mjs`: what the release workflow's first job (`prepare`,
 * .github/workflows/release.yml; docs/desktop-release.md "Release workflow") requires before any
 * installer is built. Reads the tag from `GITHUB_REF_NAME` (or `--tag <tag>`), the server the app
 * proposes on first run from `AVAIL_SERVER_URL`, the root package.json and electron-builder.yml.
 * Exit 0 with one line when all holds; else exit 1 with one line per problem, saying what to change.
 * Needs nothing installed (plain Node).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The placeholder domain of the repository's metadata, to be replaced before a public release. */
export const PLACEHOLDER_DOMAIN = 'avail.example.com';

/** A package.json field (string or object of strings) as one text, for the placeholder search. */
function fieldText(value) {
  if (value == null) return '';
  if (typeof value === 'string') return value;
  return Object.values(value)
    .filter((v) => typeof v === 'string')
    .join(' ');
}

/**
 * What stands in the way of a release.
 *
 * @param {{ tag: string | undefined, rootPackage: { version?: string, homepage?: unknown, author?: unknown, repository?: unknown }, builderYml: string, serverUrl: string | undefined }} input
 *   `tag`: the pushed tag (`GITHUB_REF_NAME`); `rootPackage`: the parsed root package.json;
 *   `builderYml`: electron-builder.yml's text; `serverUrl`: `AVAIL_SERVER_URL` (the workflow's
 *   repository variable of that name)
 * @returns {string[]} one sentence per problem (empty: ready to release)
 */
export function releaseProblems({ tag, rootPackage, builderYml, serverUrl }) {
  const problems = [];
  const expectedTag = `v${rootPackage.version}`;
  if (tag !== expectedTag) {
    problems.push(
      `The tag ${JSON.stringify(tag ?? '')} is not v<version> of the root package.json (${expectedTag}): electron-builder publishes to the release named after the version, so bump "version" and tag v<version>.`,
    );
  }
  const uses = {
    homepage: "the project's web address (the deb's Homepage, the app's link allow-list)",
    author: "the publisher's name and e-mail address (the deb's vendor)",
    repository: "the source repository's URL",
  };
  for (const [field, what] of Object.entries(uses)) {
    if (fieldText(rootPackage[field]).includes(PLACEHOLDER_DOMAIN)) {
      problems.push(`package.json "${field}" still holds the placeholder ${PLACEHOLDER_DOMAIN}: replace it with ${what}.`);
    }
  }
  const maintainer = builderYml.split('\n').find((line) => /^\s+maintainer:/.test(line));
  if (maintainer?.includes(PLACEHOLDER_DOMAIN)) {
    problems.push(`electron-builder.yml linux.maintainer still holds the placeholder ${PLACEHOLDER_DOMAIN}: replace it with the publisher's name and e-mail address (the deb's Maintainer).`);
  }
  const server = (serverUrl ?? '').trim();
  if (server === '') {
    problems.push(
      'The repository variable AVAIL_SERVER_URL is empty: set it (Settings → Secrets and variables → Actions → Variables) to the https origin of the Avail server the app proposes on first run; without it the released app proposes http://localhost:3000.',
    );
  } else {
    let url = null;
    try {
      url = new URL(server);
    } catch {
      /* reported below */
    }
    if (!url || url.protocol !== 'https:' || url.origin !== server.replace(/\/$/, '')) {
      problems.push(`AVAIL_SERVER_URL must be an https origin like https://avail.example.org (got ${JSON.stringify(server)}).`);
    } else if (url.hostname === PLACEHOLDER_DOMAIN) {
      problems.push(`AVAIL_SERVER_URL is the placeholder ${PLACEHOLDER_DOMAIN}: set it to the real server's origin.`);
    }
  }
  return problems;
}

function main() {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const tagArg = process.argv.indexOf('--tag');
  const tag = tagArg > 0 ? process.argv[tagArg + 1] : process.env.GITHUB_REF_NAME;
  const rootPackage = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const builderYml = readFileSync(join(root, 'electron-builder.yml'), 'utf8');
  const problems = releaseProblems({ tag, rootPackage, builderYml, serverUrl: process.env.AVAIL_SERVER_URL });
  if (problems.length > 0) {
    console.error(`release-check: ${problems.length} problem(s) before releasing ${tag ?? '(no tag)'}:`);
    for (const p of problems) console.error(`  - ${p}`);
    process.exit(1);
  }
  console.log(`release-check: ${tag} matches the version, no placeholders left, the app proposes ${process.env.AVAIL_SERVER_URL.trim()}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
