/**
 * Account secrets: generation, hashing and constant-time comparison.
 *
 * - license: `XXXXX-XXXXX-XXXXX-XXXXX-XXXXX`, 25 characters drawn by a CSPRNG from a 32-letter
 *   alphabet without look-alikes (0/O, 1/I): 125 bits of entropy.
 * - guid: a random UUID (version 4, 122 random bits).
 *
 * Both are stored only as HMAC-SHA-256 digests keyed with a per-install pepper (kept in the store's
 * meta table, created once at first initialisation). Because both secrets are long random values,
 * a fast keyed hash is as safe as a slow password hash here and keeps authentication cheap enough to
 * run on every request. The license digest is the lookup key; the guid digest is compared in
 * constant time (crypto.timingSafeEqual).
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

export const LICENSE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const LICENSE_FORMAT = /^[A-Z0-9]{5}(?:-[A-Z0-9]{5}){4}$/;

export function generateLicense(): string {
  const bytes = randomBytes(25);
  let out = '';
  for (let i = 0; i < 25; i++) {
    if (i > 0 && i % 5 === 0) out += '-';
    // 32 letters: the low 5 bits of a uniform byte are uniform, no modulo bias.
    out += LICENSE_ALPHABET[bytes[i]! & 31];
  }
  return out;
}

export function generateGuid(): string {
  return randomUUID();
}

export function generatePepper(): string {
  return randomBytes(32).toString('hex');
}

export type SecretKind = 'license' | 'guid';

/** Keyed digest of a secret, hex. The kind is part of the input (domain separation). */
export function hashSecret(pepper: string, kind: SecretKind, value: string): string {
  return createHmac('sha256', pepper).update(kind).update('\0').update(value, 'utf8').digest('hex');
}

/** Constant-time equality of two hex digests of the same length. */
export function digestsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  if (x.length !== y.length || x.length === 0) {
    // Still spend the time of one comparison, so a length mismatch is not faster.
    timingSafeEqual(x.length ? x : Buffer.alloc(32), x.length ? x : Buffer.alloc(32));
    return false;
  }
  return timingSafeEqual(x, y);
}
