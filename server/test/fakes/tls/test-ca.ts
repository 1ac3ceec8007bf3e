/**
 * The test certificate authority of the fakes served over https (generate.sh made the files):
 * `TEST_TLS` is the fakes' key and certificate (127.0.0.1, ::1, localhost), `TEST_CA_FILE` the CA
 * that signed it. Processes that call a fake trust the CA through NODE_EXTRA_CA_CERTS, which Node
 * reads only at process start: vitest.config.ts sets it before the test workers fork, and
 * web/e2e/global-setup.ts passes it to the server it spawns. Certificate checks stay on everywhere.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** PEM file of the test CA. */
const TEST_CA_FILE = path.join(here, 'ca.pem');

/** `https.createServer` options of the fakes. */
export const TEST_TLS = {
  key: readFileSync(path.join(here, 'server-key.pem')),
  cert: readFileSync(path.join(here, 'server.pem')),
};

/**
 * The NODE_EXTRA_CA_CERTS value for a child process: the test CA, or — when `current` already names
 * another bundle (a corporate proxy CA …) — a file with both, so neither is lost.
 */
export function extraCaCertsWithTestCa(current: string | undefined): string {
  if (!current || path.resolve(current) === TEST_CA_FILE) return TEST_CA_FILE;
  const ca = readFileSync(TEST_CA_FILE, 'utf8');
  const existing = readFileSync(current, 'utf8');
  if (existing.includes(ca.trim())) return current;
  const both = `${existing.trimEnd()}\n${ca}`;
  const file = path.join(tmpdir(), `avail-test-ca-${createHash('sha256').update(both).digest('hex').slice(0, 16)}.pem`);
  writeFileSync(file, both);
  return file;
}
