import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The hooks are CommonJS modules that electron-builder requires by path (electron-builder.yml).
const require = createRequire(import.meta.url);
const notarizeHook = require('./notarize-hook.cjs');
const windowsSignHook = require('./windows-sign-hook.cjs');

const macContext = (appOutDir = '/build/mac-universal') => ({
  electronPlatformName: 'darwin',
  appOutDir,
  packager: { appInfo: { productFilename: 'Avail' } },
});

describe('notarize hook (afterSign): notarizes the macOS app when Apple credentials are set', () => {
  it('without credentials: one log line naming the variables, and no notarization', async () => {
    const log = vi.fn();
    const notarize = vi.fn();
    await expect(notarizeHook.notarizeApp(macContext(), { env: {}, notarize, log })).resolves.toBe('skipped');
    expect(notarize).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledWith('notarize: skipped (set APPLE_ID, APPLE_APP_SPECIFIC_PASSWORD and APPLE_TEAM_ID, or APPLE_API_KEY, APPLE_API_KEY_ID and APPLE_API_ISSUER)');
  });

  it('with an Apple ID: notarizes <appOutDir>/Avail.app with the ID, app-specific password and team, never logging them', async () => {
    const log = vi.fn();
    const notarize = vi.fn().mockResolvedValue(undefined);
    const env = { APPLE_ID: 'dev@example.com', APPLE_APP_SPECIFIC_PASSWORD: 'abcd-efgh-ijkl-mnop', APPLE_TEAM_ID: 'TEAM123456' };
    await expect(notarizeHook.notarizeApp(macContext('/out/mac-universal'), { env, notarize, log })).resolves.toBe('notarized');
    expect(notarize).toHaveBeenCalledTimes(1);
    expect(notarize).toHaveBeenCalledWith({ appPath: '/out/mac-universal/Avail.app', appleId: 'dev@example.com', appleIdPassword: 'abcd-efgh-ijkl-mnop', teamId: 'TEAM123456' });
    expect(log.mock.calls.flat().join('\n')).not.toMatch(/abcd-efgh|dev@example\.com/);
  });

  it('with an App Store Connect API key: the key variant', async () => {
    const notarize = vi.fn().mockResolvedValue(undefined);
    const env = { APPLE_API_KEY: '/keys/AuthKey_X.p8', APPLE_API_KEY_ID: 'KEYID', APPLE_API_ISSUER: 'issuer-uuid' };
    await notarizeHook.notarizeApp(macContext('/out/mac'), { env, notarize, log: () => {} });
    expect(notarize).toHaveBeenCalledWith({ appPath: '/out/mac/Avail.app', appleApiKey: '/keys/AuthKey_X.p8', appleApiKeyId: 'KEYID', appleApiIssuer: 'issuer-uuid' });
  });

  it('credentials given only in part fail the build, naming what is missing', async () => {
    const notarize = vi.fn();
    await expect(notarizeHook.notarizeApp(macContext(), { env: { APPLE_ID: 'dev@example.com', APPLE_TEAM_ID: 'T' }, notarize, log: () => {} })).rejects.toThrow(
      'notarize: APPLE_APP_SPECIFIC_PASSWORD not set',
    );
    expect(notarize).not.toHaveBeenCalled();
  });

  it("Apple's refusal fails the build", async () => {
    const notarize = vi.fn().mockRejectedValue(new Error('Notarization failed: Invalid'));
    const env = { APPLE_ID: 'a@example.com', APPLE_APP_SPECIFIC_PASSWORD: 'p', APPLE_TEAM_ID: 'T' };
    await expect(notarizeHook.notarizeApp(macContext(), { env, notarize, log: () => {} })).rejects.toThrow('Notarization failed');
  });

  it('on Linux and Windows builds it does nothing, not even log', async () => {
    const log = vi.fn();
    const notarize = vi.fn();
    await expect(notarizeHook.notarizeApp({ ...macContext(), electronPlatformName: 'win32' }, { env: { APPLE_ID: 'x' }, notarize, log })).resolves.toBe('not-mac');
    expect(notarize).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
  });

  it('electron-builder finds the afterSign function in the module', () => {
    expect(typeof notarizeHook.afterSign).toBe('function');
  });
});

