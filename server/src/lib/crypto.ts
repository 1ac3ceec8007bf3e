/**
 * Secrets at rest (CalDAV passwords, Apple app-specific passwords, secret ICS feed URLs) and owner
 * calendar content (raw ICS sources, event titles; sealContent): AES-256-GCM with a random
 * 12-byte IV per value. Stored format, versioned so the scheme can change later:
 *
 *   v1.<iv base64url>.<auth tag base64url>.<ciphertext base64url>
 *
 * The 32-byte key comes from config (AVAIL_SECRET_KEY or the secret file). Nothing here logs.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

export class SecretDecryptError extends Error {
  constructor(message = 'Stored secret could not be decrypted') {
    super(message);
    this.name = 'SecretDecryptError';
  }
}

function checkKey(key: Uint8Array): Buffer {
  const buf = Buffer.from(key);
  if (buf.length !== KEY_BYTES) throw new Error(`Secret key must be ${KEY_BYTES} bytes, got ${buf.length}`);
  return buf;
}

/** Encrypts a UTF-8 string; every call uses a fresh IV, so equal inputs give different outputs. */
export function encryptSecret(plaintext: string, key: Uint8Array): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', checkKey(key), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(VERSION));
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString('base64url'), tag.toString('base64url'), ct.toString('base64url')].join('.');
}

/** Decrypts a value made by encryptSecret; throws SecretDecryptError on a wrong key or tampering. */
export function decryptSecret(stored: string, key: Uint8Array): string {
  const parts = stored.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretDecryptError('Unknown secret format');
  const [version, ivB64, tagB64, ctB64] = parts as [string, string, string, string];
  const iv = Buffer.from(ivB64, 'base64url');
  const tag = Buffer.from(tagB64, 'base64url');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretDecryptError('Unknown secret format');
  try {
    const decipher = createDecipheriv('aes-256-gcm', checkKey(key), iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(version));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(ctB64, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretDecryptError();
  }
}

/**
 * HMAC-SHA256(key, UTF-8 text), hex: a stable fingerprint of a secret, to find equal secrets
 * (e.g. an ICS feed connected twice) without storing them; useless without the key.
 */
export function secretFingerprint(text: string, key: Uint8Array): string {
  return createHmac('sha256', checkKey(key)).update(text, 'utf8').digest('hex');
}

/** Reads a key given as 64 hex chars or base64(url) of 32 bytes. */
export function parseSecretKey(text: string): Buffer {
  const t = text.trim();
  const buf = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
  return checkKey(buf);
}

/** Prefix of owner calendar content sealed at rest (sealContent); anything else is legacy plain text. */
const SEALED_PREFIX = 'enc:';

/**
 * Seals owner-only calendar content at rest (raw ICS sources, event titles): AES-256-GCM as
 * encryptSecret, behind SEALED_PREFIX so rows written before sealing existed (plain text) stay
 * readable until the start-up pass seals them.
 */
export function sealContent(plaintext: string, key: Uint8Array): string {
  return SEALED_PREFIX + encryptSecret(plaintext, key);
}

/** The whole shape of a sealContent value: `enc:v1.<iv>.<tag>.<ciphertext>` (base64url parts). */
const SEALED_SHAPE = /^enc:v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** The plain text of a sealContent value; a legacy plain value is returned as is. Throws SecretDecryptError on a wrong key. */
export function openContent(stored: string, key: Uint8Array): string {
  return isSealed(stored) ? decryptSecret(stored.slice(SEALED_PREFIX.length), key) : stored;
}

/**
 * True when `stored` has the whole shape of a sealContent value — not merely its prefix: a note an
 * owner typed as "enc: …" before sealing existed is plain text, sealed by the start-up pass.
 */
export function isSealed(stored: string): boolean {
  return SEALED_SHAPE.test(stored);
}

/** sealContent for a nullable column: null stays null (issue 26: block notes, proposal texts). */
export function sealNullable(plaintext: string | null, key: Uint8Array): string | null {
  return plaintext == null ? null : sealContent(plaintext, key);
}

/** openContent for a nullable column: null stays null; a legacy plain value is returned as is. */
export function openNullable(stored: string | null, key: Uint8Array): string | null {
  return stored == null ? null : openContent(stored, key);
}
