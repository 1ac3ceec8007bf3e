/**
 * electron-builder `win.signtoolOptions.sign` hook (electron-builder.yml): signs each Windows file
 * (the app's .exe, the nsis installer and uninstaller) by running the command template in
 * `AVAIL_WINDOWS_SIGN_COMMAND`, with `{file}` replaced by the file's quoted path — e.g.
 * `AzureSignTool sign -kvu … -tr http://timestamp.digicert.com -td sha256 {file}` or
 * `signtool sign /fd sha256 /tr http://timestamp.digicert.com /td sha256 /a {file}`
 * (docs/desktop-release.md, "Signing").
 *
 * Unset: one log line per build "windows sign: skipped (AVAIL_WINDOWS_SIGN_COMMAND not set)", the
 * files stay unsigned. A command that exits non-zero fails the build: an unsigned installer is never
 * published as a signed one. The command line itself is never logged (it may carry secrets); the
 * tool's output (stdout and stderr, piped) is echoed only when it fails, its last 2 kB at most.
 */
'use strict';

const { spawn } = require('node:child_process');

const SKIP_LINE = 'windows sign: skipped (AVAIL_WINDOWS_SIGN_COMMAND not set)';
/** How much of a failing command's output is echoed (its end, where the reason usually is). */
const OUTPUT_LIMIT = 2048;
let skipLogged = false;

/**
 * Quotes a path for the shell that runs the command (cmd.exe on Windows, /bin/sh elsewhere).
 *
 * @param {string} file absolute path
 * @param {string} [platform] defaults to `process.platform`
 * @returns {string}
 * @throws {Error} a path holding a double quote (cmd.exe cannot quote it safely) or, outside Windows,
 *   nothing: single quotes are escaped
 */
function quotePath(file, platform = process.platform) {
  if (platform === 'win32') {
    if (file.includes('"')) throw new Error('windows sign: a file path with a double quote cannot be passed to the sign command');
    return `"${file}"`;
  }
  return `'${file.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command line for one file.
 *
 * @param {string} template `AVAIL_WINDOWS_SIGN_COMMAND`, holding `{file}` at least once
 * @param {string} file absolute path of the file to sign
 * @param {string} [platform]
 * @returns {string}
 * @throws {Error} a template without `{file}`
 */
function signCommand(template, file, platform) {
  if (!template.includes('{file}')) throw new Error('windows sign: AVAIL_WINDOWS_SIGN_COMMAND must contain {file} (where the path of the file to sign goes)');
  return template.split('{file}').join(quotePath(file, platform));
}

/**
 * Signs one file, or logs (once per process) that signing is skipped.
 *
 * @param {{ path: string }} configuration electron-builder's CustomWindowsSignTaskConfiguration
 * @param {{ env?: Record<string, string | undefined>, log?: (line: string) => void }} [deps]
 * @returns {Promise<'skipped' | 'signed'>}
 * @throws {Error} the command could not start or exited non-zero (the build fails)
 */
async function signFile(configuration, deps = {}) {
  const env = deps.env ?? process.env;
  const log = deps.log ?? ((line) => console.log(line));
  const template = (env.AVAIL_WINDOWS_SIGN_COMMAND ?? '').trim();
  if (template === '') {
    if (!skipLogged) log(SKIP_LINE);
    skipLogged = true;
    return 'skipped';
  }
  const command = signCommand(template, configuration.path);
  const chunks = [];
  const code = await new Promise((resolve, reject) => {
    const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'], env });
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (status, signal) => resolve(signal ? signal : status));
  });
  if (code !== 0) {
    const output = Buffer.concat(chunks).toString('utf8').trim();
    if (output !== '') {
      const shown = output.length > OUTPUT_LIMIT ? `… ${output.slice(-OUTPUT_LIMIT)}` : output;
      log(`windows sign: the sign command's output (last ${OUTPUT_LIMIT} characters at most):\n${shown}`);
    }
    throw new Error(`windows sign: the sign command failed for ${configuration.path} (exit ${code})`);
  }
  log(`windows sign: signed ${configuration.path}`);
  return 'signed';
}

/** electron-builder's entry point: `sign(configuration, packager)`. */
async function sign(configuration) {
  await signFile(configuration);
}

/** For tests: forget that the skip line was logged. */
function resetSkipLog() {
  skipLogged = false;
}

module.exports = { sign, signFile, signCommand, quotePath, resetSkipLog, SKIP_LINE, OUTPUT_LIMIT };
