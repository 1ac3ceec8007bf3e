import { describe, expect, it } from 'vitest';
import { describePublish, publishConfig, PublishConfigError } from './publish-config.mjs';

describe('publishConfig: where a packaged app looks for updates (docs/desktop-release.md)', () => {
  it('GitHub releases: owner and repo, never the token', () => {
    const publish = publishConfig({ AVAIL_PUBLISH_PROVIDER: 'github', AVAIL_PUBLISH_OWNER: 'avail-app', AVAIL_PUBLISH_REPO: 'avail', GH_TOKEN: 'ghp_secret' });
    expect(publish).toEqual({ provider: 'github', owner: 'avail-app', repo: 'avail' });
    expect(JSON.stringify(publish)).not.toContain('ghp_secret');
    expect(describePublish(publish)).toBe('publish: GitHub releases of avail-app/avail');
  });

  it('GitHub without owner or repo is refused, saying what is missing', () => {
    expect(() => publishConfig({ AVAIL_PUBLISH_PROVIDER: 'github', AVAIL_PUBLISH_OWNER: 'avail-app' })).toThrow(/AVAIL_PUBLISH_OWNER and AVAIL_PUBLISH_REPO/);
    expect(() => publishConfig({ AVAIL_PUBLISH_PROVIDER: 'github', AVAIL_PUBLISH_REPO: 'avail' })).toThrow(PublishConfigError);
    expect(() => publishConfig({ AVAIL_PUBLISH_PROVIDER: 'github', AVAIL_PUBLISH_OWNER: '../x', AVAIL_PUBLISH_REPO: 'avail' })).toThrow(PublishConfigError);
  });

  it('a generic https server', () => {
    const publish = publishConfig({ AVAIL_PUBLISH_PROVIDER: 'generic', AVAIL_PUBLISH_URL: 'https://updates.example.com/avail/' });
    expect(publish).toEqual({ provider: 'generic', url: 'https://updates.example.com/avail/' });
    expect(describePublish(publish)).toBe('publish: generic server https://updates.example.com/avail/');
  });

  it('plain http only to this computer', () => {
    expect(publishConfig({ AVAIL_PUBLISH_PROVIDER: 'generic', AVAIL_PUBLISH_URL: 'http://localhost:8080/updates' })).toEqual({ provider: 'generic', url: 'http://localhost:8080/updates' });
    expect(publishConfig({ AVAIL_PUBLISH_PROVIDER: 'generic', AVAIL_PUBLISH_URL: 'http://127.0.0.1:8080/' })).toEqual({ provider: 'generic', url: 'http://127.0.0.1:8080/' });
    expect(() => publishConfig({ AVAIL_PUBLISH_PROVIDER: 'generic', AVAIL_PUBLISH_URL: 'http://updates.example.com/avail/' })).toThrow(/must be https/);
    expect(() => publishConfig({ AVAIL_PUBLISH_PROVIDER: 'generic', AVAIL_PUBLISH_URL: 'http://localhost.example.com/' })).toThrow(/must be https/);
  });

  it('a generic URL that is missing, not a URL, another scheme or carries credentials or a query is refused', () => {
    expect(() => publishConfig({ AVAIL_PUBLISH_PROVIDER: 'generic' })).toThrow(/needs AVAIL_PUBLISH_URL/);
    expect(() => publishConfig({ AVAIL_PUBLISH_PROVIDER: 'generic', AVAIL_PUBLISH_URL: 'updates.example.com' })).toThrow(PublishConfigError);
    expect(() => publishConfig({ AVAIL_PUBLISH_PROVIDER: 'generic', AVAIL_PUBLISH_URL: 'ftp://updates.example.com/' })).toThrow(/must be https/);
    expect(() => publishConfig({ AVAIL_PUBLISH_PROVIDER: 'generic', AVAIL_PUBLISH_URL: 'https://user:pw@updates.example.com/' })).toThrow(/user name, password/);
    expect(() => publishConfig({ AVAIL_PUBLISH_PROVIDER: 'generic', AVAIL_PUBLISH_URL: 'https://updates.example.com/?token=x' })).toThrow(/query/);
  });

  it('unset (or empty) → null: no update configuration, said in the log line', () => {
    expect(publishConfig({})).toBeNull();
    expect(publishConfig({ AVAIL_PUBLISH_PROVIDER: '  ', AVAIL_PUBLISH_URL: 'https://updates.example.com/' })).toBeNull();
    expect(describePublish(null)).toBe('publish: none (AVAIL_PUBLISH_PROVIDER not set): the packaged app will not check for updates');
  });

  it('an unknown provider is refused with the accepted ones', () => {
    expect(() => publishConfig({ AVAIL_PUBLISH_PROVIDER: 's3' })).toThrow('AVAIL_PUBLISH_PROVIDER must be "github" or "generic" (or unset for no updates), not "s3".');
  });
});
