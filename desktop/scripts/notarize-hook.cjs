/**
 * electron-builder `afterSign` hook (electron-builder.yml): notarizes the signed macOS app with
 * `@electron/notarize` (notarytool) so Gatekeeper opens the dmg without a warning
 * (docs/desktop-release.md, "Signing").
 *
 * Credentials, from the environment of `npm run dist -w desktop`, either
 *   APPLE_ID + APPLE_APP_SPECIFIC_PASSWORD + APPLE_TEAM_ID, or
 *   APPLE_API_KEY (path to the .p8 key) + APPLE_API_KEY_ID + APPLE_API_ISSUER.
 * Without them: one log line "notarize: skipped (…)" and nothing else. Credentials set only in part
 * fail the build (a release meant to be notarized is never published without it). Other platforms
 * than macOS: nothing. Secrets are never logged.
 *
 * electron-builder calls this only after it really signed the app (CSC_LINK / a keychain identity).
 */
'use strict';

const path = require('node:path');

const SKIP_LINE = 'notarize: skipped (set APPLE_ID, APPLE_APP_SPECIFIC_PASSWORD and APPLE_TEAM_ID, or APPLE_API_KEY, APPLE_API_KEY_ID and APPLE_API_ISSUER)';

/**
 * The notarize options for the credentials in `env`, or null when none is set.
 *
 * @param {string} appPath absolute path of the signed `Avail.app`
 * @param {Record<string, string | undefined>} env usually `process.env`
 * @returns {null | { appPath: string, appleId: string, appleIdPassword: string, teamId: string }
 *   | { appPath: string, appleApiKey: string, appleApiKeyId: string, appleApiIssuer: string }}
 * @throws {Error} when a set of credentials is only partly given (names the missing variables)
 */
function notarizeOptions(appPath, env) {
  const present = (name) => typeof env[name] === 'string' && env[name].trim() !== '';
  const groups = [
    ['APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID'],
    ['APPLE_API_KEY', 'APPLE_API_KEY_ID', 'APPLE_API_ISSUER'],
  ];
  for (const group of groups) {
    if (!group.some(present)) continue;
    const missing = group.filter((name) => !present(name));
    if (missing.length > 0) throw new Error(`notarize: ${missing.join(', ')} not set (${group.join(', ')} go together)`);
  }
  if (present('APPLE_ID')) {
    return { appPath, appleId: env.APPLE_ID, appleIdPassword: env.APPLE_APP_SPECIFIC_PASSWORD, teamId: env.APPLE_TEAM_ID };
  }
  if (present('APPLE_API_KEY')) {
    return { appPath, appleApiKey: env.APPLE_API_KEY, appleApiKeyId: env.APPLE_API_KEY_ID, appleApiIssuer: env.APPLE_API_ISSUER };
  }
  return null;
}

/**
 * The hook's work, with its collaborators injectable for tests.
 *
 * @param {{ electronPlatformName: string, appOutDir: string, packager: { appInfo: { productFilename: string } } }} context
 *   electron-builder's AfterPackContext
 * @param {{ env?: Record<string, string | undefined>, notarize?: (options: object) => Promise<void>, log?: (line: string) => void }} [deps]
 *   defaults: `process.env`, `@electron/notarize`'s `notarize`, `console.log`
 * @returns {Promise<'skipped' | 'notarized' | 'not-mac'>}
 * @throws {Error} partial credentials, or notarization refused by Apple (the build fails)
 */
async function notarizeApp(context, deps = {}) {
  const env = deps.env ?? process.env;
  const log = deps.log ?? ((line) => console.log(line));
  if (context.electronPlatformName !== 'darwin') return 'not-mac';
  const appPath = path.join(context.appOutDir, `${context.packager.appInfo.productFilename}.app`);
  const options = notarizeOptions(appPath, env);
  if (options === null) {
    log(SKIP_LINE);
    return 'skipped';
  }
  const notarize = deps.notarize ?? require('@electron/notarize').notarize;
  log(`notarize: submitting ${path.basename(appPath)} to Apple's notary service (${'appleId' in options ? 'Apple ID' : 'API key'})`);
  await notarize(options);
  log('notarize: done');
  return 'notarized';
}

/** electron-builder's entry point: `afterSign(context)`. */
async function afterSign(context) {
  await notarizeApp(context);
}

module.exports = { afterSign, notarizeApp, notarizeOptions, SKIP_LINE };