describe('Windows sign hook (win.signtoolOptions.sign): runs AVAIL_WINDOWS_SIGN_COMMAND for each file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'avail-sign-'));
    windowsSignHook.resetSkipLog();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const node = JSON.stringify(process.execPath);

  it('without the command: one log line for the whole build, the files untouched', async () => {
    const log = vi.fn();
    const file = join(dir, 'Avail.exe');
    writeFileSync(file, 'MZ');
    await expect(windowsSignHook.signFile({ path: file }, { env: {}, log })).resolves.toBe('skipped');
    await expect(windowsSignHook.signFile({ path: join(dir, 'Avail-0.1.0-x64.exe') }, { env: {}, log })).resolves.toBe('skipped');
    expect(log).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledWith('windows sign: skipped (AVAIL_WINDOWS_SIGN_COMMAND not set)');
    expect(readFileSync(file, 'utf8')).toBe('MZ');
  });

  it('runs the template with {file} replaced by the quoted path (spaces and quotes in the path survive)', async () => {
    const file = join(dir, "Avail Setup's 0.1.0.exe");
    writeFileSync(file, 'MZ');
    const template = `${node} -e "require('fs').writeFileSync(process.argv[1] + '.signed', 'signed ' + process.argv[1])" {file}`;
    const env = { ...process.env, AVAIL_WINDOWS_SIGN_COMMAND: template };
    await expect(windowsSignHook.signFile({ path: file }, { env, log: () => {} })).resolves.toBe('signed');
    expect(readFileSync(`${file}.signed`, 'utf8')).toBe(`signed ${file}`);
  });

  it('a failing sign command rejects, so the build fails', async () => {
    const file = join(dir, 'Avail.exe');
    writeFileSync(file, 'MZ');
    const env = { ...process.env, AVAIL_WINDOWS_SIGN_COMMAND: `${node} -e "process.exit(3)" {file}` };
    await expect(windowsSignHook.signFile({ path: file }, { env, log: () => {} })).rejects.toThrow(/sign command failed .* \(exit 3\)/);
    expect(existsSync(`${file}.signed`)).toBe(false);
  });

  it("the command line is never logged; the tool's output only when it fails, its last 2 kB at most", async () => {
    const file = join(dir, 'Avail.exe');
    writeFileSync(file, 'MZ');
    const log = vi.fn();
    const quiet = `${node} -e "console.log('signing with vault token-on-success'); console.error('warn-on-success')" {file} --kv-secret=s3cr3t-in-template`;
    await windowsSignHook.signFile({ path: file }, { env: { ...process.env, AVAIL_WINDOWS_SIGN_COMMAND: quiet }, log });
    expect(log.mock.calls.flat().join('\n')).not.toMatch(/token-on-success|warn-on-success|s3cr3t-in-template/);

    log.mockClear();
    const noisy = `${node} -e "console.log('x'.repeat(5000)); console.error('SignTool Error: No certificates were found'); process.exit(1)" {file} --kv-secret=s3cr3t-in-template`;
    await expect(windowsSignHook.signFile({ path: file }, { env: { ...process.env, AVAIL_WINDOWS_SIGN_COMMAND: noisy }, log })).rejects.toThrow(/sign command failed/);
    const logged = log.mock.calls.flat().join('\n');
    expect(logged).toContain('SignTool Error: No certificates were found');
    expect(logged).not.toContain('s3cr3t-in-template');
    expect(logged.length).toBeLessThan(windowsSignHook.OUTPUT_LIMIT + 200);
  });

  it('a template without {file} is refused', async () => {
    const env = { ...process.env, AVAIL_WINDOWS_SIGN_COMMAND: 'signtool sign /a' };
    await expect(windowsSignHook.signFile({ path: join(dir, 'Avail.exe') }, { env, log: () => {} })).rejects.toThrow('must contain {file}');
  });

  it('quotes for cmd.exe on Windows and for sh elsewhere', () => {
    expect(windowsSignHook.signCommand('signtool sign /a {file}', 'C:\\out\\Avail Setup.exe', 'win32')).toBe('signtool sign /a "C:\\out\\Avail Setup.exe"');
    expect(windowsSignHook.signCommand('osslsigncode {file}', "/out/it's.exe", 'linux')).toBe(`osslsigncode '/out/it'\\''s.exe'`);
    expect(() => windowsSignHook.signCommand('signtool {file}', 'C:\\a"b.exe', 'win32')).toThrow(/double quote/);
  });

  it('electron-builder finds the sign function in the module', () => {
    expect(typeof windowsSignHook.sign).toBe('function');
  });
});
