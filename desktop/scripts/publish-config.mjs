/**
 * Where a packaged Avail looks for updates, chosen when the installers are built
 * (docs/desktop-release.md, "Publishing and updates"). `npm run dist -w desktop` passes the result to
 * electron-builder as its `publish` configuration; electron-builder writes it into the package's
 * `app-update.yml`, which electron-updater reads at run time.
 *
 * Pure: reads only the `env` object it is given.
 */

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
// GitHub's own rules for owner and repository names (letters, digits, '-', '_', '.').
const GITHUB_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,99})$/;

/** Thrown when the publish variables are set but cannot work; `message` is one sentence saying why. */
export class PublishConfigError extends Error {
  constructor(message) {
    super(message);
    this.name = 'PublishConfigError';
  }
}

/**
 * Maps the build's environment to electron-builder's `publish` option.
 *
 * - `AVAIL_PUBLISH_PROVIDER=github` with `AVAIL_PUBLISH_OWNER` and `AVAIL_PUBLISH_REPO` →
 *   `{ provider: 'github', owner, repo }` (the token, `GH_TOKEN`, is read by electron-builder only
 *   while uploading and is never part of this object, so never written into the app);
 * - `AVAIL_PUBLISH_PROVIDER=generic` with `AVAIL_PUBLISH_URL` → `{ provider: 'generic', url }`;
 *   the URL must be https, or http to this computer only (localhost, 127.0.0.1, [::1]), with no
 *   user name, password, query or fragment;
 * - `AVAIL_PUBLISH_PROVIDER` unset or empty → `null`: no publish configuration, no `app-update.yml`,
 *   the packaged app never checks for updates.
 *
 * @param {Record<string, string | undefined>} env usually `process.env`
 * @returns {{ provider: 'github', owner: string, repo: string } | { provider: 'generic', url: string } | null}
 * @throws {PublishConfigError} an unknown provider, a missing owner/repo/URL, or a URL that is not
 *   https (or http to localhost)
 */
export function publishConfig(env) {
  const provider = (env.AVAIL_PUBLISH_PROVIDER ?? '').trim();
  if (provider === '') return null;
  if (provider === 'github') {
    const owner = (env.AVAIL_PUBLISH_OWNER ?? '').trim();
    const repo = (env.AVAIL_PUBLISH_REPO ?? '').trim();
    if (!GITHUB_NAME.test(owner) || !GITHUB_NAME.test(repo)) {
      throw new PublishConfigError('AVAIL_PUBLISH_PROVIDER=github needs AVAIL_PUBLISH_OWNER and AVAIL_PUBLISH_REPO (the GitHub owner and repository the releases are published to).');
    }
    return { provider: 'github', owner, repo };
  }
  if (provider === 'generic') {
    const raw = (env.AVAIL_PUBLISH_URL ?? '').trim();
    let url;
    try {
      url = new URL(raw);
    } catch {
      throw new PublishConfigError('AVAIL_PUBLISH_PROVIDER=generic needs AVAIL_PUBLISH_URL, the https address the update files are served from.');
    }
    if (url.username || url.password || url.search || url.hash) {
      throw new PublishConfigError('AVAIL_PUBLISH_URL must not carry a user name, password, query or fragment: it is written into every installed app.');
    }
    const local = LOCAL_HOSTS.has(url.hostname);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) {
      throw new PublishConfigError('AVAIL_PUBLISH_URL must be https (http only for localhost): installed apps would otherwise download updates that anyone on the way could replace.');
    }
    return { provider: 'generic', url: url.href };
  }
  throw new PublishConfigError(`AVAIL_PUBLISH_PROVIDER must be "github" or "generic" (or unset for no updates), not ${JSON.stringify(provider)}.`);
}

/**
 * The one build log line that says where the packaged app will look for updates.
 *
 * @param {ReturnType<typeof publishConfig>} publish the result of {@link publishConfig}
 * @returns {string} e.g. `publish: none (AVAIL_PUBLISH_PROVIDER not set): the packaged app will not check for updates`
 */
export function describePublish(publish) {
  if (publish === null) return 'publish: none (AVAIL_PUBLISH_PROVIDER not set): the packaged app will not check for updates';
  if (publish.provider === 'github') return `publish: GitHub releases of ${publish.owner}/${publish.repo}`;
  return `publish: generic server ${publish.url}`;
}
