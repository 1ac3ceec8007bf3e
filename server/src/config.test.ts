import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, REPO_ROOT, loadConfig } from './config.ts';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'avail-config-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('loadConfig', () => {
  it('applies the defaults, resolving paths against the base dir', () => {
    const base = tmp();
    const c = loadConfig({}, base);
    expect(c.PORT).toBe(3000);
    expect(c.DATA_DIR).toBe(path.join(base, 'data'));
    expect(c.SQLITE_PATH).toBe(path.join(base, 'data', 'avail.sqlite'));
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.PUBLIC_BASE_URL).toBe('http://localhost:3000');
    expect(c.MAIL_FROM).toBe('Avail <no-reply@localhost>');
    expect(c.APPLE_CALDAV_URL).toBe('https://caldav.icloud.com');
    expect(c.ALLOW_PRIVATE_CALENDAR_HOSTS).toBe(false);
    expect(c.LOG_LEVEL).toBe('info');
    expect(c.WEB_DIST_DIR).toBe(path.join(base, 'web', 'dist'));
  });

  it('resolves relative paths against the repository root by default', () => {
    const c = loadConfig({ AVAIL_SECRET_KEY: 'a'.repeat(64) });
    expect(c.DATA_DIR).toBe(path.join(REPO_ROOT, 'data'));
    expect(path.basename(REPO_ROOT)).not.toBe('server');
  });

  it('generates the secret key once, mode 0600, and reuses it', () => {
    const base = tmp();
    const a = loadConfig({ DATA_DIR: 'd' }, base);
    const file = path.join(base, 'd', 'secret.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(a.AVAIL_SECRET_KEY).toHaveLength(32);
    const b = loadConfig({ DATA_DIR: 'd' }, base);
    expect(b.AVAIL_SECRET_KEY.equals(a.AVAIL_SECRET_KEY)).toBe(true);
    expect(readFileSync(file, 'utf8').trim()).toBe(a.AVAIL_SECRET_KEY.toString('base64'));
  });

  it('accepts a hex or base64 key and postgres URLs', () => {
    const base = tmp();
    const key = Buffer.alloc(32, 7);
    expect(loadConfig({ AVAIL_SECRET_KEY: key.toString('hex') }, base).AVAIL_SECRET_KEY.equals(key)).toBe(true);
    const c = loadConfig({ AVAIL_SECRET_KEY: key.toString('base64'), DATABASE_URL: 'postgres://u@h/db', PORT: '8080', ALLOW_PRIVATE_CALENDAR_HOSTS: 'true' }, base);
    expect(c.AVAIL_SECRET_KEY.equals(key)).toBe(true);
    expect(c.DATABASE_URL).toBe('postgres://u@h/db');
    expect(c.PUBLIC_BASE_URL).toBe('http://localhost:8080');
    expect(c.ALLOW_PRIVATE_CALENDAR_HOSTS).toBe(true);
  });

  it('fails with a list of every problem', () => {
    const base = tmp();
    try {
      loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud', SMTP_URL: 'http://mail' }, base);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems.join('\n');
      for (const name of ['PORT', 'DATABASE_URL', 'LOG_LEVEL', 'SMTP_URL']) expect(problems).toContain(name);
    }
    expect(() => loadConfig({ AVAIL_SECRET_KEY: 'too-short' }, base)).toThrow(/AVAIL_SECRET_KEY/);
  });
});
