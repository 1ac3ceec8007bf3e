import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret, isSealed, openContent, parseSecretKey, sealContent, SecretDecryptError, secretFingerprint } from './crypto.ts';

describe('secret encryption (AES-256-GCM)', () => {
  const key = randomBytes(32);

  it('round-trips and never contains the plaintext', () => {
    const stored = encryptSecret('app-specific-pass wörd', key);
    expect(stored.startsWith('v1.')).toBe(true);
    expect(stored).not.toContain('app-specific');
    expect(decryptSecret(stored, key)).toBe('app-specific-pass wörd');
  });

  it('uses a fresh 12-byte IV per value', () => {
    const a = encryptSecret('same', key);
    const b = encryptSecret('same', key);
    expect(a).not.toBe(b);
    expect(Buffer.from(a.split('.')[1]!, 'base64url').length).toBe(12);
  });

  it('refuses a wrong key, tampering and unknown versions', () => {
    const stored = encryptSecret('secret', key);
    expect(() => decryptSecret(stored, randomBytes(32))).toThrow(SecretDecryptError);
    const parts = stored.split('.');
    const ct = Buffer.from(parts[3]!, 'base64url');
    ct[0] = ct[0]! ^ 1;
    expect(() => decryptSecret([parts[0], parts[1], parts[2], ct.toString('base64url')].join('.'), key)).toThrow(SecretDecryptError);
    expect(() => decryptSecret(stored.replace(/^v1/, 'v2'), key)).toThrow(SecretDecryptError);
  });

  it('requires a 32-byte key and parses hex or base64 keys', () => {
    expect(() => encryptSecret('x', randomBytes(16))).toThrow(/32 bytes/);
    const hex = key.toString('hex');
    expect(parseSecretKey(hex).equals(key)).toBe(true);
    expect(parseSecretKey(key.toString('base64')).equals(key)).toBe(true);
  });
});

describe('secret fingerprint (HMAC-SHA256)', () => {
  it('is stable per key, differs across keys and never contains the input', () => {
    const key = randomBytes(32);
    const a = secretFingerprint('https://calendar.example/private-abc123/basic.ics', key);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(secretFingerprint('https://calendar.example/private-abc123/basic.ics', key)).toBe(a);
    expect(secretFingerprint('https://calendar.example/private-abc124/basic.ics', key)).not.toBe(a);
    expect(secretFingerprint('https://calendar.example/private-abc123/basic.ics', randomBytes(32))).not.toBe(a);
    expect(() => secretFingerprint('x', randomBytes(16))).toThrow();
  });
});

describe('sealed content', () => {
  it('tells a sealed value from plain text that merely starts with "enc:" (an old note typed so stays readable and gets sealed)', () => {
    const key = randomBytes(32);
    const sealed = sealContent('Dentist', key);
    expect(isSealed(sealed)).toBe(true);
    expect(openContent(sealed, key)).toBe('Dentist');
    for (const plain of ['enc: call Bob', 'enc:v1.not really', 'enc:', 'Enc:v1.a.b.c d']) {
      expect(isSealed(plain)).toBe(false);
      expect(openContent(plain, key)).toBe(plain);
    }
  });
});
