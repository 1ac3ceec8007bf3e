/**
 * The owner's authenticator app in the browser specs: TOTP codes (RFC 6238 over HOTP, RFC 4226)
 * computed with node:crypto from the base32 secret (RFC 4648 §6) the page shows — 30-second
 * steps, 6 digits, HMAC-SHA-1, as the contract (docs/account-security.md) and every authenticator
 * app use. Written independently of the server's otplib on purpose: a code the server accepts
 * from this helper is a code a phone app would show.
 */
import { createHmac } from 'node:crypto';

/** Seconds per TOTP time step (RFC 6238 §4.1 X). */
export const TOTP_STEP_S = 30;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Bytes of a base32 secret (spaces, hyphens and padding ignored, any case). */
function base32Decode(secret: string): Buffer {
  const clean = secret.replace(/[\s=-]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const i = BASE32.indexOf(ch);
    if (i < 0) throw new Error(`Not a base32 secret: ${secret}`);
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The time step (RFC 6238 T) of an instant in UTC ms. */
function totpStep(atMs: number = Date.now()): number {
  return Math.floor(atMs / 1000 / TOTP_STEP_S);
}

/** The 6-digit code of `secret` for time step `step` (HOTP with the step as counter, RFC 4226 §5.3). */
function totpForStep(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, '0');
}

/** The code an authenticator app shows at `atMs` (UTC ms, default now). */
export function totp(secret: string, atMs: number = Date.now()): string {
  return totpForStep(secret, totpStep(atMs));
}

/**
 * A code of a step not yet used (the server refuses a code it already accepted: replay guard):
 * waits for the next step when the current one is in `used`, and at least 3 s into a step so the
 * code is not a step old by the time it arrives. Adds the step to `used`.
 */
export async function freshTotp(secret: string, used: Set<number>): Promise<string> {
  for (;;) {
    const now = Date.now();
    const step = totpStep(now);
    const intoStep = now - step * TOTP_STEP_S * 1000;
    if (!used.has(step) && intoStep >= 3_000 && intoStep <= (TOTP_STEP_S - 3) * 1000) {
      used.add(step);
      return totpForStep(secret, step);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}
