import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { releaseProblems } from './release-check.mjs';

const ready = {
  tag: 'v0.3.0',
  rootPackage: {
    version: '0.3.0',
    homepage: 'https://avail.app',
    author: { name: 'Avail', email: 'hello@avail.app' },
    repository: { type: 'git', url: 'https://github.com/avail-app/avail.git' },
  },
  builderYml: 'linux:\n  target: [AppImage, deb]\n  maintainer: Avail <hello@avail.app>\n',
  serverUrl: 'https://cal.avail.app',
};

describe("release workflow's prepare job: what must hold before installers are built (docs/desktop-release.md, Release workflow)", () => {
  it('a tag equal to v<version>, no placeholders and a server: nothing in the way', () => {
    expect(releaseProblems(ready)).toEqual([]);
  });

  it('a tag that is not v<version> of package.json is refused, naming the expected tag', () => {
    expect(releaseProblems({ ...ready, tag: 'v0.3.1' })).toEqual([expect.stringMatching(/^The tag "v0.3.1" is not v<version> of the root package.json \(v0.3.0\)/)]);
    expect(releaseProblems({ ...ready, tag: '0.3.0' })).toHaveLength(1);
    expect(releaseProblems({ ...ready, tag: undefined })).toHaveLength(1);
  });

  it('each avail.example.com placeholder (homepage, author, repository, linux.maintainer) is named with what to replace', () => {
    const problems = releaseProblems({
      ...ready,
      rootPackage: {
        version: '0.3.0',
        homepage: 'https://avail.example.com',
        author: { name: 'Avail', email: 'no-reply@avail.example.com' },
        repository: { type: 'git', url: 'https://avail.example.com/source/avail.git' },
      },
      builderYml: '# the maintainer: avail.example.com in a comment is fine\nlinux:\n  maintainer: Avail <no-reply@avail.example.com>\n',
    });
    expect(problems).toEqual([
      expect.stringMatching(/^package.json "homepage" still holds the placeholder avail.example.com: replace it/),
      expect.stringMatching(/^package.json "author" still holds/),
      expect.stringMatching(/^package.json "repository" still holds/),
      expect.stringMatching(/^electron-builder.yml linux.maintainer still holds the placeholder avail.example.com: replace it with the publisher's name and e-mail/),
    ]);
  });

  it('an empty AVAIL_SERVER_URL is refused: the released app would propose http://localhost:3000', () => {
    expect(releaseProblems({ ...ready, serverUrl: '' })).toEqual([expect.stringMatching(/AVAIL_SERVER_URL is empty.*http:\/\/localhost:3000/)]);
    expect(releaseProblems({ ...ready, serverUrl: undefined })).toHaveLength(1);
  });

  it('a server that is not an https origin, or the placeholder, is refused', () => {
    expect(releaseProblems({ ...ready, serverUrl: 'http://cal.avail.app' })).toEqual([expect.stringMatching(/must be an https origin/)]);
    expect(releaseProblems({ ...ready, serverUrl: 'https://cal.avail.app/app?x=1' })).toHaveLength(1);
    expect(releaseProblems({ ...ready, serverUrl: 'https://avail.example.com' })).toEqual([expect.stringMatching(/is the placeholder/)]);
    expect(releaseProblems({ ...ready, serverUrl: 'https://cal.avail.app/' })).toEqual([]);
  });

  it('the script reads the repository and the environment: a wrong tag and no server exit 1 with both named', () => {
    const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
    const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
    const env = { ...process.env, AVAIL_SERVER_URL: '' };
    const run = spawnSync(process.execPath, [join(root, 'desktop', 'scripts', 'release-check.mjs'), '--tag', 'v0.0.0-wrong'], { encoding: 'utf8', env });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`is not v<version> of the root package.json (v${version})`);
    expect(run.stderr).toContain('AVAIL_SERVER_URL is empty');
  });
});
