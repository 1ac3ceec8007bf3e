/** Two-factor helpers: what the code fields send, the QR code as an image, the recovery-codes file. */
import { describe, expect, it } from 'vitest';
import { cleanAnyCode, cleanRecoveryInput, cleanTotpInput, groupSecret, recoveryCodesText, svgDataUrl } from './two-factor.ts';

describe('cleanTotpInput', () => {
  it('keeps the digits of a pasted code, at most six', () => {
    expect(cleanTotpInput('123 456')).toBe('123456');
    expect(cleanTotpInput(' 12-34-56 ')).toBe('123456');
    expect(cleanTotpInput('1234567')).toBe('123456');
    expect(cleanTotpInput('abc')).toBe('');
  });
});

describe('cleanRecoveryInput', () => {
  it('drops spaces, lower-cases and puts the hyphen back', () => {
    expect(cleanRecoveryInput(' ABCDE-FGHIJ ')).toBe('abcde-fghij');
    expect(cleanRecoveryInput('abcde fghij')).toBe('abcde-fghij');
    expect(cleanRecoveryInput('abcdefghij')).toBe('abcde-fghij');
  });
  it('passes anything else on for the server to judge', () => {
    expect(cleanRecoveryInput('abc')).toBe('abc');
    expect(cleanRecoveryInput('abcde_fghij')).toBe('abcde_fghij');
  });
});

describe('cleanAnyCode', () => {
  it('reads six digits as an authenticator code and the rest as a recovery code', () => {
    expect(cleanAnyCode('123 456')).toBe('123456');
    expect(cleanAnyCode('123-456')).toBe('123456');
    expect(cleanAnyCode('ABCDE FGHIJ')).toBe('abcde-fghij');
    expect(cleanAnyCode('12345-67890')).toBe('12345-67890');
  });
});

describe('svgDataUrl', () => {
  it('is a base64 data: address that decodes to the same markup, non-ASCII included', () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><title>Zoë’s code</title></svg>';
    const url = svgDataUrl(svg);
    expect(url.startsWith('data:image/svg+xml;base64,')).toBe(true);
    expect(new TextDecoder().decode(Uint8Array.from(atob(url.split(',')[1]), (c) => c.charCodeAt(0)))).toBe(svg);
    expect(url).not.toContain('<');
  });
});

describe('groupSecret', () => {
  it('groups a base32 secret by four', () => {
    expect(groupSecret('JBSWY3DPEHPK3PXP')).toBe('JBSW Y3DP EHPK 3PXP');
    expect(groupSecret('JBSWY3DPEH')).toBe('JBSW Y3DP EH');
  });
});

describe('recoveryCodesText', () => {
  it('names the account and the day and lists every code on its own line', () => {
    const codes = Array.from({ length: 10 }, (_, i) => `aaaa${i}-bbbb${i}`);
    const text = recoveryCodesText(codes, 'olivia@example.com', new Date('2026-11-27T23:30:00Z'));
    const lines = text.split('\r\n');
    expect(lines).toContain('Account: olivia@example.com');
    expect(lines).toContain('Created: 2026-11-27');
    expect(lines.filter((l) => /^[a-z0-9]{5}-[a-z0-9]{5}$/.test(l))).toEqual(codes);
  });
});
